#!/usr/bin/env bash
# Every demo pane of the shipped deck at projector scale: the deck exported (--export: each
# demo runs for real, offscreen) at 1280x720 and 1920x1080 prints, per demo slide and view, what
# its text measures. Every view must draw text of at least 1/40 of the height, with a contrast
# of at least 7:1 and no overlapping labels; and every demo slide must have been measured.
#   demo_panes_measure_test.sh RINGLAB_PRESENT DECK OUTDIR
set -uo pipefail
present="$1" deck="$2" out="$3"
command -v xvfb-run >/dev/null || { echo "SKIPPED: xvfb-run not found"; exit 77; }
fail=0
for size in 1280x720 1920x1080; do
  w="${size%x*}" h="${size#*x}"
  rm -rf "$out/$size" && mkdir -p "$out/$size"
  lines="$(xvfb-run -a -s "-screen 0 ${w}x${h}x24" "$present" "$deck" --export "$out/$size" --width "$w" --height "$h")" ||
    { echo "FAILED: --export at $size"; fail=1; continue; }
  demos="$(grep -c ' demo [1-9][0-9]* | ' <<<"$lines")"
  measured="$(grep '^view=' <<<"$lines" | sed -E 's/.* slide=([0-9]+) .*/\1/' | sort -u | wc -l)"
  echo "$size: $demos demo slides, $measured measured"
  [[ $demos -ge 8 && $measured == "$demos" ]] || { echo "FAILED: $measured of $demos demo slides measured at $size"; fail=1; }
  grep '^view=' <<<"$lines" | awk -v h="$h" '{
      for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      if (v["text_px"] + 0 < int(h / 40) || v["min_contrast"] + 0 < 7 || v["overlaps"] + 0 != 0) { print "FAILED: " $0; bad = 1 }
    } END { exit bad }' || fail=1
done
[[ $fail == 0 ]] && echo PASSED
exit $fail
