// Sizes in an error message, named. "sgd_momentum: views of 235146 and 117573 elements" says two
// views differ; it does not say which is which. The check knows what sizes mean in its exercise
// (the whole model, each rank's chunk), so it can say it:
//   name_sizes("views of 235146 and 117573 elements", {{235146, "the whole model (Ψ)"},
//              {117573, "rank 0's chunk"}, {117573, "rank 1's chunk"}})
//   == " (235146 is the whole model (Ψ); 117573 is rank 0's and rank 1's chunk)"
// Each number of the message that a known size matches is named once, in the order the message
// gives them; numbers nothing matches are left alone (they are not evidence of anything). Several
// names of one size are joined ("rank 0's and rank 1's chunk" when the names share their last
// word). Empty when no number matches. No MPI: tested with strings alone.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ringlab {

struct NamedSize {
  std::size_t size;
  std::string name;
};

namespace detail {
// "rank 0's chunk" + "rank 1's chunk" -> "rank 0's and rank 1's chunk"; otherwise "a or b".
inline std::string join_names(const std::vector<std::string>& names) {
  if (names.size() == 1) return names.front();
  auto last_word = [](const std::string& s) { return s.substr(s.find_last_of(' ') + 1); };
  const std::string tail = last_word(names.front());
  bool shared = true;
  for (const auto& n : names) shared = shared && n.size() > tail.size() && last_word(n) == tail;
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i];
    text += (i == 0 ? "" : i + 1 == names.size() ? (shared ? " and " : " or ") : ", ");
    text += shared ? n.substr(0, n.size() - tail.size() - 1) : n;
  }
  return shared ? text + " " + tail : text;
}
}  // namespace detail

inline std::string name_sizes(const std::string& message, const std::vector<NamedSize>& known) {
  // One entry per name said, with the numbers that have it: "N is NAME", or, where two numbers
  // share one name, "N and M are each NAME" (a long name is said once).
  std::vector<std::pair<std::vector<std::size_t>, std::string>> said;
  std::vector<std::size_t> seen;
  for (std::size_t i = 0; i < message.size();) {
    if (!std::isdigit(static_cast<unsigned char>(message[i]))) { ++i; continue; }
    std::size_t end = i;
    while (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end]))) ++end;
    const std::size_t value = std::stoull(message.substr(i, end - i));
    i = end;
    bool named = false;
    for (std::size_t v : seen) named = named || v == value;
    if (named) continue;
    std::vector<std::string> names;
    for (const auto& k : known)
      if (k.size == value) names.push_back(k.name);
    if (names.empty()) continue;
    seen.push_back(value);
    const std::string name = detail::join_names(names);
    auto same = std::find_if(said.begin(), said.end(), [&](const auto& s) { return s.second == name; });
    if (same != said.end()) same->first.push_back(value);
    else said.push_back({{value}, name});
  }
  if (said.empty()) return "";
  std::string text = " (";
  for (std::size_t i = 0; i < said.size(); ++i) {
    const auto& numbers = said[i].first;
    text += i ? "; " : "";
    for (std::size_t k = 0; k < numbers.size(); ++k)
      text += (k == 0 ? "" : k + 1 == numbers.size() ? " and " : ", ") + std::to_string(numbers[k]);
    text += (numbers.size() == 1 ? " is " : " are each ") + said[i].second;
  }
  return text + ")";
}

}  // namespace ringlab
