#!/usr/bin/env bash
# judged_table.sh JUDGED.tsv
# Sums up a judge's verdicts on the held-out mistakes (README.md here says who judges and how):
# per exercise, how many the check caught, how many it named the cause of (and how many only
# partly: the right hole, or the cause as one possibility among several), and how many got a
# message that blames correct code. JUDGED.tsv has the header
#   exercise mistake exit caught cause blames evidence why     (tab-separated; yes/partly/no)
# and, from set 6 on, a column rounding_only after blames: the judge's reading of whether the
# mistake changes no result beyond float rounding. Where it is there, the rates are also given
# without those (a check that accepts float rounding by design cannot catch them).
# docs/instructors.md quotes this table for the newest judged-DATE.tsv (the test
# heldout_diagnoses_table_is_the_judged_one, with tests/docs/doc_output.sh, keeps it equal).
set -euo pipefail
[[ -f "${1:-}" ]] || { echo "usage: judged_table.sh JUDGED.tsv" >&2; exit 2; }
awk -F'\t' '
  NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rounding_only") ro = i; next }
  { ex = substr($1, 1, 2); if (!(ex in n)) order[++k] = ex
    n[ex]++; c[ex] += $4 == "yes"; y[ex] += $5 == "yes"; p[ex] += $5 == "partly"; b[ex] += $6 == "yes"
    if (ro && $ro == "yes") { R++; RC += $4 == "yes"; RY += $5 == "yes"; RP += $5 == "partly" } }
  function row(name, n, c, y, p, b) { printf "%-8s %9d %7d %12d %7d %15d\n", name, n, c, y, p, b }
  function pct(a, t) { return t ? int(100 * a / t + 0.5) : 0 }
  END {
    printf "%-8s %9s %7s %12s %7s %15s\n", "exercise", "mistakes", "caught", "cause named", "partly", "blames correct"
    for (i = 1; i <= k; i++) { e = order[i]; row(e, n[e], c[e], y[e], p[e], b[e])
      N += n[e]; C += c[e]; Y += y[e]; P += p[e]; B += b[e] }
    row("all", N, C, Y, P, B)
    printf "caught %d%%, cause named %d%% (%d%% with the partly named), %d message(s) blaming correct code\n",
      pct(C, N), pct(Y, N), pct(Y + P, N), B
    if (ro)
      printf "without the %d rounding-only variant(s): caught %d%%, cause named %d%% (%d%% with the partly named)\n",
        R, pct(C - RC, N - R), pct(Y - RY, N - R), pct(Y + P - RY - RP, N - R)
  }' "$1"
