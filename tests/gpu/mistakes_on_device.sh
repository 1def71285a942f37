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
#   mistakes_on_device.sh --list   one line per listed mistake: FILE TARGET TOPIC/NAME (the
#                                  program's build target, its holes' folder), for gpu-pack.sh
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
listed() {  # the list, one mistake a line: its file, its program's target, its holes' folder
  local file name
  while read -r file; do
    [[ -z "$file" || "$file" == \#* ]] && continue
    name="$(basename "$file" .hpp)"
    echo "$file lesson_${file:0:2}_mistake_${name#*.} ${file%%/*}/${name#*.}"
  done <"$ROOT/tests/gpu/mistakes_on_device.txt"
}
[[ "${1:-}" == --list ]] && { listed; exit 0; }
bin="${1:?usage: mistakes_on_device.sh BIN_DIR HOLES_DIR BUILD_DIR}" holes="${2:?}" build="${3:?}"
failed=0
device="${RINGLAB_DEVICE:-}"
[[ -n "$device" ]] || device="each exercise's own"
while read -r file target folder; do
  path="$ROOT/tests/exercises/mistakes/$file"
  nn="${file:0:2}"
  program="$bin/$target"
  [[ -x "$program" ]] || { echo "FAIL $file: no $program (scripts/gpu-pack.sh --build carries it)"; failed=1; continue; }
  code="$(sed -n 's#^// expect: ##p' "$path")"
  nps="$(sed -n 's#^// np: ##p' "$path")"
  patterns=()
  while IFS= read -r line; do patterns+=("$line"); done < <(sed -n 's#^// expect-message: ##p' "$path")
  while IFS= read -r line; do patterns+=("!$line"); done < <(sed -n 's#^// expect-no-message: ##p' "$path")
  out="$(RINGLAB_WATCHDOG_S="${RINGLAB_WATCHDOG_S:-5}" "$ROOT/tests/support/expect.sh" "$code" "${patterns[@]}" -- \
    "$ROOT/scripts/ringlab-exercise" check "$nn" "$program" --np "${nps:-few}" --runs 1 \
    --holes "$holes/$folder" --build "$build" 2>&1)"
  if [[ $? == 0 ]]; then echo "PASS $file (device: $device)"
  else echo "FAIL $file (device: $device)"; failed=1; fi
  sed 's/^/    /' <<<"$out"
done < <(listed)
exit "$failed"
