#!/usr/bin/env bash
# ./ringlab slides --pdf on a small deck: one page per slide (pdfinfo), every page renders
# (pdftoppm) to an image of the slide's size that is not blank.
# A fourth slide replays a recorded lesson-05 trace (the offline demo).
#   presenter_pdf_test.sh RINGLAB_SCRIPT BUILD_DIR DECK OUTDIR SLIDE_PNG_CHECK TRACE
set -euo pipefail
ringlab="$1" build="$2" source_deck="$3" out="$4" check="$5" trace="$6"
deck="$out/handout_test.md"
cp "$source_deck" "$deck"
printf '\n---\n\n## A replay\n\n```demo\ntrace: %s\nview: ring\nat: 2\n```\n' "$trace" >>"$deck"
command -v xvfb-run >/dev/null || { echo "SKIPPED: xvfb-run not found"; exit 77; }
for tool in img2pdf pdfinfo pdftoppm; do
  command -v "$tool" >/dev/null || { echo "SKIPPED: $tool not found (apt-get install img2pdf poppler-utils)"; exit 77; }
done
pdf="$out/handout_test.pdf"
rm -f "$pdf" "$out"/handout_page-*.png
RINGLAB_BUILD_DIR="$build" "$ringlab" slides --pdf "$pdf" --size 1280x720 "$deck"
slides="$(grep -c '^---$' "$deck")"   # front matter (2 lines) + separators: slides = that - 1
slides=$((slides - 1))
pages="$(pdfinfo "$pdf" | awk '/^Pages:/ {print $2}')"
echo "slides: $slides, PDF pages: $pages"
fail=0
[[ "$pages" == "$slides" ]] || { echo "FAIL: $pages pages for $slides slides"; fail=1; }
pdftoppm -r 30 -png "$pdf" "$out/handout_page"
for png in "$out"/handout_page-*.png; do
  # Rendered, and not blank: some pixels in the accent colour of the titles.
  "$check" "$png" 0 0 10000 10000 colour 105 185 240 20 || { echo "FAIL: $png is blank"; fail=1; }
done
n_png=$(ls "$out"/handout_page-*.png | wc -l)
[[ "$n_png" == "$slides" ]] || { echo "FAIL: pdftoppm rendered $n_png pages"; fail=1; }
exit $fail
