#!/usr/bin/env bash
# Turns the logs of one scripts/gpu-suite.sh run into the markdown of docs/gpu.md's results
# section, so the numbers there are never typed by hand:
#   scripts/gpu-report.sh LOGDIR > report.md
# Reads device.txt, summary.txt, bench-kernels.log, bench-lesson05-*.csv (staged, cpu and, from
# the ipc transport on, cuda-ipc), bench-lesson03-*.log
# and, when present, broken.log (the suite run once with a deliberately broken reduce kernel)
# and nccl.log.
set -euo pipefail
L="${1:?usage: scripts/gpu-report.sh LOGDIR}"
[[ -f "$L/summary.txt" ]] || { echo "error: $L/summary.txt not found: not a gpu-suite log folder" >&2; exit 2; }

gpu="$(grep -oE 'NVIDIA [A-Z0-9][^|]*[A-Za-z0-9]' "$L/device.txt" | grep -v 'NVIDIA-SMI' | head -n1 | sed 's/  .*//')"
driver="$(grep -m1 -oE 'Driver Version: [0-9.]+' "$L/device.txt" | cut -d' ' -f3)"
cuda="$(grep -m1 -oE 'CUDA Version: [0-9.]+' "$L/device.txt" | cut -d' ' -f3)"
nvcc="$(grep -m1 -oE 'release [0-9.]+, V[0-9.]+' "$L/device.txt" || true)"
mpi="$(grep -m1 'Open MPI' "$L/device.txt" || true)"
when="$(head -n1 "$L/device.txt")"
echo "- Device: $gpu, driver $driver (CUDA $cuda); nvcc $nvcc; $mpi; run $when."
[[ -f "$L/nccl.log" ]] && echo "- NCCL library on that machine: $(sed -n 's/^nccl lib: //p' "$L/nccl.log")."
echo
echo "### Checks"
echo
echo '```'
grep -E '^(PASS|FAIL|ctest)' "$L/summary.txt"
[[ -f "$L/nccl.log" ]] && grep -vE '^nccl lib' "$L/nccl.log" || true
echo '```'
if [[ -f "$L/broken.log" ]]; then
  echo
  echo "### The same checks with a reduce kernel broken on purpose (skips the last element)"
  echo
  echo '```'
  grep -E '^(==|exit|FAILED)' "$L/broken.log"
  echo '```'
fi
echo
echo "### Device reduce kernel vs a device-to-device copy"
echo
echo '```'
grep -vE 'pmix|dlopen|Perhaps' "$L/bench-kernels.log"
echo '```'
echo
echo "### Lesson 05 busbw (GB/s), one GPU shared by all ranks (staged) vs the same rings on the CPU"
echo
echo "| np | size | ring cuda | ring cpu | fast cuda | fast cpu | naive cuda | naive cpu | MPI_Allreduce (host) cuda | cpu |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for np in 2 4; do
  for mib in 4 64 256; do
    row="| $np | $mib MiB"
    for impl in ring fast naive mpi; do
      for dev in cuda cpu; do
        f="$L/bench-lesson05-$dev-np$np-${mib}MiB.csv"
        v="$( [[ -f $f ]] && awk -F, -v i="$impl" '$1==i {printf "%.2f", $7}' "$f" || true)"
        row+=" | ${v:-–}"
      done
    done
    echo "$row |"
  done
done
echo
echo "### Lesson 05 busbw (GB/s) of the ring by transport: ipc vs staged (one GPU shared by all ranks) vs the CPU"
echo
if compgen -G "$L/bench-lesson05-cuda-ipc-*.csv" >/dev/null; then
  echo "| np | size | ring ipc | ring staged | ring cpu | ipc / staged | ipc / cpu | fast ipc | naive ipc |"
  echo "|---|---|---|---|---|---|---|---|---|"
  busbw() {  # FILE IMPL: column 7 of that implementation's CSV row
    [[ -f "$1" ]] && awk -F, -v i="$2" '$1==i {printf "%.2f", $7}' "$1" || true
  }
  ratio() { [[ -n "$1" && -n "$2" ]] && awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.1f", a / b}' || true; }
  for np in 2 4; do
    for mib in 4 64 256; do
      ipc="$(busbw "$L/bench-lesson05-cuda-ipc-np$np-${mib}MiB.csv" ring)"
      staged="$(busbw "$L/bench-lesson05-cuda-np$np-${mib}MiB.csv" ring)"
      cpu="$(busbw "$L/bench-lesson05-cpu-np$np-${mib}MiB.csv" ring)"
      fast="$(busbw "$L/bench-lesson05-cuda-ipc-np$np-${mib}MiB.csv" fast)"
      naive="$(busbw "$L/bench-lesson05-cuda-ipc-np$np-${mib}MiB.csv" naive)"
      r1="$(ratio "$ipc" "$staged")" r2="$(ratio "$ipc" "$cpu")"
      echo "| $np | $mib MiB | ${ipc:-–} | ${staged:-–} | ${cpu:-–} | ${r1:-–} | ${r2:-–} | ${fast:-–} | ${naive:-–} |"
    done
  done
else
  echo "(no ipc benchmark in this run: the suite predates the ipc transport)"
fi
echo
echo "### Lesson 03 broadcasts on device buffers, np 2 (staged)"
echo
echo '```'
grep -hE '^(#|impl|linear|tree|chain|mpi|  +[0-9])' "$L"/bench-lesson03-cuda-np2.log
echo '```'
if [[ -f "$L/bench-lesson03-cuda-ipc-np2.log" ]]; then
  echo
  echo "### Lesson 03 broadcasts on device buffers, np 2 (ipc)"
  echo
  echo '```'
  grep -hE '^(#|impl|linear|tree|chain|mpi|  +[0-9])' "$L"/bench-lesson03-cuda-ipc-np2.log
  echo '```'
fi
