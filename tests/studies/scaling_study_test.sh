#!/usr/bin/env bash
# scripts/scaling-study on a tiny configuration: the CSV has the documented columns and a row
# per program, strategy, mode and np with samples/s > 0 (efficiency 1 at np 1), and both plots
# show all three series (png_check plot counts each series' colour).
#   scaling_study_test.sh PNG_CHECK BIN_DIR OUT_DIR
set -euo pipefail
check="$1" bin="$2" out="$3"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rm -rf "$out"
"$root/scripts/scaling-study" --bin "$bin" --out "$out" --np "1 2" --iters 3 --warmup 1 --data synthetic \
  --layers 64,32 --batch-per-rank 16 --global-batch 32
csv="$out/scaling.csv"
awk -F, '
  NR == 1 { if ($0 != "program,strategy,mode,np,global_batch,batch_per_rank,samples_per_s,ideal,speedup,efficiency") { print "FAILED: header " $0; bad = 1 }; next }
  { rows++; if (!($7 > 0)) { print "FAILED: no samples/s in " $0; bad = 1 }
    if ($4 == 1 && $10 != "1.000") { print "FAILED: efficiency at np 1 is not 1: " $0; bad = 1 }
    if ($3 == "weak" && $5 != 16 * $4) { print "FAILED: weak scaling global batch: " $0; bad = 1 }
    if ($3 == "strong" && $5 != 32) { print "FAILED: strong scaling global batch: " $0; bad = 1 }
    seen[$1 "," $2] = 1 }
  END { if (rows != 12 || length(seen) != 3) { print "FAILED: " rows " rows, " length(seen) " series; expected 12 and 3"; bad = 1 }
        if (bad) exit 1; print "CSV ok: " rows " rows" }' "$csv"
for png in scaling-throughput scaling-efficiency; do
  "$check" plot "$out/$png.png" 800 300 d62728:200 1f77b4:200 2ca02c:200
done
