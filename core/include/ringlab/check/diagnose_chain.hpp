// What a forward chain's wrong sum says (lesson 02: rank 0 -> 1 -> ... -> last, each adding its
// terms). The last rank's result is compared with sums of the ranks' own contributions: which
// ranks' terms it holds names where the chain broke. With every rank's values (diagnose_chain_ranks),
// the first rank or hop that departs from the chain is named instead. One sentence, or "" when the result is
// right or no such sum fits. Unit-tested with data alone: tests/core/test_diagnose_chain.cpp.
#pragma once
#include <string>
#include <vector>

namespace ringlab {

// contribution[r]: the sum of rank r's own terms; result: what the last rank holds.
std::string diagnose_chain(const std::vector<double>& contribution, double result);

// The first departure along the chain, from what every rank reports (the check gathers them):
// each rank r should receive what rank r - 1 returned as its y (0 on rank 0), and return y =
// what it received + its own terms. The first rank or hop where that fails is named, with the
// wrong value's relation to the values there: a hop that carried rank r - 1's own terms alone
// (it sent its terms, not its new sum), or what it received unchanged; a y of 0 (overwritten),
// of its own terms alone (the received sum not added), of what it received (its terms not
// added). "" when every rank and hop holds (then the last rank's result is right too).
// `before`: the ranks' values in the call before (empty for the first): a hop that carried the
// sender's y of that call took a message the call left behind (a send once too often).
struct ChainRank {
  double received = 0;  // what the rank received from rank - 1 (0 on rank 0)
  double own = 0;       // the sum of its own terms
  double y = 0;         // what it returned as its y
};
std::string diagnose_chain_ranks(const std::vector<ChainRank>& ranks, const std::vector<ChainRank>& before = {});

}  // namespace ringlab
