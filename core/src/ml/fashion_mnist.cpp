// Reading Fashion-MNIST's IDX .gz files with zlib, and a synthetic stand-in for tests.
#include "ringlab/ml/fashion_mnist.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

namespace ringlab {
namespace {

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// Every failure: the one-line reason into *error, and no data.
std::nullopt_t refuse(std::string* error, const std::string& why) {
  *error = why;
  return std::nullopt;
}

std::uint32_t big_endian32(const std::uint8_t* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

// An IDX file opened with zlib (which reads plain files unchanged, so an uncompressed IDX works
// too), read a piece at a time: the header first, so that a file whose header makes no sense is
// refused before a single byte of its data is inflated into memory.
class IdxStream {
 public:
  IdxStream(const std::string& path, std::string* error) : path_(path), error_(error) {
    std::FILE* probe = std::fopen(path.c_str(), "rb");  // zlib's own errors do not say "no such file"
    if (!probe) {
      *error = path + ": " + std::strerror(errno) + " (install it with: apt-get install " +
               kFashionMnistPackage + ", or point --data at a folder that holds it)";
      return;
    }
    std::fclose(probe);
    f_ = gzopen(path.c_str(), "rb");
    if (!f_) *error = path + ": cannot open with zlib";
  }
  ~IdxStream() {
    if (f_) gzclose(f_);
  }
  IdxStream(const IdxStream&) = delete;
  IdxStream& operator=(const IdxStream&) = delete;
  bool is_open() const { return f_ != nullptr; }

  // Reads up to `n` bytes into `out`; returns how many were there (fewer only at the end of the
  // file), or -1 after writing the error for corrupt or cut-short gzip data.
  long long read(std::uint8_t* out, std::size_t n) {
    std::size_t got = 0;
    while (got < n) {
      const unsigned piece = static_cast<unsigned>(std::min<std::size_t>(n - got, 1 << 20));
      const int r = gzread(f_, out + got, piece);
      if (r < 0 || (r == 0 && !gzeof(f_))) return gzip_failed();
      if (r == 0) break;
      got += static_cast<std::size_t>(r);
    }
    int errnum = Z_OK;
    gzerror(f_, &errnum);
    if (errnum != Z_OK && errnum != Z_STREAM_END) return gzip_failed();
    return static_cast<long long>(got);
  }

 private:
  long long gzip_failed() {
    int errnum = Z_OK;
    const char* msg = gzerror(f_, &errnum);
    // A gzip stream cut short reads as "unexpected end of file": say it in the user's words.
    *error_ = path_ + ": " + (errnum == Z_BUF_ERROR ? "truncated gzip data" : "corrupt gzip data") +
              " (zlib: " + (msg ? msg : "") + "); reinstall with: apt-get install --reinstall " +
              kFashionMnistPackage;
    return -1;
  }
  std::string path_;
  std::string* error_;
  gzFile f_ = nullptr;
};

}  // namespace

std::optional<Idx> read_idx(const std::string& path, std::uint32_t expected_magic, std::string* error) {
  IdxStream in(path, error);
  if (!in.is_open()) return std::nullopt;
  const char* kind = expected_magic == 0x803 ? "IDX images" : "IDX labels";

  // 1. The magic number: type 0x08 (unsigned bytes) and how many dimensions follow.
  std::uint8_t word[4];
  long long got = in.read(word, 4);
  if (got < 0) return std::nullopt;
  if (got < 4)
    return refuse(error,
                  path + ": truncated: " + std::to_string(got) + " bytes, too short for an IDX header");
  const std::uint32_t magic = big_endian32(word);
  if (magic != expected_magic)
    return refuse(error, path + ": bad magic " + hex32(magic) + ", expected " + hex32(expected_magic) + " (" +
                             kind + ")");

  // 2. The dimensions. Each must be at least 1, and their product — the bytes of data the file
  // must hold — is computed so that it cannot wrap: a header claiming 65536 x 65536 x 65536 is
  // refused here, not turned into a small number that a short file happens to satisfy.
  const std::size_t ndims = magic & 0xff, header = 4 + 4 * ndims;
  Idx idx;
  std::uint64_t payload = 1;
  for (std::size_t d = 0; d < ndims; ++d) {
    got = in.read(word, 4);
    if (got < 0) return std::nullopt;
    if (got < 4)
      return refuse(error, path + ": truncated: the header needs " + std::to_string(header) +
                               " bytes, the file holds " +
                               std::to_string(4 + 4 * d + static_cast<std::size_t>(got)));
    const std::uint32_t dim = big_endian32(word);
    if (dim == 0)
      return refuse(error, path + ": corrupt: dimension " + std::to_string(d + 1) + " of the header is 0");
    if (payload > kMaxIdxBytes / dim)
      return refuse(error, path + ": corrupt: the header's dimensions promise more than " +
                               std::to_string(kMaxIdxBytes) + " bytes of data (dimension " +
                               std::to_string(d + 1) + " is " + std::to_string(dim) + ")");
    payload *= dim;
    idx.dims.push_back(dim);
  }

  // 3. The data, grown as it arrives (a short file costs only what it holds), then one more
  // byte to prove the file ends where the header says.
  const std::size_t want = static_cast<std::size_t>(payload);
  std::size_t have = 0;
  while (have < want) {
    idx.data.resize(std::min(want, std::max<std::size_t>(have * 2, 1 << 20)));
    got = in.read(idx.data.data() + have, idx.data.size() - have);
    if (got < 0) return std::nullopt;
    have += static_cast<std::size_t>(got);
    if (have < idx.data.size()) break;  // end of file
  }
  std::uint8_t extra;
  got = have < want ? 0 : in.read(&extra, 1);
  if (got < 0) return std::nullopt;
  if (have < want)
    return refuse(error, path + ": truncated: the header promises " + std::to_string(want) +
                             " bytes of data, the file holds " + std::to_string(have));
  if (got != 0)
    return refuse(error, path + ": corrupt: more bytes follow the " + std::to_string(want) +
                             " bytes of data the header promises");
  return idx;
}

namespace {

std::optional<Dataset> load_split(const std::string& dir, const std::string& prefix, std::string* error) {
  const std::string images_path = dir + "/" + prefix + "-images-idx3-ubyte.gz";
  const std::string labels_path = dir + "/" + prefix + "-labels-idx1-ubyte.gz";
  auto images = read_idx(images_path, 0x803, error);
  if (!images) return std::nullopt;
  auto labels = read_idx(labels_path, 0x801, error);
  if (!labels) return std::nullopt;
  if (images->dims[0] != labels->dims[0])
    return refuse(error, labels_path + ": holds " + std::to_string(labels->dims[0]) + " labels but " +
                             images_path + " holds " + std::to_string(images->dims[0]) + " images");
  Dataset ds;
  ds.count = static_cast<int>(images->dims[0]);
  ds.features = static_cast<int>(std::size_t(images->dims[1]) * images->dims[2]);  // <= kMaxIdxBytes
  ds.images.resize(images->data.size());
  for (std::size_t i = 0; i < images->data.size(); ++i) ds.images[i] = images->data[i] / 255.0f;
  ds.labels = std::move(labels->data);
  for (std::size_t i = 0; i < ds.labels.size(); ++i)
    if (ds.labels[i] >= ds.classes)
      return refuse(error, labels_path + ": corrupt: label " + std::to_string(ds.labels[i]) + " at index " +
                               std::to_string(i) + " (labels are 0..9)");
  return ds;
}

}  // namespace

std::optional<TrainTest> load_fashion_mnist(const std::string& dir, std::string* error) {
  auto train = load_split(dir, "train", error);
  if (!train) return std::nullopt;
  auto test = load_split(dir, "t10k", error);
  if (!test) return std::nullopt;
  if (train->features != test->features)
    return refuse(error, dir + ": train images have " + std::to_string(train->features) +
                             " pixels, test images " + std::to_string(test->features));
  // Standardise with the training set's statistics: inputs near mean 0, spread 1 train faster.
  double sum = 0, sq = 0;
  for (float v : train->images) sum += v, sq += double(v) * v;
  const double n = static_cast<double>(train->images.size());
  const float mean = static_cast<float>(sum / n);
  const float sd = static_cast<float>(std::sqrt(std::max(sq / n - (sum / n) * (sum / n), 1e-12)));
  for (Dataset* ds : {&*train, &*test})
    for (float& v : ds->images) v = (v - mean) / sd;
  return TrainTest{std::move(*train), std::move(*test)};
}

TrainTest synthetic_fashion_mnist(int train_count, int test_count, std::uint64_t seed) {
  const int features = 784, classes = 10;
  std::mt19937_64 gen(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> prototypes(static_cast<std::size_t>(classes) * features);
  for (float& v : prototypes) v = normal(gen);
  auto make = [&](int count) {
    Dataset ds;
    ds.count = count;
    ds.features = features;
    ds.images.resize(static_cast<std::size_t>(count) * features);
    ds.labels.resize(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      const int label = static_cast<int>(gen() % classes);
      ds.labels[i] = static_cast<std::uint8_t>(label);
      // A faint prototype under much stronger noise: learnable, but not in one step.
      for (int f = 0; f < features; ++f)
        ds.images[static_cast<std::size_t>(i) * features + f] =
            0.2f * prototypes[static_cast<std::size_t>(label) * features + f] + normal(gen);
    }
    return ds;
  };
  return TrainTest{make(train_count), make(test_count)};  // (train first: a braced list runs in order)
}

std::optional<TrainTest> load_data(const std::string& data, std::string* error) {
  if (data == "synthetic") return synthetic_fashion_mnist(4096, 1024);
  return load_fashion_mnist(data, error);
}

}  // namespace ringlab
