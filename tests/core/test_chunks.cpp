// chunk_of splits `count` elements into `parts` chunks: sizes sum to count, offsets follow
// each other without gaps, and the first count % parts chunks are one element larger.
#include <stdexcept>

#include "catch.hpp"
#include "ringlab/base/chunks.hpp"
#include "ringlab/comm/collectives.hpp"  // owned_chunk: chunk_of for a rank

using ringlab::chunk_of;

TEST_CASE("chunks cover every element once, in order, the first count % parts one larger") {
  const std::size_t counts[] = {0, 1, 2, 3, 5, 7, 8, 10, 63, 64, 65, 1000, 1000003, 1u << 20, (1u << 20) + 1};
  for (std::size_t count : counts) {
    for (int parts = 1; parts <= 17; ++parts) {
      INFO("count " << count << ", parts " << parts);
      std::size_t next_offset = 0, total = 0;
      const std::size_t p = static_cast<std::size_t>(parts);
      for (int i = 0; i < parts; ++i) {
        const auto c = chunk_of(count, parts, i);
        CHECK(c.offset == next_offset);
        const std::size_t expected = count / p + (static_cast<std::size_t>(i) < count % p ? 1 : 0);
        CHECK(c.count == expected);
        next_offset = c.offset + c.count;
        total += c.count;
      }
      CHECK(total == count);
      CHECK(next_offset == count);
    }
  }
}

TEST_CASE("chunk sizes differ by at most one element") {
  for (std::size_t count : {0u, 9u, 10u, 11u, 1000003u})
    for (int parts : {1, 2, 3, 4, 5, 7, 64}) {
      std::size_t lo = count, hi = 0;
      for (int i = 0; i < parts; ++i) {
        lo = std::min(lo, chunk_of(count, parts, i).count);
        hi = std::max(hi, chunk_of(count, parts, i).count);
      }
      CHECK(hi - lo <= 1);
    }
}

TEST_CASE("the worked example in chunks.hpp (10 in 4), and empty chunks at the end (2 in 5, 0 in 3)") {
  struct Case {
    std::size_t count;
    int parts, i;
    std::size_t offset, size;
  };
  const Case cases[] = {{10, 4, 0, 0, 3}, {10, 4, 1, 3, 3}, {10, 4, 2, 6, 2},
                        {10, 4, 3, 8, 2}, {2, 5, 0, 0, 1},  {2, 5, 1, 1, 1},
                        {2, 5, 2, 2, 0},  {2, 5, 4, 2, 0},  {0, 3, 2, 0, 0}};
  for (const Case& c : cases) {
    INFO("chunk " << c.i << " of " << c.count << " elements in " << c.parts);
    CHECK(chunk_of(c.count, c.parts, c.i).offset == c.offset);
    CHECK(chunk_of(c.count, c.parts, c.i).count == c.size);
  }
}

TEST_CASE("a chunk index outside 0..parts-1 or fewer than one part is refused") {
  CHECK_THROWS_AS(chunk_of(10, 0, 0), std::invalid_argument);
  CHECK_THROWS_AS(chunk_of(10, 4, 4), std::out_of_range);
  CHECK_THROWS_AS(chunk_of(10, 4, -1), std::out_of_range);
  // The message gives the arguments: which one is wrong is what the caller needs.
  CHECK_THROWS_WITH(chunk_of(10, 1, 2), "chunk_of(count = 10, parts = 1, i = 2): the chunk index i must be in [0, parts)");
  CHECK_THROWS_WITH(chunk_of(10, 0, 2), "chunk_of(count = 10, parts = 0, i = 2): parts must be >= 1");
}

TEST_CASE("owned_chunk refuses a rank outside [0, ranks) in its own words (the two swapped)") {
  CHECK_THROWS_WITH(ringlab::owned_chunk(12, 0, 2),
                    "owned_chunk(count = 12, ranks = 0, rank = 2): rank must be in [0, ranks) — ranks is the number "
                    "of ranks (comm.size()), rank this rank's number (comm.rank())");
  CHECK_THROWS_AS(ringlab::owned_chunk(12, 1, 2), std::out_of_range);
  CHECK(ringlab::owned_chunk(12, 2, 1).offset == 6);
}
