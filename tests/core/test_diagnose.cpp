// The check's diagnosis of an allreduce (check.hpp): each symptom, fed as data, must get the
// sentence that names its cause; right data and unknown patterns get none (no blame without
// evidence). (A wrong value against the right one: test_value_relation.cpp.)
#include "catch.hpp"
#include "ringlab/check/check.hpp"

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("allreduce: an allgather that adds, a missing allgather, nothing exchanged") {
  // 3 ranks, 9 elements (3 per chunk); inputs chosen so that no two sums coincide.
  const std::vector<std::vector<double>> in{{1, 2, 3, 4, 5, 6, 7, 8, 9},
                                            {10, 21, 30, 41, 50, 61, 70, 81, 90},
                                            {100, 203, 300, 404, 500, 605, 700, 806, 900}};
  std::vector<double> total(9);
  for (int i = 0; i < 9; ++i) total[i] = in[0][i] + in[1][i] + in[2][i];
  CHECK(ringlab::diagnose_allreduce(in, total, 1).empty());
  // Rank 0 after the reduce-scatter: chunk 1 finished; chunk 0 its own input; chunk 2 = c0 + c2.
  std::vector<double> no_allgather(9);
  for (int i = 0; i < 9; ++i) no_allgather[i] = i < 3 ? in[0][i] : i < 6 ? total[i] : in[0][i] + in[2][i];
  CHECK(has(ringlab::diagnose_allreduce(in, no_allgather, 0), "exactly one finished chunk"));
  // With an allgather that adds: chunk 0 = a0 + total, chunk 2 = (c0 + c2) + (c2 + total).
  std::vector<double> adds(9);
  for (int i = 0; i < 9; ++i)
    adds[i] = i < 3 ? total[i] + in[0][i] : i < 6 ? total[i] : total[i] + in[0][i] + 2 * in[2][i];
  CHECK(
      has(ringlab::diagnose_allreduce(in, adds, 0), "the allgather adds what arrives instead of copying it"));
  CHECK(has(ringlab::diagnose_allreduce(in, in[2], 2), "its own input: nothing was exchanged"));
  // Off by one: the allgather passes unfinished chunks; only partial sums anywhere.
  std::vector<double> unfinished(9);
  for (int i = 0; i < 9; ++i)
    unfinished[i] = i < 3 ? in[0][i] + in[1][i] : i < 6 ? in[1][i] : in[2][i] + in[0][i];
  CHECK(has(ringlab::diagnose_allreduce(in, unfinished, 0),
            "the allgather passes chunks on before they are finished"));
  const std::vector<double> noise(9, 7.0);
  CHECK(ringlab::diagnose_allreduce(in, noise, 0).empty());
  // Chunks of 1 element say too little: no pattern is claimed.
  const std::vector<std::vector<double>> tiny{{1, 2, 3}, {10, 20, 30}, {100, 200, 300}};
  CHECK(ringlab::diagnose_allreduce(tiny, {1, 222, 303}, 0).empty());
}

TEST_CASE("allreduce: every chunk one rank's input alone, no sum: whose input says where the sum went") {
  const std::vector<std::vector<double>> in{{1, 2, 3, 4, 5, 6, 7, 8, 9},
                                            {10, 21, 30, 41, 50, 61, 70, 81, 90},
                                            {100, 203, 300, 404, 500, 605, 700, 806, 900}};
  // Chunk j holding rank (j + shift)'s input (3 ranks, chunks of 3 elements).
  auto chunks_from = [&](int shift) {
    std::vector<double> result(9);
    for (int i = 0; i < 9; ++i) result[i] = in[(i / 3 + shift + 3) % 3][i];
    return result;
  };
  const std::string nothing_added = "every chunk holds exactly one rank's input and no sum: nothing was added anywhere";
  // A reduce-scatter that receives straight into the chunk: each chunk is what rank j sent first.
  const std::string overwritten = ringlab::diagnose_allreduce(in, chunks_from(0), 0);
  CHECK(has(overwritten, nothing_added));
  CHECK(has(overwritten, "chunk j holds rank j's input, as rank j sent it at step 0"));
  CHECK(has(overwritten, "what arrives is received straight into the chunk where it must be added to it"));
  // One that adds the chunk into the scratch buffer: each chunk is its owner's (rank j - 1's) input.
  const std::string elsewhere = ringlab::diagnose_allreduce(in, chunks_from(-1), 0);
  CHECK(has(elsewhere, "chunk j holds the input of rank j - 1, the rank that owns it after the reduce-scatter"));
  CHECK(has(elsewhere, "One possibility is that the sum goes elsewhere"));
  CHECK_FALSE(has(elsewhere, "received straight into"));
  // Any other rank's input: the evidence does not say which, both are offered.
  CHECK(has(ringlab::diagnose_allreduce(in, chunks_from(1), 0),
            "one possibility is that what arrives replaces the chunk; another, that the sum goes elsewhere"));
}
