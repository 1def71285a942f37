#!/usr/bin/env bash
# scripts/ddp-study, short (1 epoch, 1 round): both tables come out with a positive number in
# every measured cell, and --write-doc puts them between the markers of a copy of
# docs/benchmarks.md (the real one is written by a full run, the command it quotes).
# Exit 77 (skipped) where no python3 can import torch, as the study itself.
# usage: ddp_study_test.sh ROOT BIN_DIR
set -uo pipefail
root="$1" bin="$2"
fail() { echo "FAILED: $*"; exit 1; }
doc="$(mktemp)"; trap 'rm -f "$doc"' EXIT
cp "$root/docs/benchmarks.md" "$doc"
out="$("$root/scripts/ddp-study" --epochs 1 --rounds 1 --iters 3 --bin "$bin" --write-doc "$doc" 2>&1)"
rc=$?
echo "$out"
[[ $rc == 77 ]] && exit 77
[[ $rc == 0 ]] || fail "ddp-study exited $rc"
# Training: ranks 1 and 2, each with two positive samples/s and their ratio.
for np in 1 2; do
  row="$(grep -E "^\| $np \| [0-9 ]+ \| [0-9 ]+ \(" <<<"$out")" || fail "no training row for np $np"
  awk -F'|' '{ gsub(/ /, "", $3); split($4, t, "("); gsub(/ /, "", t[1]); exit !($3 > 0 && t[1] > 0 && $5 > 0) }' <<<"$row" ||
    fail "np $np: a samples/s or the ratio is not positive: $row"
done
# The allreduce: 4 KiB to 64 MiB, busbw of every implementation positive.
for size in "4 KiB" "1 MiB" "64 MiB"; do
  row="$(grep -E "^\| $size \|" <<<"$out")" || fail "no allreduce row for $size"
  awk -F'|' '{ for (i = 3; i <= 6; i++) if (!($i + 0 > 0)) exit 1 }' <<<"$row" || fail "$size: a busbw is not positive: $row"
done
grep -q '^<!-- ddp-study: begin -->$' "$doc" && grep -q 'scripts/ddp-study --epochs 1 --batch 128 --rounds 1 --iters 3' "$doc" &&
  grep -q '^| 2 | ' "$doc" || fail "--write-doc did not put the tables between the markers"
echo "PASSED"
