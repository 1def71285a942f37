#!/usr/bin/env bash
# ./ringlab slides --pdf on a small deck: a page per slide, and after each slide with commands
# (the two demos) a text page with them (pdfinfo counts 4 + 2); every slide page renders
# (pdftoppm) in the light theme's accent colour (paper: the default), and the commands come out
# of the PDF as text (pdftotext), so they can be copied.
# A fourth slide replays a recorded lesson-05 trace (the offline demo).
#   presenter_pdf_test.sh RINGLAB_SCRIPT BUILD_DIR DECK OUTDIR PNG_CHECK TRACE
set -euo pipefail
ringlab="$1" build="$2" source_deck="$3" out="$4" check="$5" trace="$6"
deck="$out/handout_test.md"
cp "$source_deck" "$deck"
printf '\n---\n\n## A replay\n\n```demo\ntrace: %s\nview: ring\nat: 2\n```\n' "$trace" >>"$deck"
command -v xvfb-run >/dev/null || { echo "SKIPPED: xvfb-run not found"; exit 77; }
for tool in img2pdf pdfinfo pdftoppm pdftotext pdfunite gnuplot; do
  command -v "$tool" >/dev/null || { echo "SKIPPED: $tool not found (apt-get install img2pdf poppler-utils gnuplot-nox)"; exit 77; }
done
pdf="$out/handout_test.pdf"
rm -f "$pdf" "$out"/handout_page-*.png
RINGLAB_BUILD_DIR="$build" "$ringlab" slides --pdf "$pdf" --size 1280x720 "$deck"
slides="$(grep -c '^---$' "$deck")"   # front matter (2 lines) + separators: slides = that - 1
slides=$((slides - 1))
texts=2                                # the two demo slides
pages="$(pdfinfo "$pdf" | awk '/^Pages:/ {print $2}')"
echo "slides: $slides, text pages: $texts, PDF pages: $pages"
fail=0
[[ "$pages" == "$((slides + texts))" ]] || { echo "FAIL: $pages pages for $slides slides and $texts text pages"; fail=1; }
pdftoppm -r 30 -png "$pdf" "$out/handout_page"
coloured=0
for png in "$out"/handout_page-*.png; do
  # A slide page: some pixels in the light theme's accent colour (the titles).
  "$check" colour "$png" 0 0 10000 10000 15 80 155 20 >/dev/null && coloured=$((coloured + 1))
done
[[ "$coloured" == "$slides" ]] || { echo "FAIL: $coloured pages in the light accent colour, want the $slides slides"; fail=1; }
text="$(pdftotext "$pdf" -)"
for want in '$ ./ringlab run 05 -np 4 -- --schedule --count 8 --type int32' '$ ./ringlab viz' 'Slide 3 of 4: A demo'; do
  grep -qF -- "$want" <<<"$text" || { echo "FAIL: the PDF's text has no '$want'"; fail=1; }
done
exit $fail
