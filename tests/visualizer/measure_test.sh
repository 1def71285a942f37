#!/usr/bin/env bash
# The viewer at projector scale, as `ringlab-viz TRACE --measure --size WxH` reports it (no
# display needed): at 1280x720 and 1920x1080, for a ring (lesson 05), a training run with
# losses (lesson 06) and a pipeline (lesson 02), every view draws text of at least 1/40 of the
# window height, every label has a contrast of at least 7:1 on its background, and no two
# labels overlap. Also: --font-scale makes the text bigger, and a bad --size is one line, exit 2.
#   measure_test.sh RINGLAB_VIZ MPIRUN BIN_DIR RING_TRACE OUTDIR
set -uo pipefail
viz="$1" mpirun="$2" bin="$3" ring="$4" out="$5"
fail=0
mkdir -p "$out"
"$mpirun" -np 2 "$bin/lesson_06" --data synthetic --epochs 1 --trace "$out/loss.trace" >/dev/null 2>&1 ||
  { echo "FAILED: lesson 06 --trace"; exit 1; }
"$mpirun" -np 3 "$bin/lesson_02" --microbatches 4 --steps 2 --trace "$out/pipeline.trace" >/dev/null 2>&1 ||
  { echo "FAILED: lesson 02 --trace"; exit 1; }
declare -A seen
for trace in "$ring" "$out/loss.trace" "$out/pipeline.trace"; do
  for size in 1280x720 1920x1080; do
    h="${size#*x}"
    lines="$("$viz" --replay "$trace" --at 2 --measure --size "$size")" || { echo "FAILED: --measure on $trace"; fail=1; continue; }
    echo "$(basename "$trace") $size:"
    echo "$lines"
    while read -r line; do
      view="$(sed -E 's/^view=([^ ]+).*/\1/' <<<"$line")"
      seen[$view]=1
      awk -v h="$h" -v line="$line" '{
        for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        if (v["text_px"] + 0 < int(h / 40)) { print "FAILED: text " v["text_px"] " px < " int(h / 40) ": " line; bad = 1 }
        if (v["min_contrast"] + 0 < 7) { print "FAILED: contrast below 7:1: " line; bad = 1 }
        if (v["overlaps"] + 0 != 0) { print "FAILED: overlapping labels: " line; bad = 1 }
        exit bad }' <<<"$line" || fail=1
    done <<<"$lines"
  done
done
for view in ring buffers loss bytes pipeline status; do
  [[ -n "${seen[$view]:-}" ]] || { echo "FAILED: no measurement of the $view view"; fail=1; }
done
small="$("$viz" --replay "$ring" --measure --size 1280x720 | grep '^view=ring' | grep -o 'text_px=[0-9]*')"
big="$("$viz" --replay "$ring" --measure --size 1280x720 --font-scale 1.5 | grep '^view=ring' | grep -o 'text_px=[0-9]*')"
[[ "$small" == text_px=18 && "$big" == text_px=27 ]] || { echo "FAILED: --font-scale 1.5: $small -> $big (want 18 -> 27)"; fail=1; }
bad="$("$viz" --replay "$ring" --measure --size 1280 2>&1)"
[[ $? == 2 && $(wc -l <<<"$bad") == 1 && $bad == *"--size '1280'"* ]] || { echo "FAILED: --size 1280 gave: $bad"; fail=1; }
[[ $fail == 0 ]] && echo PASSED
exit $fail
