#!/usr/bin/env bash
# diagnose_cli_test.sh TOOL MANIFEST: `ringlab-manifest diagnose 05` reads the runs (NP, exit
# code, results file as the lessons' --check writes it) and says what they have in common; for
# exercise 03 (whose manifest lists only root0) it must not name the ring's symptoms.
set -uo pipefail
tool="$1" manifest="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "diagnose_cli_test: $*"; exit 1; }
# Wrong only where count is not a multiple of np (the remainder), on 2 and 3 ranks.
printf 'case\t0\t-1\t0\ncase\t1\t-1\t1\ncase\t12\t-1\t0\ncase\t1000003\t-1\t1\n' >"$dir/np2"
printf 'case\t0\t-1\t0\ncase\t1\t-1\t2\ncase\t12\t-1\t0\ncase\t1000003\t-1\t2\nmismatch\t22\t-68\n' >"$dir/np3"
runs="$(printf '2\t1\t%s\n3\t1\t%s\n' "$dir/np2" "$dir/np3")"
out="$("$tool" --manifest "$manifest" diagnose 05 <<<"$runs")" || fail "diagnose 05 failed"
printf '%s\n' "$out"
grep -q '^wrong only where count is not a multiple of the number of ranks' <<<"$out" || fail "no remainder diagnosis"
[[ "$(wc -l <<<"$out")" == 1 ]] || fail "one pattern, one sentence"
# Right on 2 ranks, wrong on 3 and 4; the results file of a crashed run is missing.
runs="$(printf '1\t0\t%s\n2\t0\t%s\n3\t1\t%s\n4\t1\t%s\n' "$dir/none" "$dir/none" "$dir/none" "$dir/none")"
out="$("$tool" --manifest "$manifest" diagnose 05 <<<"$runs")"
printf '%s\n' "$out"
grep -q '^right on 2 ranks, wrong on 3 or more' <<<"$out" || fail "no np2 diagnosis"
out="$("$tool" --manifest "$manifest" diagnose 03 <<<"$runs")"
[[ -z "$out" ]] || fail "exercise 03 does not list np2, yet: $out"
echo "diagnose_cli_test: passed"
