#!/usr/bin/env bash
# Makes folders of hostile Fashion-MNIST files for lesson 06's bad-input tests:
#   DIR/huge       train images whose header promises 65536 x 65536 x 65536 bytes, holding 16
#   DIR/zero       train images of 5 x 0 x 28: no pixels at all
#   DIR/truncated  a real-looking gzip cut in half
# usage: make_bad_datasets.sh DIR
set -euo pipefail
dir="$1"
rm -rf "$dir"
mkdir -p "$dir/huge" "$dir/zero" "$dir/truncated"
be32() { printf "\\x$(printf %02x $(($1 >> 24 & 255)))\\x$(printf %02x $(($1 >> 16 & 255)))\\x$(printf %02x $(($1 >> 8 & 255)))\\x$(printf %02x $(($1 & 255)))"; }
{ be32 0x803; be32 65536; be32 65536; be32 65536; be32 0; } | gzip -c >"$dir/huge/train-images-idx3-ubyte.gz"
{ be32 0x803; be32 5; be32 0; be32 28; } | gzip -c >"$dir/zero/train-images-idx3-ubyte.gz"
{ be32 0x803; be32 100; be32 28; be32 28; head -c 78400 /dev/urandom; } | gzip -c >"$dir/whole.gz"
head -c $(($(stat -c %s "$dir/whole.gz") / 2)) "$dir/whole.gz" >"$dir/truncated/train-images-idx3-ubyte.gz"
for d in huge zero truncated; do  # labels that are fine, so the images are what is wrong
  { be32 0x801; be32 100; head -c 100 /dev/zero; } | gzip -c >"$dir/$d/train-labels-idx1-ubyte.gz"
done
