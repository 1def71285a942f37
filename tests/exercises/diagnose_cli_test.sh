#!/usr/bin/env bash
# diagnose_cli_test.sh TOOL MANIFEST: `ringlab-manifest diagnose 05` reads the runs (NP, exit
# code, results file as the lessons' --check writes it) and says what they have in common; for
# exercise 03 (whose manifest lists only root0) it must not name the ring's symptoms. Then which
# hole: `variants` writes one variant per hole of exercise 05 (the hole the learner's, the other
# the solution's), `localise` says which fail on their own, and `diagnose`/`explain --variants`
# leave out what blames a hole that passes.
set -uo pipefail
tool="$1" manifest="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "diagnose_cli_test: $*"; exit 1; }
# Wrong only where count is not a multiple of np (the remainder), on 2 and 3 ranks.
printf 'case\t0\t-1\t0\ncase\t1\t-1\t1\ncase\t12\t-1\t0\ncase\t1000003\t-1\t1\n' >"$dir/np2"
printf 'case\t0\t-1\t0\ncase\t1\t-1\t2\ncase\t12\t-1\t0\ncase\t1000003\t-1\t2\nmismatch\t22\t-68\n' >"$dir/np3"
runs="$(printf '2\t1\t%s\n3\t1\t%s\n' "$dir/np2" "$dir/np3")"
out="$("$tool" --manifest "$manifest" diagnose 05 <<<"$runs")" || fail "diagnose 05 failed"
printf '%s\n' "$out"
grep -q '^wrong only where count is not a multiple of the number of ranks' <<<"$out" || fail "no remainder diagnosis"
[[ "$(wc -l <<<"$out")" == 1 ]] || fail "one pattern, one sentence"
# Right on 2 ranks, wrong on 3 and 4; the results file of a crashed run is missing.
runs="$(printf '1\t0\t%s\n2\t0\t%s\n3\t1\t%s\n4\t1\t%s\n' "$dir/none" "$dir/none" "$dir/none" "$dir/none")"
out="$("$tool" --manifest "$manifest" diagnose 05 <<<"$runs")"
printf '%s\n' "$out"
grep -q '^right on 2 ranks, wrong on 3 or more' <<<"$out" || fail "no np2 diagnosis"
out="$("$tool" --manifest "$manifest" diagnose 03 <<<"$runs")"
[[ -z "$out" ]] || fail "exercise 03 does not list np2, yet: $out"

# A learner's 05 with a wrong reduce-scatter and the allgather as the solution has it.
root="$(cd "$(dirname "$manifest")/.." && pwd)"
mkdir -p "$dir/mine"
sed 's/comm.sendrecv(chunk(r - s), next, recv_buf, prev)/comm.sendrecv(chunk(r - s + 1), next, recv_buf, prev)/' \
  "$root/solutions/05_ring_allreduce/ring_allreduce.hpp" >"$dir/mine/ring_allreduce.hpp"
grep -q 'chunk(r - s + 1), next, recv_buf' "$dir/mine/ring_allreduce.hpp" || fail "the solution changed: update the sed"
out="$("$tool" --manifest "$manifest" variants 05 "$dir/mine" "$dir/variants")" || fail "variants 05 failed"
printf '%s\n' "$out"
[[ "$out" == "$(printf '1\treduce-scatter\town\n2\tallgather\tsame')" ]] || fail "variants: want each hole, own and same"
grep -q 'chunk(r - s + 1), next, recv_buf' "$dir/variants/1/ring_allreduce.hpp" || fail "variant 1 lacks the learner's reduce-scatter"
cmp -s "$dir/variants/2/ring_allreduce.hpp" "$root/solutions/05_ring_allreduce/ring_allreduce.hpp" ||
  fail "variant 2 (the learner's allgather, the solution's) must be the solution"
[[ -z "$("$tool" --manifest "$manifest" variants 03 "$root/solutions/03_broadcast" "$dir/v03")" && ! -e "$dir/v03" ]] ||
  fail "one hole: nothing to localise, nothing written"
printf 'reduce-scatter\town\tfails\nallgather\tsame\tpasses\n' >"$dir/outcomes"
out="$("$tool" localise --variants "$dir/outcomes")"
printf '%s\n' "$out"
[[ "$out" == "which hole: your reduce-scatter hole fails with the reference allgather; your allgather hole passes with the reference reduce-scatter." ]] ||
  fail "localise: wrong verdict"
[[ "$("$tool" localise --variants "$dir/outcomes" --failing)" == reduce-scatter ]] || fail "localise --failing"
# Every rank holds one chunk: the one-chunk rule (a manifest that asks for it) blames the
# allgather, which passes on its own.
printf '[05]\ntopic = 05_ring_allreduce\ntitle = T\nnp = 2\ncheck = --check\ndiagnose = one-chunk\n' >"$dir/one-chunk.txt"
printf 'case\t12\t-1\t12\n' >"$dir/np2c"
out="$("$tool" --manifest "$dir/one-chunk.txt" diagnose 05 <<<"$(printf '2\t1\t%s' "$dir/np2c")")"
grep -q 'the allgather phase is missing' <<<"$out" || fail "one-chunk expected without --variants: $out"
out="$("$tool" --manifest "$dir/one-chunk.txt" diagnose 05 --variants "$dir/outcomes" <<<"$(printf '2\t1\t%s' "$dir/np2c")")"
printf '%s\n' "$out"
grep -q 'allgather phase is missing' <<<"$out" && fail "diagnose --variants blames the allgather, which passes"
grep -q '^(left out: 1 message about your allgather hole' <<<"$out" || fail "diagnose --variants must say what it left out"
out="$(printf 'diagnosis: allgather step 0: rank 0 sent chunk 0. That is your allgather hole; x.\n' |
  "$tool" explain --variants "$dir/outcomes")"
grep -q 'diagnosis: allgather' <<<"$out" && fail "explain --variants blames the allgather, which passes"
echo "diagnose_cli_test: passed"
