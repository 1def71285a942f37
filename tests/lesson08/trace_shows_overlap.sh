#!/usr/bin/env bash
# A traced lesson 08 run (strategy bucket, 3 steps): the trace holds the backward pass as
# compute blocks and each bucket's allreduce (ring_allreduce_fast, begin to end) on the same
# rank, and some allreduce runs WHILE a backward block runs — the overlap the lesson is about.
# The Chrome trace draws the compute blocks on rows of their own ("rank 0 compute").
#   trace_shows_overlap.sh MPIRUN LESSON_08 OUT_DIR
set -euo pipefail
mpirun="$1" bin="$2" out="$3"
mkdir -p "$out"
trace="$out/bucket.trace"
rm -f "$trace" "$trace.chrome.json"
"$mpirun" -np 2 "$bin" --bench --iters 3 --warmup 0 --strategy bucket --data synthetic --trace "$trace"
awk '
  function field(name,   m) { if (match($0, "\"" name "\":\"?[^,\"}]*")) { m = substr($0, RSTART, RLENGTH); sub(/^"[a-z0-9]+":"?/, "", m); return m }; return "" }
  field("op") == "compute" && field("name") == "backward" { r = field("rank"); n = ++blocks[r]; b0[r, n] = field("t0") + 0; b1[r, n] = field("t1") + 0 }
  field("coll") == "ring_allreduce_fast" && field("op") == "begin" { start[field("rank"), field("call")] = field("t0") + 0 }
  field("coll") == "ring_allreduce_fast" && field("op") == "end" { r = field("rank"); k = ++ars[r]; a0[r, k] = start[r, field("call")]; a1[r, k] = field("t0") + 0 }
  END {
    for (r in ars) for (k = 1; k <= ars[r]; ++k) {
      total++
      for (n = 1; n <= blocks[r]; ++n) if (a0[r, k] < b1[r, n] && b0[r, n] < a1[r, k]) { overlapped++; break }
    }
    nb = 0; for (r in blocks) nb += blocks[r]
    printf "%d backward blocks, %d bucket allreduces, %d of them overlap a backward block on their rank\n", nb, total, overlapped
    if (nb == 0 || total == 0 || overlapped == 0) { print "FAILED"; exit 1 }
  }' "$trace"
grep -q '"rank 0 compute"' "$trace.chrome.json" || { echo "FAILED: no compute row in the Chrome trace"; exit 1; }
echo PASSED
