// The IDX .gz reader: good files read back exactly; every kind of bad file gives one line that
// names the file and the problem. The files are made here, in a temporary folder.
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ringlab/ml/fashion_mnist.hpp"

namespace fs = std::filesystem;
using ringlab::read_idx;

namespace {

fs::path temp_dir() {
  fs::path d = fs::temp_directory_path() / ("ringlab-idx-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::vector<unsigned char> idx_bytes(std::uint32_t magic, std::vector<std::uint32_t> dims,
                                     std::size_t payload) {
  std::vector<unsigned char> b;
  auto be = [&](std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<unsigned char>(v >> s));
  };
  be(magic);
  for (auto d : dims) be(d);
  for (std::size_t i = 0; i < payload; ++i) b.push_back(static_cast<unsigned char>(i % 10));
  return b;
}

void write_gz(const fs::path& p, const std::vector<unsigned char>& bytes) {
  gzFile f = gzopen(p.c_str(), "wb");
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
}

// `bytes` gzipped into the file `name` of the temporary folder; returns its path.
fs::path gz_file(const std::string& name, const std::vector<unsigned char>& bytes) {
  const auto p = temp_dir() / name;
  write_gz(p, bytes);
  return p;
}

// The one line read_idx writes for a file it must refuse.
std::string refusal(const fs::path& p, std::uint32_t expected_magic) {
  std::string error;
  CHECK_FALSE(read_idx(p.string(), expected_magic, &error));
  return error;
}

void write_raw(const fs::path& p, const std::vector<unsigned char>& bytes) {
  std::FILE* f = std::fopen(p.c_str(), "wb");
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

std::vector<unsigned char> read_raw(const fs::path& p) {
  std::vector<unsigned char> b(fs::file_size(p));
  std::FILE* f = std::fopen(p.c_str(), "rb");
  REQUIRE(std::fread(b.data(), 1, b.size(), f) == b.size());
  std::fclose(f);
  return b;
}

}  // namespace

TEST_CASE("a well-formed gzipped IDX image file reads back its dimensions and bytes") {
  const auto p = temp_dir() / "good-images.gz";
  write_gz(p, idx_bytes(0x803, {3, 2, 2}, 12));
  std::string error;
  auto idx = read_idx(p.string(), 0x803, &error);
  REQUIRE(idx);
  CHECK(idx->dims == std::vector<std::uint32_t>{3, 2, 2});
  REQUIRE(idx->data.size() == 12);
  CHECK(idx->data[11] == 1);
}

TEST_CASE("a missing file names the file and the apt command that installs it") {
  std::string error;
  CHECK_FALSE(read_idx("/nonexistent/train-images-idx3-ubyte.gz", 0x803, &error));
  CHECK(error.find("/nonexistent/train-images-idx3-ubyte.gz") != std::string::npos);
  CHECK(error.find("apt-get install dataset-fashion-mnist") != std::string::npos);
  CHECK(error.find('\n') == std::string::npos);
}

TEST_CASE("a labels file where images are expected is reported as bad magic") {
  const auto p = gz_file("labels-not-images.gz", idx_bytes(0x801, {5}, 5));
  const std::string error = refusal(p, 0x803);
  CHECK(error.find(p.string()) != std::string::npos);
  CHECK(error.find("bad magic 0x00000801, expected 0x00000803") != std::string::npos);
}

TEST_CASE("a file that is not gzip and not IDX is reported as bad magic") {
  const auto p = temp_dir() / "garbage.gz";
  write_raw(p, {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd'});
  CHECK(refusal(p, 0x801).find("bad magic") != std::string::npos);
}

TEST_CASE("an IDX file with fewer bytes than its header promises is reported as truncated") {
  const auto p = gz_file("short-payload.gz", idx_bytes(0x803, {10, 28, 28}, 100));
  const std::string error = refusal(p, 0x803);
  CHECK(error.find(p.string() + ": truncated") != std::string::npos);
  CHECK(error.find("7840") != std::string::npos);  // what the header promised
}

TEST_CASE("a gzip stream cut short is reported as truncated gzip data") {
  const auto dir = temp_dir();
  const auto whole = dir / "whole.gz", cut = dir / "cut.gz";
  std::vector<unsigned char> big = idx_bytes(0x803, {100, 28, 28}, 78400);
  for (std::size_t i = 16; i < big.size(); ++i) big[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  write_gz(whole, big);
  auto bytes = read_raw(whole);
  bytes.resize(bytes.size() / 2);
  write_raw(cut, bytes);
  const std::string error = refusal(cut, 0x803);
  CHECK(error.find(cut.string()) != std::string::npos);
  CHECK(error.find("truncated") != std::string::npos);
}

TEST_CASE("a header whose dimensions multiply past 2^64 is refused, not wrapped to a small size") {
  // 2^32 x 2^32 would wrap a 64-bit product to 0: a 16-byte file would then "hold" it all.
  const auto p = gz_file("wraps-64.gz", idx_bytes(0x803, {0xffffffffu, 0xffffffffu, 0xffffffffu}, 0));
  CHECK(refusal(p, 0x803).find(p.string() +
                               ": corrupt: the header's dimensions promise more than 268435456 bytes") !=
        std::string::npos);
}

TEST_CASE("rows x cols that wrap 32 bits (65536 x 65536) are refused before any data is read") {
  const std::string error = refusal(gz_file("wraps-32.gz", idx_bytes(0x803, {1, 65536, 65536}, 100)), 0x803);
  CHECK(error.find("corrupt: the header's dimensions promise more than") != std::string::npos);
  CHECK(error.find("dimension 3 is 65536") != std::string::npos);
}

TEST_CASE("a dimension of 0 is refused: no zero-pixel images, no empty sets") {
  const auto p = gz_file("zero-rows.gz", idx_bytes(0x803, {5, 0, 28}, 0));
  CHECK(refusal(p, 0x803) == p.string() + ": corrupt: dimension 2 of the header is 0");
  const auto q = gz_file("zero-labels.gz", idx_bytes(0x801, {0}, 0));
  CHECK(refusal(q, 0x801) == q.string() + ": corrupt: dimension 1 of the header is 0");
}

TEST_CASE("a header cut off inside its dimensions is reported as truncated, with both sizes") {
  auto bytes = idx_bytes(0x803, {10, 28, 28}, 0);
  bytes.resize(10);
  const auto p = gz_file("short-header.gz", bytes);
  CHECK(refusal(p, 0x803) == p.string() + ": truncated: the header needs 16 bytes, the file holds 10");
}

TEST_CASE("bytes after the promised data are reported as corrupt") {
  const auto p = gz_file("long-payload.gz", idx_bytes(0x801, {4}, 5));
  CHECK(refusal(p, 0x801) ==
        p.string() + ": corrupt: more bytes follow the 4 bytes of data the header promises");
}

TEST_CASE("an uncompressed IDX file reads the same as a gzipped one") {
  const auto p = temp_dir() / "plain-labels";
  write_raw(p, idx_bytes(0x801, {3}, 3));
  std::string error;
  auto idx = read_idx(p.string(), 0x801, &error);
  REQUIRE(idx);
  CHECK(idx->dims == std::vector<std::uint32_t>{3});
  CHECK(idx->data == std::vector<std::uint8_t>{0, 1, 2});
}

TEST_CASE("a large, highly compressible file whose header lies is refused from its header alone") {
  // 64 MiB of zeros gzip to ~64 KB; with a header promising 2^40 bytes, only the header is read.
  const auto p = temp_dir() / "bomb.gz";
  gzFile f = gzopen(p.c_str(), "wb9");
  const auto head = idx_bytes(0x803, {1u << 20, 1u << 10, 1u << 10}, 0);
  gzwrite(f, head.data(), static_cast<unsigned>(head.size()));
  std::vector<unsigned char> zeros(1 << 20, 0);
  for (int i = 0; i < 64; ++i) gzwrite(f, zeros.data(), static_cast<unsigned>(zeros.size()));
  gzclose(f);
  CHECK(refusal(p, 0x803).find("dimension 2 is 1024") != std::string::npos);
}

TEST_CASE("load_fashion_mnist refuses a label file whose count disagrees with the images") {
  const auto dir = temp_dir() / "mismatch";
  fs::create_directories(dir);
  write_gz(dir / "train-images-idx3-ubyte.gz", idx_bytes(0x803, {2, 2, 2}, 8));
  write_gz(dir / "train-labels-idx1-ubyte.gz", idx_bytes(0x801, {3}, 3));
  std::string error;
  CHECK_FALSE(ringlab::load_fashion_mnist(dir.string(), &error));
  CHECK(error.find("holds 3 labels but") != std::string::npos);
  CHECK(error.find("holds 2 images") != std::string::npos);
}

TEST_CASE("load_fashion_mnist reports a missing labels file by name") {
  const auto dir = temp_dir() / "set";
  fs::create_directories(dir);
  write_gz(dir / "train-images-idx3-ubyte.gz", idx_bytes(0x803, {2, 28, 28}, 2 * 784));
  std::string error;
  CHECK_FALSE(ringlab::load_fashion_mnist(dir.string(), &error));
  CHECK(error.find("train-labels-idx1-ubyte.gz") != std::string::npos);
  CHECK(error.find("apt-get install dataset-fashion-mnist") != std::string::npos);
}

TEST_CASE("the synthetic set has Fashion-MNIST's shape and the same numbers every time") {
  auto a = ringlab::synthetic_fashion_mnist(64, 16), b = ringlab::synthetic_fashion_mnist(64, 16);
  CHECK(a.train.count == 64);
  CHECK(a.train.features == 784);
  CHECK(a.test.count == 16);
  CHECK(a.train.images == b.train.images);
  CHECK(a.train.labels == b.train.labels);
}
