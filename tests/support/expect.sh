#!/usr/bin/env bash
# The suite's one way to check how a command ends: its exit code and what it printed.
#   expect.sh EXIT PATTERN... -- COMMAND [ARGS...]
# EXIT: the exit code wanted (a number, or "nonzero"). Each PATTERN (grep -E) is one of:
#   REGEX        some line of the output (stdout and stderr) matches
#   !REGEX       no line matches (e.g. no blame on code that is right)
#   =1:REGEX     exactly one line matches (one error line for the whole job, not one per rank)
#   out:REGEX    all of stdout matches (bash =~: ^ and $ anchor the whole text, newlines included)
#   err:REGEX    all of stderr matches, the same way
# Prints the output either way, so that a failing test shows what happened. EXPECT_SAVE=FILE
# also keeps the exit code (first line) and the output, for a later summary.
set -uo pipefail
want="$1"
shift
patterns=()
while [[ $# -gt 0 && "$1" != "--" ]]; do patterns+=("$1"); shift; done
[[ "${1:-}" == "--" ]] || { echo "usage: expect.sh EXIT PATTERN... -- COMMAND" >&2; exit 2; }
shift
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The two streams apart only when a pattern looks at one of them; else interleaved, as printed.
: >"$tmp/err"
if [[ " ${patterns[*]}" == *" out:"* || " ${patterns[*]}" == *" err:"* ]]; then
  "$@" >"$tmp/out" 2>"$tmp/err"
else
  "$@" >"$tmp/out" 2>&1
fi
rc=$?
out="$(cat "$tmp/out"; echo .)" err="$(cat "$tmp/err"; echo .)"  # exactly as printed, last newline kept
out="${out%.}" err="${err%.}" all="$out$err"
printf '%s' "$all"
if [[ -n "${EXPECT_SAVE:-}" ]]; then mkdir -p "$(dirname "$EXPECT_SAVE")"; printf '%s\n%s\n' "$rc" "$all" >"$EXPECT_SAVE"; fi
ok=1
if [[ "$want" == nonzero && "$rc" == 0 ]] || [[ "$want" != nonzero && "$rc" != "$want" ]]; then
  echo "expect.sh: exit code $rc, wanted $want"; ok=0
fi
for p in "${patterns[@]}"; do
  case "$p" in
    '!'*) ! grep -Eq -- "${p:1}" <<<"$all" || { echo "expect.sh: output has /${p:1}/, which it must not"; ok=0; } ;;
    =1:*) n="$(grep -Ec -- "${p:3}" <<<"$all")"
          [[ $n == 1 ]] || { echo "expect.sh: $n lines match /${p:3}/, wanted exactly 1"; ok=0; } ;;
    out:*) [[ "$out" =~ ${p:4} ]] || { echo "expect.sh: stdout does not match /${p:4}/"; ok=0; } ;;
    err:*) [[ "$err" =~ ${p:4} ]] || { echo "expect.sh: stderr does not match /${p:4}/"; ok=0; } ;;
    *) grep -Eq -- "$p" <<<"$all" || { echo "expect.sh: output lacks /$p/"; ok=0; } ;;
  esac
done
[[ $ok == 1 ]] && echo "expect.sh: PASSED"
[[ $ok == 1 ]]
