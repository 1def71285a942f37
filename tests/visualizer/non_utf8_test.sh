#!/usr/bin/env bash
# A byte that is not UTF-8 in an argument (here a Latin-1 file name, "caf\xe9.trace") once made
# the JSON encoder throw: with --trace the run finished and then lost its trace (exit 1); with
# --viz it aborted at start. Now the byte is written as U+FFFD and the run and its trace finish.
#   non_utf8_test.sh MPIRUN LESSON_05 OUTDIR
set -uo pipefail
mpirun="$1" lesson="$2" dir="$3"
t="$dir/caf$(printf '\351').trace"
rm -f "$t"
out="$("$mpirun" -np 2 "$lesson" --count 8 --trace "$t" --viz "unix:$t.sock" 2>&1)"
rc=$?
echo "$out"
[[ $rc == 0 ]] || { echo "FAILED: exit code $rc"; exit 1; }
[[ -s "$t" ]] || { echo "FAILED: no trace written"; exit 1; }
grep -q 'not reachable' <<<"$out" || { echo "FAILED: --viz did not get as far as connecting"; exit 1; }
head -n 1 "$t" | grep -q "caf$(printf '\357\277\275').trace" || { echo "FAILED: header lacks U+FFFD"; exit 1; }
echo PASSED
