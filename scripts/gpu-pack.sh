#!/usr/bin/env bash
# Prepares what must travel to a GPU machine that has CUDA (and maybe CMake, PyTorch) but no
# Open MPI, so that scripts/gpu-suite.sh can run there:
#   scripts/gpu-pack.sh [--build BUILD_DIR]
# Writes gpu-pack/ (git-ignored):
#   debs/        Debian's Open MPI runtime and the libraries it needs, fetched with
#                `apt-get download` (the base system every Debian/Ubuntu machine has — libc,
#                libstdc++, zlib, ... — is left out: a second libc on the library path would
#                break every program); and OpenBLAS's runtime (lesson 06's CPU GEMMs: GPU
#                machines rarely have it)
#   unpack.sh    run on the GPU machine: unpacks the debs into gpu-pack/prefix (never into /)
#   env.sh       sourced there: PATH, LD_LIBRARY_PATH and OPAL_PREFIX for that private prefix
#   build-gpu.tar.xz  with --build: the lesson programs and GPU tests from BUILD_DIR (static
#                cudart, no libcuda: the GPU machine's driver provides it), which gpu-suite.sh
#                unpacks into gpu-pack/build-gpu there
#   fashion-mnist/  the four Fashion-MNIST IDX .gz files (30 MB), for lesson 06 and the PyTorch
#                baseline (scripts/pytorch_mlp_baseline.py) on the same data
# Everything that travels (the repository, gpu-pack/) must stay under 64 MiB: the size is printed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PACK="$ROOT/gpu-pack"
build=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="${2:?--build needs a build folder}"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "error: gpu-pack.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
rm -rf "$PACK/debs"
mkdir -p "$PACK/debs"

# Open MPI's runtime and everything it needs, recursively, without recommends/suggests.
roots=(openmpi-bin openmpi-common libopenmpi3 libopenblas0-pthread)
mapfile -t wanted < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances "${roots[@]}" | grep -v '^ ' | grep -v '^<' | sort -u)
# Left out: the base system every Debian/Ubuntu machine has (libc, libstdc++, compression,
# PAM, SELinux, ssh and its Kerberos), and packaging tools. A second libc on the library path
# would break every program; Open MPI's ssh launcher is not used on one machine.
base='^(libc6|libgcc-s1|libstdc\+\+6|gcc-[0-9]+-base|zlib1g|libzstd1|liblzma5|libbz2-1\.0|libcrypt1|libselinux1'
base+='|libpcre2-8-0|libudev1|libssl3|libtinfo6|libuuid1|libacl1|libaudit1|libaudit-common|libcap-ng0|libpam0g'
base+='|libmd0|libbsd0|libdb5\.3|libsemanage.*|libsepol2|c?debconf|libdebian-installer4|libnewt0\.52|libslang2'
base+='|libtextwrap1|install-info|libreadline8|libedit2|openssh-client|libfido2-1|libcbor0\.8|libgssapi-krb5-2'
base+='|libk5crypto3|libkeyutils1|libkrb5-3|libkrb5support0|libcom-err2|adduser|dpkg|passwd|tar|libpam-.*|readline-common'
# Also left out: libxml2 and the 9 MB libicu72 under it. Only hwloc's optional XML plugin needs
# them, and hwloc looks for its plugins at /usr/lib/..., not in the private prefix, so that
# plugin never loads there anyway (and hwloc goes on without it).
base+='|libxml2|libicu[0-9]+)$'
mapfile -t keep < <(printf '%s\n' "${wanted[@]}" | grep -Ev "$base")
(cd "$PACK/debs" && apt-get download "${keep[@]}" >/dev/null)
echo "gpu-pack: ${#keep[@]} packages in $PACK/debs ($(du -sh "$PACK/debs" | cut -f1))"

cat >"$PACK/unpack.sh" <<'UNPACK'
#!/usr/bin/env bash
# Unpacks gpu-pack/debs into gpu-pack/prefix (a folder of its own, never /) and links mpirun.
set -euo pipefail
PACK="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ -x "$PACK/bin/mpirun" ]] && exit 0
mkdir -p "$PACK/prefix" "$PACK/bin"
for deb in "$PACK"/debs/*.deb; do dpkg-deb -x "$deb" "$PACK/prefix" 2>/dev/null || {
  # No dpkg on the GPU machine: a .deb is an ar archive holding data.tar.*
  tmp="$(mktemp -d)"; (cd "$tmp" && ar x "$deb" && tar -xf data.tar.* -C "$PACK/prefix"); rm -rf "$tmp"; }
done
# Debian reaches mpirun through /etc/alternatives, which a plain unpack does not create.
for tool in mpirun mpiexec; do
  target="$(ls "$PACK"/prefix/usr/bin/"$tool".openmpi "$PACK"/prefix/usr/bin/orterun 2>/dev/null | head -n 1)"
  ln -sf "../prefix/usr/bin/$(basename "$target")" "$PACK/bin/$tool"  # relative: the pack can move
done
echo "gpu-pack: Open MPI unpacked into $PACK/prefix"
UNPACK
cat >"$PACK/env.sh" <<'ENV'
# Sourced by scripts/gpu-suite.sh (or by hand): Open MPI from gpu-pack/prefix.
GPU_PACK="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export OPAL_PREFIX="$GPU_PACK/prefix/usr"
export PATH="$GPU_PACK/bin:$GPU_PACK/prefix/usr/bin:$PATH"
# Debian's PMIx looks for its plugins at the absolute path it was built for; point it at ours
# (a GPU machine's own, other PMIx there would not load) and keep its zlib notice quiet.
export PMIX_MCA_mca_base_component_path="$GPU_PACK/prefix/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix"
export PMIX_MCA_pcompress_base_silence_warning=1
# OpenBLAS: Debian reaches libopenblas.so.0 through /etc/alternatives; here, its own folder.
export LD_LIBRARY_PATH="$GPU_PACK/prefix/usr/lib/x86_64-linux-gnu:$GPU_PACK/prefix/usr/lib/x86_64-linux-gnu/openmpi/lib:$GPU_PACK/prefix/usr/lib/x86_64-linux-gnu/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ENV
chmod +x "$PACK/unpack.sh"

if [[ -n "$build" ]]; then
  # The mistakes' programs are built only for their tests (label mistakes): build those listed.
  mapfile -t mistakes < <("$ROOT/tests/gpu/mistakes_on_device.sh" --list | cut -d' ' -f2)
  cmake --build "$build" --target "${mistakes[@]}" -j "$(nproc)" >/dev/null ||
    { echo "error: gpu-pack: building ${mistakes[*]} in $build failed" >&2; exit 1; }
  mkdir -p "$PACK/build-gpu/bin"
  for f in bin/lesson_01 bin/lesson_02 bin/lesson_03 bin/lesson_05 bin/lesson_06 tests/gpu/test_gpu_ops \
    tests/gpu/test_transport; do
    cp "$build/$f" "$PACK/build-gpu/bin/"
  done
  for f in tests/gpu/test_gpu_nccl_one_rank tests/gpu/test_gpu_nccl_allreduce \
    tests/lesson05/check_trace; do  # where NCCL was found; the trace checker of the ipc trace check
    [[ -x "$build/$f" ]] && cp "$build/$f" "$PACK/build-gpu/bin/"
  done
  # Lessons 06/07 and the GPU MLP test, where built (they link libcublas.so.13 dynamically: CUDA
  # 13 has no static cuBLAS, so the GPU machine needs its CUDA 13 libraries).
  for f in bin/lesson_06 bin/lesson_07 bin/lesson_09 tests/gpu/test_gpu_mlp bin/ringlab-manifest; do
    [[ -x "$build/$f" ]] && cp "$build/$f" "$PACK/build-gpu/bin/"
  done
  # The typical mistakes tests/gpu/mistakes_on_device.sh checks on the GPU: their programs, their
  # filled headers (what --holes reads) and the variants' list (nothing is built from it there).
  mkdir -p "$PACK/build-gpu/exercises"
  cp "$build/exercises/holes.txt" "$PACK/build-gpu/exercises/"
  while read -r _ target folder; do
    cp "$build/bin/$target" "$PACK/build-gpu/bin/"
    mkdir -p "$PACK/build-gpu/mistakes/${folder%/*}"
    cp -r "$build/mistakes/$folder" "$PACK/build-gpu/mistakes/${folder%/*}/"
  done < <("$ROOT/tests/gpu/mistakes_on_device.sh" --list)
  if grep -q 'libcuda\.so' <<<"$(ldd "$PACK/build-gpu/bin/lesson_05")"; then
    echo "error: gpu-pack: lesson_05 links libcuda (it must link cudart statically)" >&2
    exit 1
  fi
  # Symbols are not needed to run them (the CUDA kernels sit in their own section, kept), and
  # everything that travels must fit in 64 MiB.
  strip --strip-unneeded "$PACK"/build-gpu/bin/* 2>/dev/null || true
  # Compressed to travel: the programs share most of their code (the core library, the CUDA
  # kernels), so xz packs 35 MB into about 3. gpu-suite.sh unpacks it where it runs.
  tar -C "$PACK" -cf - build-gpu | xz -9 -T0 >"$PACK/build-gpu.tar.xz"
  rm -rf "$PACK/build-gpu"
  echo "gpu-pack: build in $PACK/build-gpu.tar.xz (gpu-suite.sh unpacks it into gpu-pack/build-gpu)"
fi

# The data lesson 06 and the PyTorch baseline train on (gpu-suite.sh reads it from here).
data=/usr/share/datasets/fashion-mnist
if [[ -f $data/train-images-idx3-ubyte.gz ]]; then
  mkdir -p "$PACK/fashion-mnist"
  cp "$data"/{train,t10k}-{images-idx3,labels-idx1}-ubyte.gz "$PACK/fashion-mnist/"
else
  echo "gpu-pack: no Fashion-MNIST in $data (apt-get install dataset-fashion-mnist): the suite's lesson 06 benchmarks will be skipped" >&2
fi
total="$( (cd "$ROOT" && git ls-files -z | du -cb --files0-from=- 2>/dev/null | tail -n 1 | cut -f1; du -sb "$PACK" | cut -f1) |
  awk '{ s += $1 } END { printf "%.1f", s / 1048576 }')"
echo "gpu-pack: the repository's files and gpu-pack/ come to $total MiB (what travels must stay under 64 MiB)"
