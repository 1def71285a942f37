#!/usr/bin/env bash
# Runs lesson 07 on 2 ranks (synthetic data, linear scaling, 1 warm-up epoch of 2) and checks
# the learning rates it wrote: step 0 at --lr, the last step at 2 x --lr, both ranks logged.
set -euo pipefail
mpirun="$1" bin="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
"$mpirun" -np 2 "$bin" --data synthetic --epochs 2 --warmup-epochs 1 --lr 0.01 --lr-scaling linear --csv "$dir/r.csv"
awk -F, '
  NR == 1 { if ($0 != "np,scaling,epoch,step,rank,loss,accuracy,lr") { print "bad header: " $0; bad = 1 }; next }
  $5 == "all" { epochs++; next }
  { ranks[$5] = 1; if ($4 == 0) first = $8; last = $8; if ($4 > maxstep) maxstep = $4 }
  END {
    printf "first lr %s, last lr %s, %d epoch rows, ranks %d\n", first, last, epochs, length(ranks)
    if (first + 0 != 0.01 || last + 0 != 0.02 || epochs != 2 || length(ranks) != 2 || bad) { print "FAILED"; exit 1 }
    print "PASSED"
  }' "$dir/r.csv"
