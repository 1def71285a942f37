#!/usr/bin/env bash
# The shipped deck's lesson-05 demo slide, as an instructor runs it: R launches lesson 05 on 4
# ranks through the launcher; every rank's events arrive live; the screenshot (the README's
# picture) shows each chunk on its ring edge at the slide's reduce-scatter step. R is pressed
# twice: the second press stops the first run and starts a fresh one (one run in the session).
#   presenter_demo_test.sh RINGLAB_PRESENT PNG_CHECK DECK OUT_PNG
set -euo pipefail
present="$1" check="$2" deck="$3" png="$4"
command -v xvfb-run >/dev/null || { echo "SKIPPED: xvfb-run not found"; exit 77; }
measure="$(xvfb-run -a "$present" "$deck" --measure)"  # whole, then read: grep -m1 on a pipe can SIGPIPE it
slide="$(grep -m1 ' demo 5 | ' <<<"$measure" | sed -E 's#^slide ([0-9]+)/.*#\1#')"
[[ -n "$slide" ]] || { echo "FAIL: no lesson-05 demo slide in $deck"; exit 1; }
echo "lesson-05 demo: slide $slide"
rm -f "$png"
out="$(xvfb-run -a -s '-screen 0 1280x720x24' "$present" "$deck" --slide "$slide" --keys "R R" --quit-when-done \
       --screenshot "$png" --summary-on-exit --max-seconds 90 2>&1)"
echo "$out"
fail=0
grep -q "lesson_05 --schedule --count 8 --type int32 --viz" <<<"$out" || { echo "FAIL: not launched with --viz"; fail=1; }
grep -q "exited with code 0" <<<"$out" || { echo "FAIL: the run did not end well"; fail=1; }
grep -q "^run 0: .*live\], 4 ranks" <<<"$out" || { echo "FAIL: no live run of 4 ranks"; fail=1; }
grep -q "^run 1:" <<<"$out" && { echo "FAIL: R again did not start fresh: two runs in the session"; fail=1; }
[[ $(grep -c '^\$ .*lesson_05' <<<"$out") == 1 ]] || { echo "FAIL: the output pane should hold the fresh run only"; fail=1; }
for r in 0 1 2 3; do
  grep -Eq "^  rank $r: [1-9][0-9]* events" <<<"$out" || { echo "FAIL: no events from rank $r"; fail=1; }
done
# at: 2 on the slide = scrubber step 2 = reduce-scatter step 1.
read -r _ x0 y0 x1 y1 _ n _ em <<<"$(grep '^ring-rect' <<<"$out")"
"$check" ring "$png" "$x0" "$y0" "$x1" "$y1" "$n" reduce-scatter "$em" || fail=1
exit $fail
