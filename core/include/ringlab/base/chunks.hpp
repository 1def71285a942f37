// Splitting `count` elements into `parts` chunks, as every ring and pipeline in the kit does.
// When count is not divisible by parts, the first count % parts chunks get one extra element:
//   count = 10, parts = 4  ->  sizes 3 3 2 2, offsets 0 3 6 8
// Chunks may be empty (count < parts); every algorithm must still send them (zero bytes) so
// that all ranks take the same number of steps.
#pragma once
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace ringlab {

struct Chunk {
  std::size_t offset = 0;
  std::size_t count = 0;
};

// Chunk i of `count` elements split into `parts` pieces. 0 <= i < parts, parts >= 1. A call
// outside that says its arguments: which one is wrong is what the caller needs to see (two
// arguments swapped show as parts = the rank and i = the number of ranks).
inline Chunk chunk_of(std::size_t count, int parts, int i) {
  const auto call = [&] {
    return "chunk_of(count = " + std::to_string(count) + ", parts = " + std::to_string(parts) +
           ", i = " + std::to_string(i) + "): ";
  };
  if (parts < 1) throw std::invalid_argument(call() + "parts must be >= 1");
  if (i < 0 || i >= parts) throw std::out_of_range(call() + "the chunk index i must be in [0, parts)");
  const std::size_t p = static_cast<std::size_t>(parts), k = static_cast<std::size_t>(i);
  const std::size_t base = count / p, extra = count % p;
  return Chunk{k * base + std::min(k, extra), base + (k < extra ? 1 : 0)};
}

}  // namespace ringlab
