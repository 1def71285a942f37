#!/usr/bin/env bash
# Builds and runs the libFuzzer harnesses (tests/fuzz/README.md). Exit 77 (ctest: skipped)
# where clang++ with libFuzzer is not installed (Debian: apt-get install clang libclang-rt-dev).
#   run.sh build FUZZ_BUILD_DIR                  configure + build with clang++ (ASan, UBSan)
#   run.sh run FUZZ_BUILD_DIR NAME SECONDS       fuzz one harness from its seed corpus
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cmd="$1" build="$2"

if [[ "$cmd" == build ]]; then
  cxx="${RINGLAB_FUZZ_CXX:-$(command -v clang++ || true)}"  # RINGLAB_FUZZ_CXX: another clang++
  [[ -n "$cxx" ]] && command -v "$cxx" >/dev/null || { echo "SKIPPED: no clang++ (apt-get install clang libclang-rt-dev)"; exit 77; }
  probe="$(mktemp -d)"
  echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe/p.cpp"
  if ! "$cxx" -fsanitize=fuzzer,address "$probe/p.cpp" -o "$probe/p" 2>"$probe/log"; then
    cat "$probe/log"; rm -rf "$probe"
    echo "SKIPPED: clang++ has no libFuzzer here (apt-get install libclang-rt-dev)"; exit 77
  fi
  rm -rf "$probe"
  # A build folder configured from elsewhere (an older layout) is started afresh.
  [[ ! -f "$build/CMakeCache.txt" ]] || grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$here/clang" "$build/CMakeCache.txt" ||
    rm -rf "$build"
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  cmake -S "$here/clang" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="${cxx%++}" "${launcher[@]}" >/dev/null &&
    cmake --build "$build" -j "${RINGLAB_FUZZ_JOBS:-2}" || { echo "FAILED: the fuzz build"; exit 1; }
  echo "built the fuzzers in $build"
  exit 0
fi

name="$3" seconds="$4"
bin="$build/fuzz_$name"
# Per harness: the deck parser works line by line and slide by slide, and 2 KiB holds several
# slides with every construct; without a cap libFuzzer grows inputs to the 17 KiB shipped deck
# and runs ~1k inputs/s instead of ~4k.
extra=()
[[ "$name" == deck ]] && extra=(-max_len=2048)
[[ -x "$bin" ]] || { echo "SKIPPED: $bin not built (no clang/libFuzzer: see the fuzz build test)"; exit 77; }
# A scratch corpus (what the fuzzer adds), seeded from the committed one, which stays as it is.
work="$build/corpus_$name"
mkdir -p "$work"
log="$build/fuzz_$name.log"
stamp="$build/.started_$name"; touch "$stamp"  # findings of this run: the files newer than this
# (libFuzzer exits 77 on a finding by default: ctest would call that "skipped".) Its log can hold
# raw input bytes, hence grep -a below.
"$bin" "${extra[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -error_exitcode=1 -timeout_exitcode=1 \
  -artifact_prefix="$build/finding_$name-" "$work" "$here/corpus/$name" >"$log" 2>&1
rc=$?
tail -n 30 "$log"
execs="$(grep -a -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')"
# Coverage as libFuzzer counts it on its last status line: cov = edges reached, ft = features.
cov="$(grep -a -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)"
findings="$(find "$build" -maxdepth 1 -name "finding_$name-*" -newer "$stamp" | wc -l)"
# One summary line in a fixed shape: ./ringlab fuzz makes its table from these.
echo "fuzz_$name: ${execs:-?} executions in ${seconds} s, edges ${cov#cov: }, corpus $(ls "$work" | wc -l) inputs, findings $findings, exit $rc" |
  sed 's/ ft: / features /'

[[ $rc == 0 ]] || echo "FINDING: the input is in $build/finding_$name-* (reproduce: $bin FILE)"
exit $rc
