// Fashion-MNIST: 28x28 grey images of clothes in 10 classes, 60000 to train on and 10000 to
// test with, as IDX files (gzip-compressed). Debian ships them in dataset-fashion-mnist:
//   /usr/share/datasets/fashion-mnist/{train,t10k}-{images-idx3,labels-idx1}-ubyte.gz
// read here directly with zlib. An IDX file is a big-endian header, then raw bytes:
//   images: magic 0x00000803, count, rows, cols, then count*rows*cols pixels (0..255)
//   labels: magic 0x00000801, count, then count labels (0..9)
// Every problem (missing file, not gzip, bad magic, truncated, a dimension of 0 or too large,
// counts that disagree) comes back as one line that names the file and says what is wrong.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringlab {

// A set of labelled examples, pixels already scaled to floats (row-major, `features` per row).
struct Dataset {
  int count = 0;
  int features = 0;                  // 784 for 28x28
  std::vector<float> images;         // count * features
  std::vector<std::uint8_t> labels;  // count, each 0..classes-1
  int classes = 10;
  const float* image(int i) const { return images.data() + static_cast<std::size_t>(i) * features; }
};

struct TrainTest {
  Dataset train, test;
};

inline const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";
inline const char* kFashionMnistPackage = "dataset-fashion-mnist";

// The most data one IDX file may hold: 256 MiB, over five times Fashion-MNIST's 47 MB of training
// images. A header that promises more (or a dimension of 0) is refused before any data is read.
inline constexpr std::uint64_t kMaxIdxBytes = std::uint64_t(1) << 28;

// Reads one IDX file (gzip or plain), header first: every size is checked, without overflow,
// against the limit above and then against the bytes actually in the file. `expected_magic` is 0x803 (images)
// or 0x801 (labels). On success: the dimensions after the magic (count[, rows, cols]) and the payload bytes.
struct Idx {
  std::vector<std::uint32_t> dims;
  std::vector<std::uint8_t> data;
};
std::optional<Idx> read_idx(const std::string& path, std::uint32_t expected_magic, std::string* error);

// The four files from `dir`, pixels scaled to [0, 1] then standardised with the training set's
// mean and standard deviation (the same numbers for the test set).
std::optional<TrainTest> load_fashion_mnist(const std::string& dir, std::string* error);

// A small learnable stand-in for fast tests: each class is a fixed random prototype image plus
// noise. Same shape as Fashion-MNIST (784 features, 10 classes); same numbers on every rank.
TrainTest synthetic_fashion_mnist(int train_count, int test_count, std::uint64_t seed = 42);

// What the lessons' --data flag names: "synthetic" (4096 train, 1024 test examples) or a folder.
std::optional<TrainTest> load_data(const std::string& data, std::string* error);

}  // namespace ringlab
