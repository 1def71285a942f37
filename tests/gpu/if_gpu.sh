#!/usr/bin/env bash
# Runs COMMAND only where a GPU is visible; elsewhere exits 77 (skipped). The probe is the
# lesson itself: --device cuda exits 77 when there is no GPU.   usage: if_gpu.sh LESSON COMMAND...
set -uo pipefail
lesson="$1"
shift
"$(dirname "${BASH_SOURCE[0]}")/../../scripts/ringlab-mpirun" -np 1 "$lesson" --device cuda --count 1 >/dev/null 2>&1
[[ $? == 77 ]] && { echo "SKIP: no GPU visible"; exit 77; }
exec "$@"
