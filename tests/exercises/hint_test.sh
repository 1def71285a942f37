#!/usr/bin/env bash
# hint_test.sh EXERCISE_SCRIPT: `ringlab-exercise hint 05` shows one hint more each time, --all
# every hint, --reset starts over; an unknown exercise is refused with exit 2. After a check that
# found a hole failing on its own (the state file NN.failed, as `./ringlab check NN` leaves it),
# the next hints are those about that hole. The hints' text comes from the manifest through
# ringlab-manifest (RINGLAB_MANIFEST_TOOL).
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
# Exercise 08's check found its ready hole failing: the general hint first, then the one about
# gradient_ready, never the ones about plan_buckets.
echo ready >"$state/08.failed"
out="$("$tool" hint 08)"
printf '%s\n' "$out"
grep -q '^(hints about your ready hole: your last ./ringlab check 08 found it failing on its own)' <<<"$out" || fail "no word of the failed hole"
grep -q '^hint 1 of [0-9]*: The backward pass' <<<"$out" || fail "the untagged first hint must come first"
out="$("$tool" hint 08)"
printf '%s\n' "$out"
grep -q '^hint 4 of [0-9]*: gradient_ready' <<<"$out" || fail "after a failed ready hole, the hint about gradient_ready"
out="$("$tool" hint 08)"
grep -q '^hint 7 of [0-9]*: The lines. ready hole' <<<"$out" || fail "then the ready hole's lines, not plan's"
grep -q 'that was the last hint' <<<"$out" || fail "the last hint about the ready hole must say so"
# With no failure recorded, the hints not yet shown, in the manifest's order.
rm "$state/08.failed"
grep -q '^hint 2 of [0-9]*: plan_buckets' <<<"$("$tool" hint 08)" || fail "no failure: the next hint in order"
"$tool" hint 42 2>/dev/null
[[ $? == 2 ]] || fail "an unknown exercise must exit 2"
echo "hint_test: passed"
