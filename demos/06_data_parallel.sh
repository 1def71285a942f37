#!/usr/bin/env bash
# Demo for data parallelism: the same MLP trained on Fashion-MNIST by 1 and by 2 workers; note
# the per-worker losses, the shared accuracy and samples/s.
source "$(dirname "$0")/_demo.sh"
step "$RINGLAB" run 06 -np 1 -- --epochs 2
step "$RINGLAB" run 06 -np 2 -- --epochs 2
