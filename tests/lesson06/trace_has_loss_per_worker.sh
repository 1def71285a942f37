#!/usr/bin/env bash
# With --trace, every worker's loss and learning rate go into the trace at every step (the
# visualizer plots loss per worker). 2 ranks, 4 steps: 4 "loss" and 4 "lr" metrics per rank.
set -euo pipefail
mpirun="$1" bin="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
"$mpirun" -np 2 "$bin" --data synthetic --epochs 1 --batch 1024 --trace "$dir/t.trace" >/dev/null
fail=0
for rank in 0 1; do
  for name in loss lr; do
    steps="$(grep '"op":"metric"' "$dir/t.trace" | grep "\"name\":\"$name\"" | grep "\"rank\":$rank," |
             grep -o '"step":[0-9]*' | sort -u | tr '\n' ' ')"
    echo "rank $rank $name at: $steps"
    [[ "$steps" == '"step":0 "step":1 "step":2 "step":3 ' ]] || fail=1
  done
done
(( fail == 0 )) && echo PASSED || { echo "FAILED: expected steps 0..3 for each rank and metric"; exit 1; }
