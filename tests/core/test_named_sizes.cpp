// name_sizes: the numbers of an error message that the check knows are named, once each, in the
// message's order; numbers it does not know are left alone.
#include <string>

#include "catch.hpp"
#include "ringlab/check/named_sizes.hpp"

using ringlab::name_sizes;

TEST_CASE("each known size in a message is named once, in the message's order") {
  const std::vector<ringlab::NamedSize> known = {
      {235146, "the whole model (Ψ)"}, {117573, "rank 0's chunk"}, {117573, "rank 1's chunk"}};
  CHECK(name_sizes("sgd_momentum: views of 235146 and 117573 elements", known) ==
        " (235146 is the whole model (Ψ); 117573 is rank 0's and rank 1's chunk)");
  CHECK(name_sizes("views of 117573 and 235146, again 117573", known) ==
        " (117573 is rank 0's and rank 1's chunk; 235146 is the whole model (Ψ))");
}

TEST_CASE("unknown numbers say nothing; names without a shared last word are alternatives") {
  CHECK(name_sizes("views of 12 and 13 elements", {{14, "a"}}).empty());
  CHECK(name_sizes("no number here", {{14, "a"}}).empty());
  CHECK(name_sizes("a view of 58786", {{58786, "rank 2's chunk"}, {58786, "this rank's shard"}}) ==
        " (58786 is rank 2's chunk or this rank's shard)");
}

TEST_CASE("two numbers with one name share it, so a long name is said once") {
  const std::vector<ringlab::NamedSize> known = {
      {14697, "a chunk of a shard"}, {14696, "a chunk of a shard"}, {58787, "this rank's chunk"}};
  CHECK(name_sizes("posted for 14697 elements, took 14696, in 58787", known) ==
        " (14697 and 14696 are each a chunk of a shard; 58787 is this rank's chunk)");
}
