// Checkpoints for lesson 06: the model and the optimizer state, saved so that a stopped run can
// go on exactly where it was. "Exactly" needs everything the next step depends on: parameters,
// momentum buffers, and the position in training (epoch and step: the data order and the
// learning-rate schedule follow from them).
//
// Saving is atomic: write FILE.tmp, fsync it, then rename it over FILE. rename() replaces the
// old file in one go, so a crash mid-write leaves the previous checkpoint intact.
//
// File layout (little-endian, as written by this machine):
//   "RLCKPT01" | u64 parameter count | i64 epoch | i64 step | params (f32) | velocity (f32) | u64 FNV-1a of
//   all before
#pragma once
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "ringlab/base/output_path.hpp"

namespace lessons {

struct TrainingState {
  std::vector<float> params, velocity;
  long long epoch = 0;  // epochs completed
  long long step = 0;   // optimizer steps taken
};

inline constexpr char kCheckpointMagic[8] = {'R', 'L', 'C', 'K', 'P', 'T', '0', '1'};

inline std::vector<unsigned char> encode_checkpoint(const TrainingState& s) {
  std::vector<unsigned char> out;
  auto put = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    out.insert(out.end(), b, b + n);
  };
  const std::uint64_t count = s.params.size();
  put(kCheckpointMagic, 8);
  put(&count, 8);
  put(&s.epoch, 8);
  put(&s.step, 8);
  put(s.params.data(), count * sizeof(float));
  put(s.velocity.data(), count * sizeof(float));
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : out) h = (h ^ c) * 1099511628211ull;
  put(&h, 8);
  return out;
}

// Writes `s` to `path` atomically. False, with a one-line reason, when it cannot.
inline bool save_checkpoint(const std::string& path, const TrainingState& s, std::string* error) {
  auto refuse = [&](const std::string& why) {
    *error = "--checkpoint " + path + ": " + why;
    return false;
  };
  const auto bytes = encode_checkpoint(s);
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return refuse("cannot write " + tmp + ": " + std::strerror(errno));
  // Fault injection for tests/lesson06/killed_during_checkpoint.sh: RINGLAB_KILL_IN_CHECKPOINT=E
  // kills this process (SIGKILL, like the OOM killer) halfway through writing epoch E's file.
  const char* kill_epoch = std::getenv("RINGLAB_KILL_IN_CHECKPOINT");
  const std::size_t kill_at =
      kill_epoch && std::atoll(kill_epoch) == s.epoch ? bytes.size() / 2 : bytes.size() + 1;
  std::size_t done = 0;
  while (done < bytes.size()) {
    if (done >= kill_at) std::raise(SIGKILL);
    const ssize_t n = ::write(fd, bytes.data() + done, std::min(bytes.size(), kill_at) - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const bool ok = done == bytes.size() && ::fsync(fd) == 0;  // on disk before it gets the real name
  const std::string why = std::strerror(errno);
  ::close(fd);
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = ok ? std::strerror(errno) : why;
    std::remove(tmp.c_str());
    return refuse("writing failed: " + reason);
  }
  // Make the rename itself durable: fsync the folder that holds the file.
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

// Whether `path` can be written, checked before training starts (not after the first epoch):
// not a folder, and `path`.tmp can be created (then removed); an existing checkpoint stays.
inline bool checkpoint_writable(const std::string& path, std::string* error) {
  std::string why;
  if (ringlab::output_file_writable(path, &why)) return true;
  *error = "--checkpoint " + path + ": cannot write: " + why;
  return false;
}

// Reads a checkpoint written by save_checkpoint for a model of `count` parameters.
inline std::optional<TrainingState> load_checkpoint(const std::string& path, std::size_t count,
                                                    std::string* error) {
  auto refuse = [&](const std::string& why) {
    *error = "--resume " + path + ": " + why;
    return std::nullopt;
  };
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return refuse(std::strerror(errno));
  std::vector<unsigned char> bytes;
  unsigned char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
  std::fclose(f);
  const std::size_t expected = 8 + 8 + 8 + 8 + 2 * count * sizeof(float) + 8;
  if (bytes.size() < 16 || std::memcmp(bytes.data(), kCheckpointMagic, 8) != 0)
    return refuse("not a ringlab checkpoint (bad magic)");
  std::uint64_t stored_count;
  std::memcpy(&stored_count, bytes.data() + 8, 8);
  if (stored_count != count)
    return refuse("holds " + std::to_string(stored_count) + " parameters, this model has " +
                  std::to_string(count));
  if (bytes.size() != expected)
    return refuse("truncated or corrupt: " + std::to_string(bytes.size()) + " bytes, expected " +
                  std::to_string(expected));
  TrainingState s;
  s.params.resize(count);
  s.velocity.resize(count);
  const unsigned char* p = bytes.data() + 16;
  std::memcpy(&s.epoch, p, 8);
  std::memcpy(&s.step, p + 8, 8);
  std::memcpy(s.params.data(), p + 16, count * sizeof(float));
  std::memcpy(s.velocity.data(), p + 16 + count * sizeof(float), count * sizeof(float));
  if (encode_checkpoint(s) != bytes) return refuse("corrupt (checksum mismatch)");
  return s;
}

}  // namespace lessons
