// Where the wrong values lie, by rank: right on some ranks (or in some ranks' chunks), wrong on
// the others. Every rank runs the same code on the same kind of data, so a result that is right
// on rank 0 alone says the ranks did not all do the same thing — a condition on comm.rank()
// around a call is the usual way that happens. Lessons 06 (each rank's averaged gradient) and 09
// (each owner's chunk) say it with the same sentence.
#pragma once
#include <string>
#include <vector>

namespace lessons {

// "rank 0", "ranks 1 and 2", "ranks 1, 2 and 3"
inline std::string ranks_text(const std::vector<int>& ranks) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i)
    text += (i == 0 ? "" : i + 1 == ranks.size() ? " and " : ", ") + std::to_string(ranks[i]);
  return text;
}

// `wrong[r]`: rank r's values (`chunks`: the values in rank r's chunk) are wrong. "" when all
// or none are; otherwise the evidence and the one possibility: "right on rank 0, wrong on ranks 1
// and 2: the ranks did not all do the same — one possibility is a condition on comm.rank() …".
// `detail` follows the wrong ranks: " (each wrong value 3 times the right one)"; `call` is the
// call the condition may have kept from the others.
inline std::string only_some_ranks(const std::vector<bool>& wrong, bool chunks = false, const std::string& detail = "",
                                   const std::string& call = "the division") {
  std::vector<int> right_ranks, wrong_ranks;
  for (std::size_t r = 0; r < wrong.size(); ++r) (wrong[r] ? wrong_ranks : right_ranks).push_back(static_cast<int>(r));
  if (right_ranks.empty() || wrong_ranks.empty()) return "";
  auto on = [&](const std::vector<int>& ranks) {
    return chunks ? "in the chunk" + std::string(ranks.size() > 1 ? "s" : "") + " of " + ranks_text(ranks)
                  : "on " + ranks_text(ranks);
  };
  return "right " + on(right_ranks) + ", wrong " + on(wrong_ranks) + detail +
         ": the ranks did not all do the same — one possibility is a condition on comm.rank() that lets only " +
         ranks_text(right_ranks) + " (or only the others) through a call, " + call + " say";
}

}  // namespace lessons
