// diagnose_chain (diagnose_chain.hpp): is the result the sum over some ranks only, or with one
// rank's terms missing or counted twice?
#include "ringlab/check/diagnose_chain.hpp"

#include <cmath>
#include <numeric>

namespace ringlab {

std::string diagnose_chain(const std::vector<double>& contribution, double result) {
  const int n = static_cast<int>(contribution.size());
  double scale = 1;
  for (double c : contribution) scale += std::fabs(c);
  auto equal = [&](double a, double b) { return std::fabs(a - b) <= 1e-9 * scale; };
  const double total = std::accumulate(contribution.begin(), contribution.end(), 0.0);
  if (n < 2 || equal(result, total)) return "";
  const std::string last = std::to_string(n - 1);
  if (equal(result, contribution[n - 1]))
    // The evidence does not say where the sum was dropped, by the sender or by the receiver; each
    // possibility names its hole, so that the check's localising can rule one out.
    return "the last rank's result holds only its own terms: what reached it carried none of the other "
           "ranks' terms — one possibility is that each rank sends something other than its new sum (what it "
           "received, or y before adding its terms): send on the new y (your send hole); another, that what "
           "arrives is not added: receive into y before adding your terms (your receive hole).";
  for (int a = 1; a < n - 1; ++a)
    if (equal(result, std::accumulate(contribution.begin() + a, contribution.end(), 0.0)))
      return "the last rank's result holds the terms of ranks " + std::to_string(a) + ".." + last +
             " only: the sum of " + (a == 1 ? std::string("rank 0") : "ranks 0.." + std::to_string(a - 1)) +
             " was lost on its way to rank " + std::to_string(a) + " — check what rank " +
             std::to_string(a - 1) + " sends and what rank " + std::to_string(a) + " adds to.";
  for (int k = 0; k < n; ++k) {
    if (contribution[k] == 0) continue;
    if (equal(result, total - contribution[k]))
      return "rank " + std::to_string(k) + "'s terms are missing from the sum: rank " + std::to_string(k) +
             " passed on what it received without adding its own terms, or was skipped.";
    if (equal(result, total + contribution[k]))
      return "rank " + std::to_string(k) +
             "'s terms are in the sum twice: it added them to a sum that already "
             "held them.";
  }
  return "";
}

}  // namespace ringlab
