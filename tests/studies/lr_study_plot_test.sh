#!/usr/bin/env bash
# scripts/lr-scaling-study.sh on 2 workers, 2 epochs of the synthetic set: the plot shows a
# line for each rule (png_check plot counts each rule's colour).
#   lr_study_plot_test.sh PNG_CHECK LESSON_07 OUT_DIR
set -euo pipefail
check="$1" bin="$2" out="$3"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rm -rf "$out"
"$root/scripts/lr-scaling-study.sh" --bin "$bin" --data synthetic --epochs 2 --np 2 --out "$out"
"$check" plot "$out/lr-scaling.png" 400 300 d62728:150 1f77b4:150 2ca02c:150
