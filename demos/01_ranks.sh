#!/usr/bin/env bash
# Demo for the "Ranks" slide: world rank, local rank and the device each rank would use.
source "$(dirname "$0")/_demo.sh"
step "$RINGLAB" run 01 -np 4
