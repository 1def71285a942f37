#!/usr/bin/env bash
# Demo for gradient bucketing: the three strategies side by side on 2 workers (step time, how
# much of the allreduce hides behind backward, samples/s, the α-β model), then a traced step
# whose Pipeline tab shows each bucket's allreduce under the backward blocks.
source "$(dirname "$0")/_demo.sh"
step "$RINGLAB" run 08 -np 2 -- --bench --iters 100
step "$RINGLAB" run 08 -np 2 -- --bench --iters 1 --warmup 0 --strategy bucket --trace /tmp/ringlab-08.trace
step "$RINGLAB" viz /tmp/ringlab-08.trace --tab pipeline
