#!/usr/bin/env bash
# Runs a command that must fail cleanly: exit code 2, exactly one "error:" line, and that line
# must match REGEX.   usage: expect_error.sh REGEX COMMAND [ARGS...]
set -uo pipefail
regex="$1"
shift
out="$("$@" 2>&1)"
rc=$?
echo "$out"
errors="$(grep -c '^error:' <<<"$out")"
[[ $rc == 2 ]] || { echo "FAILED: exit code $rc, expected 2"; exit 1; }
[[ $errors == 1 ]] || { echo "FAILED: $errors error lines, expected exactly 1"; exit 1; }
grep -Eq -- "$regex" <<<"$out" || { echo "FAILED: no line matches: $regex"; exit 1; }
echo "PASSED"
