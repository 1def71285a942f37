#!/usr/bin/env bash
# Runs COMMAND only where GPU_VISIBLE says a GPU is visible; else exits with its 77 (skipped).
#   when_gpu.sh GPU_VISIBLE COMMAND...
"$1" || exit $?
shift
exec "$@"
