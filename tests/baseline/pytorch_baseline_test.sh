#!/usr/bin/env bash
# scripts/pytorch_mlp_baseline.py, short: one epoch on 6000 training examples, tested on 2000,
# on the CPU. Checks the summary line's fields and that the model learned (test accuracy > 0.70;
# a model that learns nothing scores 0.10). Also: bad input is one error line and exit 2.
#   usage: pytorch_baseline_test.sh SCRIPT
set -uo pipefail
script="$1"
py="$("$(dirname "$script")/pytorch-python")" || { echo "SKIP: no python3 here can import torch"; exit 77; }
data=/usr/share/datasets/fashion-mnist
[[ -f $data/train-images-idx3-ubyte.gz ]] || { echo "SKIP: no Fashion-MNIST in $data"; exit 77; }

out="$("$py" "$script" --device cpu --threads 1 --epochs 1 --train-subset 6000 --test-subset 2000 2>&1)"
rc=$?
echo "$out"
[[ $rc == 0 ]] || { echo "FAIL: exit $rc"; exit 1; }
summary="$(grep '^summary ' <<<"$out")"
[[ $(grep -c '^summary ' <<<"$out") == 1 ]] || { echo "FAIL: expected one summary line"; exit 1; }
field() { sed -nE "s/.* $1=([^ ]+).*/\1/p" <<<" $summary"; }
for want in framework=pytorch mode=eager device=cpu gpu=none threads=1 batch=128 epochs=1 \
  train_examples=6000 steps_per_epoch=46; do
  [[ " $summary " == *" $want "* ]] || { echo "FAIL: summary has no '$want'"; exit 1; }
done
awk -v v="$(field samples_per_s)" 'BEGIN { exit !(v + 0 > 0) }' || { echo "FAIL: samples_per_s '$(field samples_per_s)'"; exit 1; }
awk -v v="$(field test_acc)" 'BEGIN { exit !(v + 0 > 0.70 && v + 0 <= 1) }' ||
  { echo "FAIL: test_acc '$(field test_acc)' is not above 0.70"; exit 1; }
grep -qE '^epoch 1/1  loss [0-9.]+  test acc [0-9.]+  [0-9]+ samples/s' <<<"$out" ||
  { echo "FAIL: no epoch line"; exit 1; }

bad="$("$py" "$script" --data /nonexistent 2>&1)"
rc=$?
[[ $rc == 2 && $(grep -c '^error: ' <<<"$bad") == 1 && $bad == *"/nonexistent"* ]] ||
  { echo "FAIL: --data /nonexistent gave exit $rc and: $bad"; exit 1; }
echo "PASS: test_acc $(field test_acc), $(field samples_per_s) samples/s"

# --ddp 2: two processes over gloo, the global batch split 64 + 64; the same model learns.
out="$("$py" "$script" --ddp 2 --epochs 1 --train-subset 6000 --test-subset 2000 2>&1)"
rc=$?
echo "$out"
[[ $rc == 0 ]] || { echo "FAIL: --ddp 2 exit $rc"; exit 1; }
[[ $(grep -c '^summary ' <<<"$out") == 1 ]] || { echo "FAIL: --ddp 2: expected one summary line (rank 0's)"; exit 1; }
summary="$(grep '^summary ' <<<"$out")"
for want in mode=ddp ranks=2 threads=1 batch=128 steps_per_epoch=46; do
  [[ " $summary " == *" $want "* ]] || { echo "FAIL: --ddp 2 summary has no '$want'"; exit 1; }
done
awk -v v="$(field test_acc)" 'BEGIN { exit !(v + 0 > 0.70 && v + 0 <= 1) }' ||
  { echo "FAIL: --ddp 2 test_acc '$(field test_acc)' is not above 0.70"; exit 1; }
bad="$("$py" "$script" --ddp 3 --batch 128 2>&1)"
[[ $? == 2 && $bad == *"must divide by --ddp 3"* ]] || { echo "FAIL: --ddp 3 --batch 128 gave: $bad"; exit 1; }

# --seeds 2: the summary's rate is the median of the seeds', between their min and max.
out="$("$py" "$script" --device cpu --threads 1 --epochs 1 --seeds 2 --train-subset 3000 --test-subset 500 2>&1)"
[[ $? == 0 ]] || { echo "$out"; echo "FAIL: --seeds 2"; exit 1; }
summary="$(grep '^summary ' <<<"$out")"
[[ " $summary " == *" seeds=2 "* && " $summary " == *" tf32=off "* ]] || { echo "FAIL: --seeds 2 summary: $summary"; exit 1; }
awk -v lo="$(field samples_per_s_min)" -v mid="$(field samples_per_s)" -v hi="$(field samples_per_s_max)" \
  'BEGIN { exit !(lo > 0 && lo <= mid && mid <= hi) }' || { echo "FAIL: min <= median <= max: $summary"; exit 1; }
[[ $(grep -c '^epoch 1/1 .*  seed [12]$' <<<"$out") == 2 ]] || { echo "FAIL: one epoch line per seed"; exit 1; }
# --mode compile and graph: where this PyTorch or machine cannot (torch < 2, no GPU), a skip
# with the reason; where it can, a run whose summary names the mode.
for mode in compile graph; do
  out="$("$py" "$script" --mode "$mode" --epochs 1 --train-subset 3000 --test-subset 500 2>&1)"
  rc=$?
  if [[ $rc == 77 ]]; then
    [[ $out == *"--mode $mode"*"skipped (exit 77)"* ]] || { echo "FAIL: --mode $mode skip without its reason: $out"; exit 1; }
    echo "--mode $mode: $out"
  else
    [[ $rc == 0 && $(grep '^summary ' <<<"$out") == *" mode=$mode "* ]] || { echo "$out"; echo "FAIL: --mode $mode exit $rc"; exit 1; }
  fi
done
echo "PASS: test_acc $(field test_acc) with --ddp 2"
