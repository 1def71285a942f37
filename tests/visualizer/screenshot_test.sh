#!/usr/bin/env bash
# Renders a real lesson-05 trace at a reduce-scatter and an allgather step under Xvfb and
# checks the pixels (png_check ring). Exit 77 (ctest: skipped) when xvfb-run is not installed.
#   screenshot_test.sh RINGLAB_VIZ PNG_CHECK TRACE OUTDIR
set -euo pipefail
viz="$1" check="$2" trace="$3" out="$4"
if ! command -v xvfb-run >/dev/null; then
  echo "SKIPPED: xvfb-run not found (apt-get install xvfb); the screenshot test needs a virtual display"
  exit 77
fi
# Scrubber steps of a 4-rank ring: 0 start, 1-3 reduce-scatter 0-2, 4-6 allgather 0-2, 7 end.
for spec in "2 reduce-scatter" "5 allgather"; do
  read -r step phase <<<"$spec"
  png="$out/ring4_step$step.png"
  rm -f "$png"
  geometry="$(xvfb-run -a -s '-screen 0 1280x720x24' "$viz" --replay "$trace" --at "$step" --screenshot "$png" |
              grep '^ring-rect')"
  echo "step $step: $geometry"
  read -r _ x0 y0 x1 y1 _ n _ em <<<"$geometry"
  "$check" ring "$png" "$x0" "$y0" "$x1" "$y1" "$n" "$phase" "$em"
done
