#!/usr/bin/env bash
# Presenter screenshots of chosen slides of the shipped deck at 1280x720 and 1920x1080 (Xvfb):
# the PNG has the window's size, the slide title's pixels are in the accent colour where the
# layout put it, the footer shows the counter, and nothing is drawn in the right-hand margin
# (text clipped or overflowing would be). Exit 77 (skipped) without xvfb-run.
#   presenter_screenshot_test.sh RINGLAB_PRESENT PNG_CHECK DECK OUTDIR
set -euo pipefail
present="$1" check="$2" deck="$3" out="$4"
command -v xvfb-run >/dev/null || { echo "SKIPPED: xvfb-run not found"; exit 77; }
bg=(22 24 30) accent=(105 185 240) dim=(135 138 150)
fail=0
for size in 1280x720 1920x1080; do
  w="${size%x*}" h="${size#*x}"
  # The title slide, the lesson table, a slide with a table and a formula, a code slide.
  for slide in 1 3 8 19; do
    png="$out/present_${size}_slide$slide.png"
    rm -f "$png"
    line="$(xvfb-run -a -s "-screen 0 ${w}x${h}x24" "$present" "$deck" --slide "$slide" --width "$w" \
            --height "$h" --screenshot "$png" | grep '^slide ')"
    echo "$line"
    # slide N/M fits F scale S extent x0 y0 x1 y1 area x0 y0 x1 y1 title x0 y0 x1 y1 demo L | title
    read -r _ _ _ fits _ _ _ _ _ _ _ _ ax0 ay0 ax1 ay1 _ tx0 ty0 tx1 ty1 _ <<<"$line"
    [[ "$fits" == 1 ]] || { echo "FAIL: slide $slide does not fit at $size"; fail=1; }
    "$check" colour "$png" 0 0 "$w" "$h" "${bg[@]}" $((w * h / 2)) >/dev/null ||
      { echo "FAIL: $png is not ${w}x${h} with the slide background"; fail=1; }
    "$check" colour "$png" "$tx0" "$ty0" "$tx1" "$ty1" "${accent[@]}" $(((tx1 - tx0) * (ty1 - ty0) / 25)) ||
      { echo "FAIL: slide $slide at $size: no title text where the layout put it"; fail=1; }
    "$check" colour "$png" $((w * 3 / 4)) $((h - h / 20)) "$w" "$h" "${dim[@]}" 20 ||
      { echo "FAIL: slide $slide at $size: no slide counter in the footer"; fail=1; }
    "$check" empty "$png" $((ax1 + 3)) "$ay0" "$w" "$ay1" "${bg[@]}" ||
      { echo "FAIL: slide $slide at $size: something drawn right of the slide area (clipped text?)"; fail=1; }
  done
done
exit $fail
