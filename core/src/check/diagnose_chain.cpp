// diagnose_chain (diagnose_chain.hpp): is the result the sum over some ranks only, or with one
// rank's terms missing or counted twice?
#include "ringlab/check/diagnose_chain.hpp"

#include <cmath>
#include <cstdio>
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
  // The first ranks' terms only (0..a): every rank after a lost what it had added. What arrived
  // replacing what a rank had added (a receive after its own terms overwrites y) and a rank handing
  // on what it received unchanged both leave this; the evidence does not tell them apart.
  for (int a = 0; a < n - 1; ++a)
    if (equal(result, std::accumulate(contribution.begin(), contribution.begin() + a + 1, 0.0))) {
      const std::string kept = a == 0 ? "rank 0's" : "ranks 0.." + std::to_string(a) + "'";
      const std::string lost = a + 1 == n - 1 ? "rank " + last + "'s" : "ranks " + std::to_string(a + 1) + ".." + last + "'";
      return "the last rank's result holds " + kept + " terms only: " + lost + " own terms are missing, and " + kept +
             " are there — what those ranks added was lost after they added it: one possibility is that what "
             "arrived replaced it (a receive after the rank adds its terms overwrites y: receive first, then "
             "add); another, that each passed on what it received without adding its own terms.";
    }
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

std::string diagnose_chain_ranks(const std::vector<ChainRank>& ranks, const std::vector<ChainRank>& before_call) {
  double scale = 1;
  for (const ChainRank& r : ranks) scale += std::fabs(r.received) + std::fabs(r.own) + std::fabs(r.y);
  auto equal = [&](double a, double b) { return std::fabs(a - b) <= 1e-9 * scale; };
  auto num = [](double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return std::string(text);
  };
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const ChainRank& c = ranks[r];
    const std::string me = "rank " + std::to_string(r);
    if (r > 0) {  // the hop from rank r - 1
      const ChainRank& before = ranks[r - 1];
      const double sent = before.y;
      if (!equal(c.received, sent)) {
        const std::string from = "rank " + std::to_string(r - 1);
        std::string text = me + " received " + num(c.received) + " from " + from + ", whose y (what it received, " +
                           num(before.received) + ", plus its own terms, " + num(before.own) + ") is " + num(sent);
        if (equal(c.received, before.own) && !equal(before.own, sent))
          return text + ": " + from + " sent its own terms alone, not its new sum — send y, the sum so far (your "
                                      "send hole).";
        if (r > 1 && equal(c.received, before.received) && !equal(before.received, sent))  // (rank 0 receives nothing)
          return text + ": " + from + " sent on what it received, without its own terms — send y after adding "
                                      "them (your send hole).";
        // Rank 0's y before its terms (the 0 it starts from): rank 0 sent before adding them, from
        // its send hole or from its receive hole, which runs on rank 0 too (where it must only start
        // the chain); or rank 1's y never took what arrived.
        if (r == 1 && equal(c.received, before.received) && !equal(before.received, sent))
          return text + ": what reached " + me + " is " + from + "'s y before it added its terms — one possibility "
                 "is that " + from + " sends what it received, or y before adding its terms (your send hole); "
                 "another, that " + from + " sends in its receive hole, before adding them, where rank 0, which "
                 "receives nothing, only starts the chain (your receive hole); another, that " + me + " does not "
                 "receive it into y (your receive hole).";
        // The sender's y of the call before: a message that call left unreceived was taken first.
        // The extra send may be in either hole: the receive hole runs on the sender too.
        if (before_call.size() == ranks.size() && equal(c.received, before_call[r - 1].y) &&
            !equal(before_call[r - 1].y, sent))
          return text + ": " + num(c.received) + " is " + from + "'s y of the call before — a message that call "
                 "left behind reached " + me + " first, and each receive since takes the one before its own — one "
                 "possibility is that " + from + " sends once too often (your send hole); another, that " + from +
                 " sends in its receive hole as well (your receive hole); another, that " + me +
                 " receives once too rarely (your receive hole).";
        // What arrived is that y times a number: y was scaled on the way (1 / r: the mean of the r
        // ranks whose terms it holds, where the chain hands on their sum).
        if (!equal(sent, 0) && !equal(c.received, 0)) {
          const double k = c.received / sent;
          auto is = [&](double want) { return std::fabs(k - want) <= 1e-6 * std::fabs(want); };
          const std::string n = std::to_string(ranks.size()), rr = std::to_string(r);
          const std::string scaled =
              is(1.0 / double(r)) && r > 1
                  ? "that y divided by " + rr + ", the number of ranks whose terms it holds (" + from +
                        "'s number + 1): a mean where the chain hands on their sum"
              : is(1.0 / double(ranks.size())) ? "that y divided by the number of ranks, " + n
              : is(-1) ? "that y with its sign turned"
                       : "that y times " + num(k);
          return text + ": what reached " + me + " is " + scaled + " — one possibility is that " + from +
                 " sends y scaled so (your send hole); another, that " + me + " scales what it receives (your "
                 "receive hole).";
        }
        return text + ": what reached " + me + " is not that y — one possibility is that " + from +
               " sends another value, what it received or y before adding its terms (your send hole); another, "
               "that " + from + " sends in its receive hole as well, so that an older message arrives first (your "
               "receive hole); another, that " + me + " does not receive it into y (your receive hole).";
      }
    }
    const double want = c.received + c.own;
    if (!equal(c.y, want)) {
      std::string text = me + " returned y = " + num(c.y) + ", where what it received (" + num(c.received) +
                         ") plus its own terms (" + num(c.own) + ") is " + num(want);
      if (equal(c.y, 0))
        return text + ": y was set to 0 after the sum was made (every rank returns its partial sum, handed on "
                      "or not).";
      if (equal(c.y, c.own) && !equal(c.received, 0))
        return text + ": y holds its own terms only, not what it received.";
      if (equal(c.y, c.received) && !equal(c.own, 0))
        return text + ": y holds what it received only, not its own terms.";
      // One term twice: y is the right sum plus one of its two parts. The receive already put what
      // arrived in y, so adding it again counts it twice; adding the own terms again does the same.
      // (The text names no hole: which hole did it is the localising's to say.)
      if (!equal(c.received, 0) && equal(c.y, want + c.received))
        return text + ": y is that sum plus what it received once more — what arrived is counted twice: "
                      "it is in y from the start, so adding it to y again counts it a second time.";
      if (!equal(c.own, 0) && equal(c.y, want + c.own))
        return text + ": y is that sum plus its own terms once more — its own terms are counted twice.";
      return text + ".";
    }
  }
  return "";
}

}  // namespace ringlab
