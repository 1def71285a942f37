#!/usr/bin/env bash
# Demo for the model-parallel slides: y = w0*x0 + w1*x1 + w2*x2 across 3 ranks, an MLP split by
# layers, then the GPipe pipeline's bubble against (P-1)/(M+P-1).
source "$(dirname "$0")/_demo.sh"
step "$RINGLAB" run 02 -np 3
step "$RINGLAB" run 02 -np 4 -- --bench
