#!/usr/bin/env bash
# A 1 MB deck (thousands of slides with every element) opens, lays out and jumps: --measure
# prints a line per slide, End and G 5000 Enter land where they should. No crash, no hang.
#   presenter_big_deck_test.sh RINGLAB_PRESENT OUTDIR
set -euo pipefail
present="$1" out="$2"
command -v xvfb-run >/dev/null || { echo "SKIPPED: xvfb-run not found"; exit 77; }
deck="$out/big_deck.md"
: >"$deck"
n=0
while (($(stat -c %s "$deck") < 1048576)); do
  for _ in $(seq 100); do
    n=$((n + 1))
    printf '## Slide %d\n\n- a **bullet** with `code` and *style* → w₀·x₀\n  - nested\n\n```sh\n./ringlab run 05\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nNote: notes %d\n---\n' "$n" "$n" >>"$deck"
  done
done
echo "deck: $(stat -c %s "$deck") bytes, $n slides"
measured="$(xvfb-run -a "$present" "$deck" --measure | grep -c '^slide .* fits 1 ')"
echo "measured: $measured slides that fit"
keys="$(xvfb-run -a "$present" "$deck" --keys "End G 5 0 0 0 Enter" --quit-when-done --max-seconds 60)"
echo "$keys"
fail=0
[[ "$measured" == "$n" ]] || { echo "FAIL: $measured of $n slides laid out and fitting"; fail=1; }
grep -q "key End: slide 1 -> $n of $n" <<<"$keys" || { echo "FAIL: End"; fail=1; }
grep -q "key Enter: slide $n -> 5000 of $n" <<<"$keys" || { echo "FAIL: G 5000 Enter"; fail=1; }
exit $fail
