#!/usr/bin/env bash
# expect.sh EXIT_CODE REGEX... -- COMMAND [ARGS...]
# Runs COMMAND; passes when it exits with EXIT_CODE and its output (stdout and stderr) matches
# every REGEX (grep -E), and none of the !REGEX ones. Prints the output either way, so a failing test shows what happened.
set -uo pipefail
want="$1"
shift
patterns=()
while [[ $# -gt 0 && "$1" != "--" ]]; do patterns+=("$1"); shift; done
[[ "${1:-}" == "--" ]] || { echo "usage: expect.sh EXIT_CODE REGEX... -- COMMAND" >&2; exit 2; }
shift
out="$("$@" 2>&1)"
rc=$?
printf '%s\n' "$out"
# EXPECT_SAVE=FILE: also keep the exit code (first line) and the output, for a later summary.
if [[ -n "${EXPECT_SAVE:-}" ]]; then mkdir -p "$(dirname "$EXPECT_SAVE")"; printf '%s\n%s\n' "$rc" "$out" >"$EXPECT_SAVE"; fi
ok=1
if [[ "$rc" != "$want" ]]; then echo "expect.sh: exit code $rc, wanted $want"; ok=0; fi
for p in "${patterns[@]}"; do
  if [[ "$p" == '!'* ]]; then  # !REGEX: the output must NOT match (e.g. no blame on correct code)
    ! grep -Eq -- "${p:1}" <<<"$out" || { echo "expect.sh: output has /${p:1}/, which it must not"; ok=0; }
  else
    grep -Eq -- "$p" <<<"$out" || { echo "expect.sh: output lacks /$p/"; ok=0; }
  fi
done
[[ $ok == 1 ]]
