#!/usr/bin/env bash
# A traced ring allreduce on device buffers over ipc, np 2: the trace decodes as any other
# (check_trace: the ring's sends and receives, one Chrome row per rank), its transfers say
# where "device" and transport "ipc", the GPU's own times are recorded (gpu_t0), and the
# Chrome trace has a GPU row per rank.   usage: trace_on_device.sh MPIRUN LESSON_05 CHECK_TRACE FILE
set -uo pipefail
mpirun="$1" lesson="$2" check_trace="$3" file="$4"
rm -f "$file" "$file.chrome.json"
"$mpirun" -np 2 "$lesson" --device cuda --transport ipc --schedule --count 7 --type int32 --trace "$file"
rc=$?
[[ $rc == 77 ]] && exit 77
[[ $rc == 0 ]] || { echo "FAIL: lesson_05 exited $rc"; exit 1; }
"$check_trace" "$file" 2 || exit 1
fail=0
expect() {  # WHAT PATTERN FILE
  grep -q -- "$2" "$3" || { echo "FAIL: no $1 in $3"; fail=1; }
}
expect "ipc transfer event" '"transport":"ipc"' "$file"
expect "device event" '"where":"device"' "$file"
expect "GPU time" '"gpu_t0":' "$file"
expect "rank 0 GPU row" '"rank 0 GPU"' "$file.chrome.json"
expect "rank 1 GPU row" '"rank 1 GPU"' "$file.chrome.json"
[[ $fail == 0 ]] && echo "trace on device: ipc events, GPU times and GPU rows present"
exit "$fail"
