#!/usr/bin/env bash
# hint_test.sh EXERCISE_SCRIPT: `ringlab-exercise hint 05` shows one hint more each time, --all
# every hint, --reset starts over; an unknown exercise is refused with exit 2. The hints' text
# comes from the manifest through ringlab-manifest (RINGLAB_MANIFEST_TOOL).
set -uo pipefail
tool="$1"
state="$(mktemp -d)"
trap 'rm -rf "$state"' EXIT
export RINGLAB_HINT_STATE="$state"
fail() { echo "hint_test: $*"; exit 1; }
out="$("$tool" hint 5)" || fail "hint 5 failed"
printf '%s\n' "$out"
grep -q '^hint 1 of [0-9]*: Two phases' <<<"$out" || fail "the first call must show hint 1"
out="$("$tool" hint 05)"
printf '%s\n' "$out"
grep -q '^hint 2 of [0-9]*: Reduce-scatter' <<<"$out" || fail "the second call must show hint 2"
grep -q '^             ringlab::reduce_sum' <<<"$out" || fail "a continued hint's line must be indented under the first"
out="$("$tool" hint 05 --all)"
[[ "$(grep -c '^hint [0-9]*:' <<<"$out")" -ge 5 ]] || fail "--all must show every hint"
"$tool" hint 05 --reset >/dev/null
grep -q '^hint 1 of' <<<"$("$tool" hint 05)" || fail "--reset must start again from hint 1"
"$tool" hint 42 2>/dev/null
[[ $? == 2 ]] || fail "an unknown exercise must exit 2"
echo "hint_test: passed"
