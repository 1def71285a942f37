// compare_calls: the collectives a step made against the reference's, with data alone (no MPI):
// the calls are trace::ScopeCall records as the trace keeps them.
#include <string>
#include <vector>

#include "catch.hpp"
#include "ringlab/check/collective_calls.hpp"

using ringlab::compare_calls;
using ringlab::trace::ScopeCall;

namespace {
// Three buffers as a sharded step has them on 3 ranks: the whole gradient and parameters, and
// this rank's shard of the velocity.
std::vector<float> grad(12), params(12), velocity(4);
const std::vector<ringlab::NamedBuffer> buffers = {
    {"grad", grad.data(), grad.size()}, {"params", params.data(), params.size()}, {"velocity", velocity.data(), 4}};
ScopeCall call(const char* name, const std::vector<float>& b, std::size_t offset = 0, std::size_t count = 0) {
  return {0, name, b.data() + offset, count ? count : b.size()};
}
const std::vector<ringlab::ExpectedCall> sharded = {{"reduce_scatter", "grad"}, {"allgather", "params"}};
const std::vector<ringlab::ExpectedCall> averaged = {{"allreduce", "grad"}};
}  // namespace

TEST_CASE("the reference's calls, or an allreduce written as its two halves, say nothing") {
  CHECK(compare_calls({call("reduce_scatter", grad), call("allgather", params)}, sharded, buffers, "s").text.empty());
  CHECK(compare_calls({call("ring_allreduce_fast", grad)}, averaged, buffers, "s").text.empty());
  CHECK(compare_calls({call("ring_allreduce", grad)}, averaged, buffers, "s").text.empty());
  CHECK(compare_calls({call("reduce_scatter", grad), call("allgather", grad)}, averaged, buffers, "s").text.empty());
}

TEST_CASE("a call of another kind on the same buffer is named with what each kind does") {
  const std::string text = compare_calls({call("allgather", grad)}, averaged, buffers, "the step").text;
  CHECK(text ==
        "the step called allgather(grad); the reference calls allreduce(grad). The call of another kind: "
        "allgather(grad) copies each rank's own chunk of the buffer to every rank, and sums nothing, where "
        "allreduce(grad) sums the buffer over the ranks and gives every rank the whole sum.");
  // The allreduce where the reduce-scatter belongs (sharding lost): the halves are not merged
  // when the reference reduce-scatters that buffer itself.
  CHECK(compare_calls({call("ring_allreduce_fast", grad), call("allgather", params)}, sharded, buffers, "s").text
            .find("The call of another kind: allreduce(grad) sums the buffer over the ranks and gives every rank "
                  "the whole sum, where reduce_scatter(grad) sums") != std::string::npos);
}

TEST_CASE("the two halves are not merged where the reference makes them itself") {
  // Lesson 09's step reduce-scatters grad: a reduce-scatter that reads params, then the allgather of
  // params, is that, not an allreduce of params (the call is known by the buffer it reads).
  const std::string text =
      compare_calls({call("reduce_scatter", params), call("allgather", params)}, sharded, buffers, "s").text;
  CHECK(text.find("s called reduce_scatter(params), allgather(params); the reference calls reduce_scatter(grad), "
                  "allgather(params).") == 0);
  CHECK(text.find("allreduce") == std::string::npos);
}

TEST_CASE("one call too many, and one missing") {
  const std::string extra = compare_calls(
      {call("reduce_scatter", grad), call("allgather", params), call("allgather", velocity)}, sharded, buffers, "s").text;
  CHECK(extra.find("s called reduce_scatter(grad), allgather(params), allgather(velocity); the reference calls "
                   "reduce_scatter(grad), allgather(params). One call too many: allgather(velocity), which copies "
                   "each rank's own chunk") == 0);
  CHECK(extra.find("the reference makes no allgather of velocity there.") != std::string::npos);
  CHECK(compare_calls({call("ring_allreduce", grad), call("ring_allreduce", grad)}, averaged, buffers, "s").text
            .find("One call too many: allreduce(grad)") != std::string::npos);
  CHECK(compare_calls({call("reduce_scatter", grad)}, sharded, buffers, "s").text ==
        "s called reduce_scatter(grad); the reference calls reduce_scatter(grad), allgather(params). A call is "
        "missing: allgather(params), which copies each rank's own chunk of the buffer to every rank, and sums "
        "nothing.");
  CHECK(compare_calls({}, averaged, buffers, "s").text.find("s called no collective;") == 0);
}

TEST_CASE("a cause is marked only where one difference singles it out") {
  CHECK(compare_calls({call("allgather", grad)}, averaged, buffers, "s").cause);
  CHECK_FALSE(compare_calls({call("ring_allreduce", grad)}, averaged, buffers, "s").cause);
  const std::vector<float> elsewhere(5);
  CHECK_FALSE(compare_calls({call("allgather", elsewhere), call("broadcast", grad)}, sharded, buffers, "s").cause);
}

TEST_CASE("part of the buffer, another buffer, or a buffer the check does not know") {
  CHECK(compare_calls({call("reduce_scatter", grad), call("allgather", params, 4, 4)}, sharded, buffers, "s").text
            .find("allgather(params[4, 8) of its 12); the reference calls reduce_scatter(grad), allgather(params). "
                  "The allgather was given only part of params (4 of its 12 values)") != std::string::npos);
  CHECK(compare_calls({call("reduce_scatter", grad), call("allgather", grad)}, sharded, buffers, "s").text
            .find("The allgather was given grad where the reference gives it params.") != std::string::npos);
  // Evidence only: two differences, no single cause.
  const std::vector<float> elsewhere(5);
  CHECK(compare_calls({call("allgather", elsewhere), call("broadcast", grad)}, sharded, buffers, "s").text ==
        "s called allgather(5 values in none of the step's buffers), broadcast(grad); the reference calls "
        "reduce_scatter(grad), allgather(params).");
}
