#!/usr/bin/env bash
# Typical mistakes checked on a real GPU: each mistake listed in tests/gpu/mistakes_on_device.txt,
# built here as lesson_NN_mistake_NAME, runs its exercise's check with RINGLAB_DEVICE (cuda on
# the GPU machine), and must end as its ctest test does on the CPU: the exit code and the messages
# its file's `// expect:` lines give. The diagnoses read host copies of device state, so this is
# where a diagnosis that only ran on host or simulated-GPU memory meets real device memory.
#   mistakes_on_device.sh BIN_DIR HOLES_DIR BUILD_DIR
# BIN_DIR holds the mistakes' programs; HOLES_DIR/<topic>/<name>/ each mistake's filled headers
# (what --holes reads: which hole is not the solution's); BUILD_DIR/exercises/holes.txt the
# variants' list (one hole per mistake: nothing is built). Prints PASS/FAIL per mistake with its
# output; exit 0 when every listed mistake ended as expected, 1 otherwise.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="${1:?usage: mistakes_on_device.sh BIN_DIR HOLES_DIR BUILD_DIR}" holes="${2:?}" build="${3:?}"
failed=0
device="${RINGLAB_DEVICE:-}"
[[ -n "$device" ]] || device="each exercise's own"
while read -r file; do
  [[ -z "$file" || "$file" == \#* ]] && continue
  path="$ROOT/tests/exercises/mistakes/$file"
  topic="${file%%/*}" nn="${file:0:2}" base="$(basename "$file" .hpp)"
  name="${base#*.}"
  program="$bin/lesson_${nn}_mistake_$name"
  [[ -x "$program" ]] || { echo "FAIL $file: no $program (scripts/gpu-pack.sh --build carries it)"; failed=1; continue; }
  code="$(sed -n 's#^// expect: ##p' "$path")"
  nps="$(sed -n 's#^// np: ##p' "$path")"
  patterns=()
  while IFS= read -r line; do patterns+=("$line"); done < <(sed -n 's#^// expect-message: ##p' "$path")
  while IFS= read -r line; do patterns+=("!$line"); done < <(sed -n 's#^// expect-no-message: ##p' "$path")
  out="$(RINGLAB_WATCHDOG_S="${RINGLAB_WATCHDOG_S:-5}" "$ROOT/tests/support/expect.sh" "$code" "${patterns[@]}" -- \
    "$ROOT/scripts/ringlab-exercise" check "$nn" "$program" --np "${nps:-few}" --runs 1 \
    --holes "$holes/$topic/$name" --build "$build" 2>&1)"
  if [[ $? == 0 ]]; then echo "PASS $file (device: $device)"
  else echo "FAIL $file (device: $device)"; failed=1; fi
  sed 's/^/    /' <<<"$out"
done <"$ROOT/tests/gpu/mistakes_on_device.txt"
exit "$failed"
