// Reading Fashion-MNIST's IDX .gz files with zlib, and a synthetic stand-in for tests.
#include "ringlab/fashion_mnist.hpp"

#include <zlib.h>

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

std::uint32_t big_endian32(const std::uint8_t* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

// The whole file, gunzipped (zlib reads plain files unchanged, so an uncompressed IDX works too).
std::optional<std::vector<std::uint8_t>> gunzip_file(const std::string& path, std::string* error) {
  std::FILE* probe = std::fopen(path.c_str(), "rb");
  if (!probe) {
    *error = path + ": " + std::strerror(errno) + " (install it with: apt-get install " +
             kFashionMnistPackage + ", or point --data at a folder that holds it)";
    return std::nullopt;
  }
  std::fclose(probe);
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) {
    *error = path + ": cannot open with zlib";
    return std::nullopt;
  }
  std::vector<std::uint8_t> out;
  std::uint8_t buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.insert(out.end(), buf, buf + n);
  int errnum = Z_OK;
  const char* msg = gzerror(f, &errnum);
  const bool failed = n < 0 || (errnum != Z_OK && errnum != Z_STREAM_END);
  const std::string why = msg ? msg : "";
  gzclose(f);
  if (failed) {
    // A gzip stream cut short reads as "unexpected end of file": say it in the user's words.
    *error = path + ": " + (errnum == Z_BUF_ERROR ? "truncated gzip data" : "corrupt gzip data") +
             " (zlib: " + why + "); reinstall with: apt-get install --reinstall " + kFashionMnistPackage;
    return std::nullopt;
  }
  return out;
}

}  // namespace

std::optional<Idx> read_idx(const std::string& path, std::uint32_t expected_magic, std::string* error) {
  auto bytes = gunzip_file(path, error);
  if (!bytes) return std::nullopt;
  const char* kind = expected_magic == 0x803 ? "IDX images" : "IDX labels";
  if (bytes->size() < 4) {
    *error = path + ": truncated: " + std::to_string(bytes->size()) + " bytes, too short for an IDX header";
    return std::nullopt;
  }
  const std::uint32_t magic = big_endian32(bytes->data());
  if (magic != expected_magic) {
    *error = path + ": bad magic " + hex32(magic) + ", expected " + hex32(expected_magic) + " (" + kind + ")";
    return std::nullopt;
  }
  const std::size_t ndims = magic & 0xff, header = 4 + 4 * ndims;
  if (bytes->size() < header) {
    *error = path + ": truncated: the header needs " + std::to_string(header) + " bytes, the file holds " +
             std::to_string(bytes->size());
    return std::nullopt;
  }
  Idx idx;
  std::size_t payload = 1;
  for (std::size_t d = 0; d < ndims; ++d) {
    idx.dims.push_back(big_endian32(bytes->data() + 4 + 4 * d));
    payload *= idx.dims.back();
  }
  const std::size_t have = bytes->size() - header;
  if (have != payload) {
    *error = path + ": " + (have < payload ? "truncated" : "corrupt") + ": the header promises " +
             std::to_string(payload) + " bytes of data, the file holds " + std::to_string(have);
    return std::nullopt;
  }
  idx.data.assign(bytes->begin() + static_cast<std::ptrdiff_t>(header), bytes->end());
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
  if (images->dims[0] != labels->dims[0]) {
    *error = labels_path + ": holds " + std::to_string(labels->dims[0]) + " labels but " + images_path +
             " holds " + std::to_string(images->dims[0]) + " images";
    return std::nullopt;
  }
  Dataset ds;
  ds.count = static_cast<int>(images->dims[0]);
  ds.features = static_cast<int>(images->dims[1] * images->dims[2]);
  ds.images.resize(images->data.size());
  for (std::size_t i = 0; i < images->data.size(); ++i) ds.images[i] = images->data[i] / 255.0f;
  ds.labels = std::move(labels->data);
  for (std::size_t i = 0; i < ds.labels.size(); ++i) {
    if (ds.labels[i] >= ds.classes) {
      *error = labels_path + ": corrupt: label " + std::to_string(ds.labels[i]) + " at index " +
               std::to_string(i) + " (labels are 0..9)";
      return std::nullopt;
    }
  }
  return ds;
}

}  // namespace

std::optional<TrainTest> load_fashion_mnist(const std::string& dir, std::string* error) {
  TrainTest tt;
  auto train = load_split(dir, "train", error);
  if (!train) return std::nullopt;
  auto test = load_split(dir, "t10k", error);
  if (!test) return std::nullopt;
  if (train->features != test->features) {
    *error = dir + ": train images have " + std::to_string(train->features) + " pixels, test images " +
             std::to_string(test->features);
    return std::nullopt;
  }
  // Standardise with the training set's statistics: inputs near mean 0, spread 1 train faster.
  double sum = 0, sq = 0;
  for (float v : train->images) sum += v, sq += double(v) * v;
  const double n = static_cast<double>(train->images.size());
  const float mean = static_cast<float>(sum / n);
  const float sd = static_cast<float>(std::sqrt(std::max(sq / n - (sum / n) * (sum / n), 1e-12)));
  for (Dataset* ds : {&*train, &*test})
    for (float& v : ds->images) v = (v - mean) / sd;
  tt.train = std::move(*train);
  tt.test = std::move(*test);
  return tt;
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
  TrainTest tt;
  tt.train = make(train_count);
  tt.test = make(test_count);
  return tt;
}

std::optional<TrainTest> load_data(const std::string& data, std::string* error) {
  if (data == "synthetic") return synthetic_fashion_mnist(4096, 1024);
  return load_fashion_mnist(data, error);
}

}  // namespace ringlab
