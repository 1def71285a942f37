#!/usr/bin/env bash
# Demo for the parameter-server slide: bytes per rank, server vs ring, and the async variant's
# staleness.
source "$(dirname "$0")/_demo.sh"
step "$RINGLAB" run 04 -np 4
