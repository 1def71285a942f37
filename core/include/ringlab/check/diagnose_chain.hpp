// What a forward chain's wrong sum says (lesson 02: rank 0 -> 1 -> ... -> last, each adding its
// terms). The last rank's result is compared with sums of the ranks' own contributions: which
// ranks' terms it holds names where the chain broke. One sentence, or "" when the result is
// right or no such sum fits. Unit-tested with data alone: tests/core/test_diagnose_chain.cpp.
#pragma once
#include <string>
#include <vector>

namespace ringlab {

// contribution[r]: the sum of rank r's own terms; result: what the last rank holds.
std::string diagnose_chain(const std::vector<double>& contribution, double result);

}  // namespace ringlab
