#!/usr/bin/env bash
# Demo for the ring allreduce slides: the schedule step by step, then the benchmark table.
# Start the visualizer first (./ringlab viz --listen) and export RINGLAB_VIZ=auto to
# watch the chunks move.
source "$(dirname "$0")/_demo.sh"
step "$RINGLAB" run 05 -np 4 -- --schedule --count 8 --type int32
step "$RINGLAB" run 05 -np 4 -- --bench
