#!/usr/bin/env bash
# Traced lesson 08 runs (strategy bucket, 10 steps), once per way of averaging:
#   --allreduce ring    each bucket's allreduce (ring_allreduce_fast, begin to end) runs on the
#                       progress thread WHILE a backward block of the same rank runs;
#   --allreduce shared  each bucket's averaging (shared_allreduce, begin to end) is in flight
#                       while backward blocks run, and some of its work (the pieces averaged)
#                       runs while ANOTHER rank still computes its backward pass: the rank
#                       that would wait does the communication.
# The Chrome trace draws the compute blocks on rows of their own ("rank 0 compute").
#   trace_shows_overlap.sh MPIRUN LESSON_08 OUT_DIR
set -euo pipefail
mpirun="$1" bin="$2" out="$3"
mkdir -p "$out"
for how in ring shared; do
  trace="$out/bucket-$how.trace"
  rm -f "$trace" "$trace.chrome.json"
  "$mpirun" -np 2 "$bin" --bench --iters 10 --warmup 0 --strategy bucket --allreduce "$how" --data synthetic \
    --trace "$trace" > /dev/null
  coll=$([[ $how == ring ]] && echo ring_allreduce_fast || echo shared_allreduce)
  awk -v coll="$coll" -v how="$how" '
    function field(name,   m) { if (match($0, "\"" name "\":\"?[^,\"}]*")) { m = substr($0, RSTART, RLENGTH); sub(/^"[a-z0-9]+":"?/, "", m); return m }; return "" }
    field("op") == "compute" && field("name") == "backward" { r = field("rank"); n = ++blocks[r]; b0[r, n] = field("t0") + 0; b1[r, n] = field("t1") + 0 }
    field("coll") == coll && field("op") == "begin" { start[field("rank"), field("call")] = field("t0") + 0 }
    field("coll") == coll && field("op") == "end" { r = field("rank"); k = ++ars[r]; a0[r, k] = start[r, field("call")]; a1[r, k] = field("t0") + 0 }
    field("coll") == coll && field("op") == "reduce" { r = field("rank"); k = ++works[r]; w0[r, k] = field("t0") + 0; w1[r, k] = field("t1") + 0 }
    END {
      for (r in ars) for (k = 1; k <= ars[r]; ++k) {
        total++
        for (n = 1; n <= blocks[r]; ++n) if (a0[r, k] < b1[r, n] && b0[r, n] < a1[r, k]) { overlapped++; break }
      }
      for (r in works) for (k = 1; k <= works[r]; ++k) {
        pieces++
        found = 0
        for (o in blocks) if (o != r) for (n = 1; n <= blocks[o] && !found; ++n)
          if (w0[r, k] < b1[o, n] && b0[o, n] < w1[r, k]) found = 1
        behind += found
      }
      nb = 0; for (r in blocks) nb += blocks[r]
      printf "%s: %d backward blocks, %d bucket allreduces, %d of them overlap a backward block on their rank", how, nb, total, overlapped
      if (how == "shared") printf "; %d pieces averaged, %d of them while the other rank computed", pieces, behind
      printf "\n"
      if (nb == 0 || total == 0 || overlapped == 0 || (how == "shared" && behind == 0)) { print "FAILED"; exit 1 }
    }' "$trace"
  grep -q '"rank 0 compute"' "$trace.chrome.json" || { echo "FAILED: no compute row in the Chrome trace"; exit 1; }
done
echo PASSED
