#!/usr/bin/env bash
# A run stopped after epoch 1 and resumed from its checkpoint must end with exactly the same
# weights and optimizer state as a run that was never interrupted: same checkpoint bytes, same
# printed weights hash.   usage: resume_matches_uninterrupted.sh MPIRUN LESSON_06 NP [FLAGS...]
# (FLAGS go to every run: --device cuda checks a resume from GPU state.)
set -euo pipefail
mpirun="$1" bin="$2" np="$3"
shift 3
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
args=(--data synthetic --epochs 3 --batch 96 "$@")

"$mpirun" -np "$np" "$bin" "${args[@]}" --checkpoint "$dir/whole.ckpt" >"$dir/whole.out"
"$mpirun" -np "$np" "$bin" "${args[@]}" --checkpoint "$dir/part.ckpt" --stop-after 1 >"$dir/part1.out"
cp "$dir/part.ckpt" "$dir/after-epoch-1.ckpt"
"$mpirun" -np "$np" "$bin" "${args[@]}" --checkpoint "$dir/part.ckpt" --resume "$dir/part.ckpt" >"$dir/part2.out"

cat "$dir/part2.out"
whole_hash="$(grep -o 'weights hash [0-9a-f]*' "$dir/whole.out")"
resumed_hash="$(grep -o 'weights hash [0-9a-f]*' "$dir/part2.out")"
echo "uninterrupted: $whole_hash"
echo "resumed:       $resumed_hash"
grep -q "resumed at epoch 1" "$dir/part2.out" || { echo "FAILED: the second run did not resume at epoch 1"; exit 1; }
cmp -s "$dir/whole.ckpt" "$dir/after-epoch-1.ckpt" && { echo "FAILED: the stopped run was not stopped early"; exit 1; }
[[ -n "$whole_hash" && "$whole_hash" == "$resumed_hash" ]] || { echo "FAILED: hashes differ"; exit 1; }
cmp "$dir/whole.ckpt" "$dir/part.ckpt" || { echo "FAILED: final checkpoints differ"; exit 1; }
[[ ! -e "$dir/part.ckpt.tmp" ]] || { echo "FAILED: temporary checkpoint left behind"; exit 1; }
echo "PASSED: resumed run ends bit-identical to the uninterrupted one"
