#!/usr/bin/env bash
# Demo for "Broadcast the initial state": replicas drift apart without it, stay identical with
# it; then linear, tree and chain broadcasts against MPI_Bcast.
source "$(dirname "$0")/_demo.sh"
step "$RINGLAB" run 03 -np 4
step "$RINGLAB" run 03 -np 4 -- --bench
