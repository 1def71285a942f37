#!/usr/bin/env bash
# The visualizer's Pipeline tab on a traced lesson 08 step (strategy bucket): the backward
# compute blocks (purple, #c887eb) and, under them, each allreduce's bar (orange, #f5823c) are
# drawn, counted by their pixels. Exit 77 (ctest: skipped) without xvfb-run.
#   pipeline_screenshot.sh MPIRUN LESSON_08 RINGLAB_VIZ PNG_CHECK OUT_DIR
set -euo pipefail
mpirun="$1" bin="$2" viz="$3" pixels="$4" out="$5"
command -v xvfb-run >/dev/null || { echo "SKIPPED: xvfb-run not found (apt-get install xvfb)"; exit 77; }
mkdir -p "$out"
trace="$out/step.trace"
rm -f "$trace" "$out/pipeline.png"
"$mpirun" -np 2 "$bin" --bench --iters 1 --warmup 0 --strategy bucket --data synthetic --trace "$trace" >/dev/null
xvfb-run -a -s '-screen 0 1280x720x24' "$viz" --replay "$trace" --tab pipeline --screenshot "$out/pipeline.png"
"$pixels" plot "$out/pipeline.png" 1280 720 c887eb:2000 f5823c:500
