#!/usr/bin/env bash
# Demo for learning-rate scaling: np 1, 2, 4 x none|linear|sqrt, one CSV, one summary table.
# The full study takes a while on a laptop; --epochs 3 keeps it to a few minutes.
source "$(dirname "$0")/_demo.sh"
step "$ROOT/scripts/lr-scaling-study.sh" --epochs "${EPOCHS:-3}"
