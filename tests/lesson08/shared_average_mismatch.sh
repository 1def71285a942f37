#!/usr/bin/env bash
# Ranks that start different slices of the shared-memory averaging: rank 0 waits for a slice the
# others never start. The run must end with a non-zero exit and one line naming the cause after
# the watchdog's threshold (2 s here), not spin forever.
#   shared_average_mismatch.sh MPIRUN SHARED_AVERAGE
set -uo pipefail
mpirun="$1" bin="$2"
out="$(RINGLAB_WATCHDOG_S=2 "$mpirun" -np 2 "$bin" --mismatch 2>&1)"
rc=$?
echo "$out" | grep -v '^ *$' | head -8
[[ $rc -ne 0 ]] || { echo "FAILED: exit code 0"; exit 1; }
grep -q 'error: rank 0 waited [0-9]* s for rank 1 to finish slice 3 .*did the ranks start different slices' <<< "$out" ||
  { echo "FAILED: no line naming the cause"; exit 1; }
echo "PASSED (exit code $rc)"
