#!/usr/bin/env bash
# A scripted key run through the whole shipped deck and back, the way a clicker drives it:
# Right/Space/PageDown forward to the end, Left/PageUp back to the start, End, Home, G 1 2
# Enter (jump to slide 12), B twice (black screen on, off), F twice (full screen on, off). Every press must land where it should.
#   presenter_keys_test.sh RINGLAB_PRESENT DECK
set -euo pipefail
present="$1" deck="$2"
command -v xvfb-run >/dev/null || { echo "SKIPPED: xvfb-run not found"; exit 77; }
n="$(xvfb-run -a "$present" "$deck" --measure | grep -c '^slide ')"
echo "deck: $n slides"
fwd=() back=()
for ((i = 1; i < n; i++)); do
  case $((i % 3)) in 0) fwd+=(Right) back+=(Left) ;; 1) fwd+=(Space) back+=(PageUp) ;; 2) fwd+=(PageDown) back+=(Left) ;; esac
done
keys="${fwd[*]} Right ${back[*]} Left End Home G 1 2 Enter B B F F"
out="$(xvfb-run -a -s '-screen 0 1280x720x24' "$present" "$deck" --keys "$keys" --quit-when-done --max-seconds 120)"
echo "$out"
# What each press must do, in order: "slide A -> B".
want=()
for ((i = 1; i < n; i++)); do want+=("$i -> $((i + 1))"); done
want+=("$n -> $n")                                # past the end: stays
for ((i = n; i > 1; i--)); do want+=("$i -> $((i - 1))"); done
want+=("1 -> 1" "1 -> $n" "$n -> 1" "1 -> 1" "1 -> 1" "1 -> 1" "1 -> 12" "12 -> 12 of $n (black)" "12 -> 12" "12 -> 12" "12 -> 12")
mapfile -t got < <(grep '^key ' <<<"$out" | sed -E 's/^key [^:]+: slide //')
fail=0
[[ ${#got[@]} == ${#want[@]} ]] || { echo "FAIL: ${#got[@]} key presses reported, ${#want[@]} sent"; fail=1; }
for ((k = 0; k < ${#want[@]}; k++)); do
  [[ "${got[k]:-}" == "${want[k]}"* ]] || { echo "FAIL: press $((k + 1)): got '${got[k]:-}', want '${want[k]}'"; fail=1; }
done
# The other documented keys: N, Down forward; P, Up back; "." black screen, as B.
out="$(xvfb-run -a -s '-screen 0 1280x720x24' "$present" "$deck" --keys "N Down P Up N ." --quit-when-done --max-seconds 60)"
mapfile -t got < <(grep '^key ' <<<"$out" | sed -E 's/^key [^:]+: slide //')
want=("1 -> 2" "2 -> 3" "3 -> 2" "2 -> 1" "1 -> 2" "2 -> 2 of $n (black)")
for ((k = 0; k < ${#want[@]}; k++)); do
  [[ "${got[k]:-}" == "${want[k]}"* ]] || { echo "FAIL: N/Down/P/Up/. press $((k + 1)): got '${got[k]:-}', want '${want[k]}'"; fail=1; }
done
# An unknown name: one line that lists the names there are, exit 2.
bad="$("$present" "$deck" --keys "Right Nope" 2>&1)" && { echo "FAIL: --keys Nope accepted"; fail=1; }
[[ $(wc -l <<<"$bad") == 1 && $bad == *"unknown key 'Nope' (keys:"*" PageDown "*" 0-9)" ]] ||
  { echo "FAIL: --keys Nope gave: $bad"; fail=1; }
exit $fail
