#!/usr/bin/env bash
# Rank 0 is killed (SIGKILL) halfway through writing epoch 2's checkpoint. Then:
#  - the job ends within 10 s, exit 137, with one line naming rank 0 and the signal;
#  - the checkpoint file still holds epoch 1 complete (the half-written one is FILE.tmp);
#  - resuming from it ends bit-identical to a run that was never interrupted;
#  - a copy of the half-written FILE.tmp, given to --resume, is refused in one line (exit 2), and the
#    --checkpoint file named in that same run is not overwritten.
# usage: killed_during_checkpoint.sh MPIRUN LESSON_06 NP
set -uo pipefail
mpirun="$1" bin="$2" np="$3"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
args=(--data synthetic --epochs 3 --batch 96)
fail() { echo "FAILED: $*"; exit 1; }

"$mpirun" -np "$np" "$bin" "${args[@]}" --checkpoint "$dir/whole.ckpt" >"$dir/whole.out" || fail "uninterrupted run"

start=$SECONDS
RINGLAB_KILL_IN_CHECKPOINT=2 "$mpirun" -np "$np" "$bin" "${args[@]}" --checkpoint "$dir/part.ckpt" \
  >"$dir/killed.out" 2>"$dir/killed.err"
rc=$?
took=$((SECONDS - start))
cat "$dir/killed.err"
[[ $rc == 137 ]] || fail "the killed run exited $rc, expected 137 (128 + SIGKILL)"
(( took <= 10 + 6 )) || fail "the job took ${took} s to end"  # 10 s, plus start-up on a loaded machine
[[ "$(grep -c '^error:' "$dir/killed.err")" == 1 ]] || fail "expected exactly one error line"
grep -Eq '^error: rank 0 \(on host [^)]+\) was killed by signal 9' "$dir/killed.err" || fail "no line names rank 0"
grep -q "epoch 2/3" "$dir/killed.out" || fail "rank 0 was not killed in epoch 2's checkpoint"
[[ -s "$dir/part.ckpt.tmp" ]] || fail "no half-written temporary file: the kill did not happen mid-write"
cp "$dir/part.ckpt.tmp" "$dir/torn.ckpt"

# The last complete checkpoint (epoch 1) resumes to the same end as the uninterrupted run.
"$mpirun" -np "$np" "$bin" "${args[@]}" --checkpoint "$dir/resumed.ckpt" --resume "$dir/part.ckpt" \
  >"$dir/resumed.out" || fail "resuming from the last complete checkpoint"
grep -q "resumed at epoch 1" "$dir/resumed.out" || fail "did not resume at epoch 1"
whole_hash="$(grep -o 'weights hash [0-9a-f]*' "$dir/whole.out")"
resumed_hash="$(grep -o 'weights hash [0-9a-f]*' "$dir/resumed.out")"
echo "uninterrupted: $whole_hash"
echo "resumed:       $resumed_hash"
[[ -n "$whole_hash" && "$whole_hash" == "$resumed_hash" ]] || fail "hashes differ"
cmp "$dir/whole.ckpt" "$dir/resumed.ckpt" || fail "final checkpoints differ"

# The half-written file is refused by name, and the run's own --checkpoint is left as it was.
cp "$dir/part.ckpt" "$dir/before.ckpt"
"$mpirun" -np "$np" "$bin" "${args[@]}" --resume "$dir/torn.ckpt" --checkpoint "$dir/part.ckpt" \
  >"$dir/bad.out" 2>"$dir/bad.err"
rc=$?
cat "$dir/bad.err"
[[ $rc == 2 ]] || fail "resuming from a half-written checkpoint exited $rc, expected 2"
[[ "$(grep -c '^error:' "$dir/bad.err")" == 1 ]] || fail "expected exactly one error line"
grep -q "^error: --resume .*torn.ckpt: truncated or corrupt" "$dir/bad.err" || fail "the error does not name the file"
cmp -s "$dir/part.ckpt" "$dir/before.ckpt" || fail "the --checkpoint file was overwritten"
echo "PASSED: killed mid-checkpoint; the last complete one resumes bit-identical; a torn one is refused"
