// diagnose_chain: each way the forward chain's sum breaks, fed as the ranks' contributions and
// the last rank's result, gets the sentence that names where; right sums and others get none.
#include "catch.hpp"
#include "ringlab/check/diagnose_chain.hpp"

using ringlab::diagnose_chain;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
const std::vector<double> kParts{2.5, -1.0, 4.0, 0.75};  // ranks 0..3; total 6.25
}  // namespace

TEST_CASE("the right sum has no diagnosis") { CHECK(diagnose_chain(kParts, 6.25).empty()); }

TEST_CASE("only the last rank's own terms: dropped by the sender or the receiver, both offered") {
  const auto text = diagnose_chain(kParts, 0.75);
  CHECK(has(text, "the last rank's result holds only its own terms"));
  CHECK(has(text, "one possibility is that each rank sends something other than its new sum"));
  CHECK(has(text, "send on the new y"));
  CHECK(has(text, "another, that what arrives is not added: receive into y before adding your terms"));
}

TEST_CASE("the terms of the later ranks only: the sum was lost on the way") {
  CHECK(diagnose_chain(kParts, 3.75 /* -1 + 4 + 0.75 */) ==
        "the last rank's result holds the terms of ranks 1..3 only: the sum of rank 0 was lost on its way to "
        "rank 1 — check what rank 0 sends and what rank 1 adds to.");
  CHECK(has(diagnose_chain(kParts, 4.75), "the terms of ranks 2..3 only: the sum of ranks 0..1 was lost"));
}

TEST_CASE("one rank's terms missing or counted twice") {
  CHECK(has(diagnose_chain(kParts, 6.25 - 4.0), "rank 2's terms are missing from the sum"));
  CHECK(has(diagnose_chain(kParts, 6.25 + 2.5), "rank 0's terms are in the sum twice"));
}

TEST_CASE("a sum no pattern explains gets no claim") { CHECK(diagnose_chain(kParts, 100.0).empty()); }

TEST_CASE("the first ranks' terms only: what the later ranks added was lost, two readings offered") {
  const auto text = diagnose_chain(kParts, 2.5);  // rank 0's terms alone reach the end
  CHECK(has(text, "holds rank 0's terms only: ranks 1..3' own terms are missing, and rank 0's are there"));
  CHECK(has(text, "one possibility is that what arrived replaced it (a receive after the rank adds its terms"));
  CHECK(has(text, "another, that each passed on what it received without adding its own terms"));
  CHECK(has(diagnose_chain(kParts, 1.5), "holds ranks 0..1' terms only: ranks 2..3' own terms are missing"));
  CHECK(has(diagnose_chain({2.5, -1.0}, 2.5), "rank 1's own terms are missing"));
}
