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

// Every rank's values: the first rank or hop that departs from the chain is named.
namespace {
using ringlab::ChainRank;
using ringlab::diagnose_chain_ranks;
// The chain of kParts done right: each rank receives the sum so far and adds its own terms.
std::vector<ChainRank> right_chain() {
  std::vector<ChainRank> ranks;
  double sum = 0;
  for (double own : kParts) {
    ranks.push_back({sum, own, sum + own});
    sum += own;
  }
  return ranks;
}
}  // namespace

TEST_CASE("every rank and hop right: nothing to say") { CHECK(diagnose_chain_ranks(right_chain()).empty()); }

TEST_CASE("a hop that carried the sender's own terms, or what it received, is named with its hole") {
  auto ranks = right_chain();  // rank 1 sends its own terms only: rank 2 gets them, and so on
  ranks[2].received = ranks[1].own;
  ranks[2].y = ranks[2].received + ranks[2].own;
  CHECK(diagnose_chain_ranks(ranks) ==
        "rank 2 received -1 from rank 1, whose y (what it received, 2.5, plus its own terms, -1) is 1.5: rank 1 "
        "sent its own terms alone, not its new sum — send y, the sum so far (your send hole).");
  ranks = right_chain();
  ranks[3].received = ranks[2].received;
  CHECK(has(diagnose_chain_ranks(ranks), "rank 2 sent on what it received, without its own terms"));
  ranks = right_chain();
  ranks[2].received = 0;  // no relation: both holes stay possible
  CHECK(has(diagnose_chain_ranks(ranks),
            "is 1.5: what reached rank 2 is not that y — one possibility is that rank 1 sends another value, what "
            "it received or y before adding its terms (your send hole); another, that rank 1 sends in its receive "
            "hole as well, so that an older message arrives first (your receive hole); another, that rank 2 does "
            "not receive it into y (your receive hole)."));
  ranks = right_chain();
  ranks[2].received = ranks[1].y / 2;  // rank 1 hands on the mean of ranks 0 and 1, y / 2
  ranks[2].y = ranks[2].received + ranks[2].own;
  CHECK(has(diagnose_chain_ranks(ranks),
            "what reached rank 2 is that y divided by 2, the number of ranks whose terms it holds (rank 1's number "
            "+ 1): a mean where the chain hands on their sum — one possibility is that rank 1 sends y scaled so "
            "(your send hole)"));
  ranks = right_chain();
  ranks[2].received = ranks[1].y * 3;  // another factor: named as it is
  ranks[2].y = ranks[2].received + ranks[2].own;
  CHECK(has(diagnose_chain_ranks(ranks), "what reached rank 2 is that y times 3 — one possibility"));
}

TEST_CASE("a rank that returns a wrong y, the last one or not, is the departure") {
  auto ranks = right_chain();
  ranks[1].y = 0;  // handed on, then cleared
  ranks[2].received = 1.5;
  CHECK(diagnose_chain_ranks(ranks) ==
        "rank 1 returned y = 0, where what it received (2.5) plus its own terms (-1) is 1.5: y was set to 0 after "
        "the sum was made (every rank returns its partial sum, handed on or not).");
  ranks = right_chain();
  ranks[3].y = ranks[3].own;
  CHECK(has(diagnose_chain_ranks(ranks), "rank 3 returned y = 0.75, where what it received (5.5) plus its own "
                                         "terms (0.75) is 6.25: y holds its own terms only, not what it received."));
}

TEST_CASE("a rank whose y counts one of its two parts twice is named with the part") {
  auto ranks = right_chain();
  ranks[3].y += ranks[3].received;  // the last rank adds what arrived again
  CHECK(has(diagnose_chain_ranks(ranks), "rank 3 returned y = 11.75, where what it received (5.5) plus its own "
                                         "terms (0.75) is 6.25: y is that sum plus what it received once more"));
  ranks = right_chain();
  ranks[2].y += ranks[2].own;
  ranks[3].received = ranks[2].y;
  ranks[3].y = ranks[3].received + ranks[3].own;
  CHECK(has(diagnose_chain_ranks(ranks), "rank 2 returned y = 9.5, where what it received (1.5) plus its own "
                                         "terms (4) is 5.5: y is that sum plus its own terms once more"));
}

TEST_CASE("a hop that carried the sender's y of the call before: a message left behind") {
  const auto before = right_chain();
  std::vector<ChainRank> now;  // the same chain with other terms; rank 2 takes rank 1's old y
  double sum = 0;
  for (double own : {1.0, 2.0, 3.0, 4.0}) {
    now.push_back({sum, own, sum + own});
    sum += own;
  }
  now[2].received = before[1].y;  // 1.5
  now[2].y = now[2].received + now[2].own;
  const auto text = diagnose_chain_ranks(now, before);
  CHECK(has(text, "rank 2 received 1.5 from rank 1, whose y (what it received, 1, plus its own terms, 2) is 3: 1.5 is "
                  "rank 1's y of the call before — a message that call left behind reached rank 2 first"));
  CHECK(has(text, "one possibility is that rank 1 sends once too often (your send hole); another, that rank 1 "
                  "sends in its receive hole as well (your receive hole); another, that rank 2 receives once too "
                  "rarely (your receive hole)."));
  CHECK_FALSE(has(diagnose_chain_ranks(now), "call before"));  // the first call: nothing to compare with
}

TEST_CASE("a first hop of rank 0's y before its terms reads as a send from rank 0's receive hole, or no receive") {
  auto now = right_chain();
  now[1].received = 0;  // rank 0 sent the 0 it starts from, before adding its terms
  now[1].y = now[1].own;
  const auto text = diagnose_chain_ranks(now);
  CHECK(has(text, "what reached rank 1 is rank 0's y before it added its terms — one possibility is that rank 0 "
                  "sends what it received, or y before adding its terms (your send hole); another, that rank 0 sends "
                  "in its receive hole, before adding them"));
  CHECK(has(text, "another, that rank 1 does not receive it into y (your receive hole)."));
}
