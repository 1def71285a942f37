#!/usr/bin/env bash
# --device cuda where no GPU is visible: exit code 77 (the suites' "skipped") and one line on
# every rank saying why, never a hang or a crash.   usage: expect_skip.sh NP COMMAND [ARGS...]
set -uo pipefail
np="$1"
shift
out="$("$@" 2>&1)"
rc=$?
echo "$out"
[[ $rc == 77 ]] || { echo "FAILED: exit code $rc, expected 77"; exit 1; }
for ((r = 0; r < np; ++r)); do
  n="$(grep -c "^error: rank $r on .*--device cuda: " <<<"$out")"
  [[ $n == 1 ]] || { echo "FAILED: rank $r said why $n times, expected once"; exit 1; }
done
echo "PASSED"
