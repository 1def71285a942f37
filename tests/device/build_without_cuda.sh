#!/usr/bin/env bash
# The kit configured with RINGLAB_ENABLE_CUDA=OFF is today's CPU kit: CMake says so in one line,
# the core builds without nvcc, and a device View is refused with "built without CUDA" (the
# ops test's branch for that build).   usage: build_without_cuda.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src="$1"
dir="$2/build-nocuda"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DRINGLAB_ENABLE_CUDA=OFF "${launcher[@]}" >"$dir.log" 2>&1 ||
  { cat "$dir.log"; exit 1; }
grep -q "ringlab: RINGLAB_ENABLE_CUDA=OFF, skipping GPU builds" "$dir.log" || { echo "FAILED: no one-line notice"; exit 1; }
cmake --build "$dir" -j 2 --target core_ops_follow_the_data lesson_05 lesson_06 \
  lesson06_gpu_mlp_without_a_gpu_is_one_error_not_a_crash
if grep -q "RINGLAB_HAVE_CUDA" "$dir/compile_commands.json"; then echo "FAILED: CUDA still on"; exit 1; fi
"$dir/tests/core/core_ops_follow_the_data"
"$dir/tests/lesson06/lesson06_gpu_mlp_without_a_gpu_is_one_error_not_a_crash"  # the stub's one line
out="$("$src/scripts/ringlab-mpirun" -np 2 "$dir/bin/lesson_05" --device cuda 2>&1)" && rc=0 || rc=$?
echo "$out"
[[ $rc == 77 && "$(grep -c 'this ringlab was built without CUDA' <<<"$out")" == 2 ]] || { echo "FAILED: rc $rc"; exit 1; }
out="$("$src/scripts/ringlab-mpirun" -np 2 "$dir/bin/lesson_06" --device cuda --data synthetic 2>&1)" && rc=0 || rc=$?
echo "$out"
[[ $rc == 77 && "$(grep -c 'this ringlab was built without CUDA' <<<"$out")" == 2 ]] || { echo "FAILED: lesson 06 rc $rc"; exit 1; }
echo PASSED
