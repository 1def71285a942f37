// libFuzzer harness: the Fashion-MNIST IDX reader (core/include/ringlab/ml/fashion_mnist.hpp), as
// lesson 06 uses it. The input is split in two files, an images file and a labels file (plain
// IDX; zlib reads plain files as they are; the first two bytes say where to cut), written to a private folder
// under the four names load_fashion_mnist looks for. Whatever the bytes: a dataset whose sizes agree with
// each other (count * features pixels, count labels, each < classes), or one line saying what is wrong. See
// tests/fuzz/README.md.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ringlab/ml/fashion_mnist.hpp"

using namespace ringlab;

namespace {
void write(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size) std::fwrite(data, 1, size, f);
  std::fclose(f);
}
void check(const Dataset& d) {
  if (d.count < 0 || d.features < 0) std::abort();
  if (d.images.size() != static_cast<std::size_t>(d.count) * static_cast<std::size_t>(d.features))
    std::abort();
  if (d.labels.size() != static_cast<std::size_t>(d.count)) std::abort();
  for (auto l : d.labels)
    if (l >= d.classes) std::abort();
  if (d.count > 0) {  // touch the last image's last pixel, as training would
    volatile float last = d.image(d.count - 1)[d.features - 1];
    (void)last;
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string dir = [] {
    std::string d = "/tmp/ringlab-fuzz-idx-" + std::to_string(getpid());
    mkdir(d.c_str(), 0700);
    return d;
  }();
  // First two bytes (big-endian): the images file's length; the labels file is the rest.
  if (size < 2) return 0;
  const std::size_t rest = size - 2, cut = std::min<std::size_t>(rest, (data[0] << 8) | data[1]);
  const std::uint8_t* images = data + 2;
  const std::uint8_t* labels = images + cut;
  for (const char* split : {"train", "t10k"}) {
    write(dir + "/" + split + "-images-idx3-ubyte.gz", images, cut);
    write(dir + "/" + split + "-labels-idx1-ubyte.gz", labels, rest - cut);
  }
  std::string error;
  if (auto idx = read_idx(dir + "/train-images-idx3-ubyte.gz", 0x803, &error)) {
    std::size_t n = 1;  // what the header claims must be there, and fit in memory's numbers
    for (auto d : idx->dims)
      if (__builtin_mul_overflow(n, static_cast<std::size_t>(d), &n)) std::abort();
    if (idx->dims.size() != 3 || idx->data.size() < n) std::abort();
  } else if (error.empty()) {
    std::abort();
  }
  error.clear();
  if (auto tt = load_fashion_mnist(dir, &error)) {
    check(tt->train);
    check(tt->test);
  } else if (error.empty() || error.find('\n') != std::string::npos) {
    std::abort();
  }
  return 0;
}
