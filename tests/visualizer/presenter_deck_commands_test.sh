#!/usr/bin/env bash
# Every `./ringlab ...` command written on a slide of the shipped deck runs, as written, so
# the deck cannot go stale. The presenter's own commands run under Xvfb: `present` with
# --screenshot added (so that it exits), `slides --pdf` as written (every demo runs for real).
# `check NN` passes or fails with the exercise's verdict, never a usage error. Label "slow".
#   presenter_deck_commands_test.sh ROOT BUILD_DIR DECK
set -uo pipefail
root="$1" build="$2" deck="$3"
command -v xvfb-run >/dev/null || { echo "SKIPPED: xvfb-run not found"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Commands: code-block lines and inline code that start with ./ringlab (notes excluded).
mapfile -t cmds < <(grep -v '^Note:' "$deck" | grep -oE '(^|`)\./ringlab [^`]*' | sed 's/^`//' | sed 's/ *$//' | sort -u)
echo "${#cmds[@]} commands on the slides"
fail=0
for c in "${cmds[@]}"; do
  read -r -a argv <<<"${c#./ringlab }"
  run=(env RINGLAB_BUILD_DIR="$build" "$root/ringlab" "${argv[@]}")
  case "${argv[0]}" in
    present) run=(xvfb-run -a "${run[@]}" --screenshot "$work/present.png") ;;
    slides) run=(xvfb-run -a "${run[@]}") ;;
    check) run=(env RINGLAB_BUILD_DIR="$build" "$root/scripts/ringlab-exercise" mine "$build" "${argv[@]:1}") ;;  # the build is up to date here
  esac
  echo "=== $c"
  (cd "$work" && timeout 600 "${run[@]}") >"$work/out.txt" 2>&1
  rc=$?
  tail -n 4 "$work/out.txt"
  if [[ "${argv[0]}" == check ]]; then
    [[ $rc == 0 || $rc == 1 ]] && ! grep -q 'error:' "$work/out.txt" || { echo "FAIL ($rc): $c"; fail=1; }
  elif [[ $rc != 0 ]]; then
    echo "FAIL ($rc): $c"; fail=1
  fi
done
# The full handout: one page per slide of the deck, and a text page ("Slide K of N: title")
# after each slide with commands or notes.
slides="$(xvfb-run -a "$build/bin/ringlab-present" "$deck" --measure | grep -c '^slide ')"
pages="$(pdfinfo "$work/handout.pdf" 2>/dev/null | awk '/^Pages:/ {print $2}')"
texts="$(pdftotext "$work/handout.pdf" - 2>/dev/null | grep -c "Slide [0-9]* of $slides: ")"
echo "handout.pdf: ${pages:-no} pages for $slides slides and $texts text pages"
[[ "$pages" == "$((slides + texts))" && $texts -ge 1 ]] ||
  { echo "FAIL: ./ringlab slides --pdf handout.pdf: ${pages:-no} pages for $slides slides and $texts text pages"; fail=1; }
exit $fail
