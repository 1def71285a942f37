// Localising a failed check to its holes (localise.hpp): the verdict line, and the later
// messages with what they say about holes that pass on their own left out.
#include "ringlab/check/localise.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace ringlab::localise {

namespace {

bool fails(const Variant& v) { return v.outcome != Variant::passes; }

// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A character that belongs to a word of a hole's name ("reduce-scatter", "warm-up").
bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; }

// A line cut after each ". " (not "e.g. "): its sentences, each with its full stop and the space
// after it.
std::vector<std::string> sentences(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (auto at = line.find(". "); at != std::string::npos; at = line.find(". ", at + 2)) {
    const std::string before = line.substr(0, at);
    if (before.ends_with("e.g") || before.ends_with("i.e")) continue;  // an abbreviation, not a full stop
    out.push_back(line.substr(start, at + 2 - start));
    start = at + 2;
  }
  if (start < line.size()) out.push_back(line.substr(start));
  return out;
}

// A sentence cut at each ": ", without the separators.
std::vector<std::string> clauses_of(const std::string& sentence) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (auto at = sentence.find(": "); at != std::string::npos; at = sentence.find(": ", start)) {
    out.push_back(sentence.substr(start, at - start));
    start = at + 2;
  }
  out.push_back(sentence.substr(start));
  return out;
}

// A clause that is only a label, as "    diagnosis" in "    diagnosis: ...".
bool is_label(const std::string& clause) {
  const auto word = clause.find_first_not_of(' ');
  return word == std::string::npos || clause.find(' ', word) == std::string::npos;
}

// The spaces a line starts with.
std::string indent_of(const std::string& line) {
  return line.substr(0, std::min(line.size(), line.find_first_not_of(' ')));
}

}  // namespace

std::vector<Variant> parse(const std::string& text, std::string& error) {
  error.clear();
  std::vector<Variant> out;
  std::istringstream in(text);
  int at = 0;
  for (std::string line; std::getline(in, line);) {
    ++at;
    if (line.empty()) continue;
    std::istringstream f(line);
    std::string written, outcome;
    Variant v;
    if (!std::getline(f, v.hole, '\t') || !std::getline(f, written, '\t') || !std::getline(f, outcome)) {
      error = "line " + std::to_string(at) + ": want NAME<TAB>WRITTEN<TAB>OUTCOME, got \"" + line + "\"";
      return {};
    }
    if (written == "same") v.written = holes::Written::same;
    else if (written == "todo") v.written = holes::Written::todo;
    else if (written == "own") v.written = holes::Written::own;
    else error = "line " + std::to_string(at) + ": \"" + written + "\" is not same, todo or own";
    if (outcome == "passes") v.outcome = Variant::passes;
    else if (outcome == "fails") v.outcome = Variant::fails;
    else if (outcome == "hangs") v.outcome = Variant::hangs;
    else if (outcome == "crashes") v.outcome = Variant::crashes;
    else if (outcome == "no-build") v.outcome = Variant::no_build;
    else error = "line " + std::to_string(at) + ": \"" + outcome + "\" is not passes, fails, hangs, crashes or no-build";
    if (!error.empty()) return {};
    out.push_back(v);
  }
  return out;
}

std::vector<std::string> failing(const std::vector<Variant>& variants) {
  std::vector<std::string> out;
  for (const auto& v : variants)
    if (fails(v)) out.push_back(v.hole);
  if (out.empty())
    for (const auto& v : variants) out.push_back(v.hole);
  return out;
}

std::vector<std::string> passing(const std::vector<Variant>& variants) {
  std::vector<std::string> out;
  if (std::none_of(variants.begin(), variants.end(), fails)) return out;
  for (const auto& v : variants)
    if (!fails(v)) out.push_back(v.hole);
  return out;
}

std::string verdict(const std::vector<Variant>& variants) {
  if (variants.size() < 2) return "";
  std::vector<Variant> order = variants;  // the failing holes first: they are what to look at
  std::stable_partition(order.begin(), order.end(), fails);
  std::string out = "which hole: ";
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Variant& v = order[i];
    std::vector<std::string> others;
    for (const auto& o : variants)
      if (o.hole != v.hole) others.push_back(o.hole);
    static const char* const kDoes[] = {"passes", "fails", "hangs", "crashes", "does not compile"};
    out += std::string(i ? "; " : "") + "your " + v.hole + " hole" +
           (v.written == holes::Written::todo ? " (still the TODO)" : "") + " " + kDoes[v.outcome] +
           " with the reference " + listed(others);
  }
  out += ".";
  if (std::none_of(variants.begin(), variants.end(), fails))
    out += " Each passes on its own, so they fail only together: look at what one of them leaves for the other.";
  return out;
}

namespace {
// Where `text` first speaks of the hole `name` (names_hole's rule), or npos.
std::size_t first_named_at(const std::string& text, const std::string& name) {
  if (name.empty()) return std::string::npos;
  const std::string t = lower(text), n = lower(name);
  for (auto at = t.find(n); at != std::string::npos; at = t.find(n, at + 1)) {
    const std::size_t end = at + n.size();
    if ((at > 0 && word_char(t[at - 1])) || (end < t.size() && word_char(t[end]))) continue;
    const std::string before = t.substr(0, at), after = t.substr(end);
    for (const char* word : {"the ", "your "})
      if (before.ends_with(word) && (before.size() == std::string(word).size() ||
                                     !word_char(before[before.size() - std::string(word).size() - 1])))
        return at;
    for (const char* word : {" hole", " phase", " step"})
      if (after.starts_with(word)) return at;
  }
  return std::string::npos;
}
}  // namespace

bool names_hole(const std::string& text, const std::string& name) {
  return first_named_at(text, name) != std::string::npos;
}

namespace {
// A sentence that offers causes in different holes, each tagged with its hole:
//   "EVIDENCE — one possibility is that A (your send hole); another, that B (your receive hole)."
// loses the possibilities in holes that pass; when one is left, the evidence has singled it out.
std::string prune_possibilities(const std::string& sentence, const std::vector<std::string>& cleared) {
  static const std::string kOne = "one possibility is ", kAnother = "; another, ";
  const auto at = sentence.find(kOne);
  if (at == std::string::npos) return sentence;
  std::vector<std::string> kept, ruled_out;
  std::string rest = sentence.substr(at + kOne.size());
  const std::string end = rest.substr(std::min(rest.size(), rest.find_last_not_of(". ") + 1));  // ". "
  rest.resize(rest.size() - end.size());
  for (std::size_t from = 0, next;; from = next + kAnother.size()) {
    next = rest.find(kAnother, from);
    const std::string alternative = rest.substr(from, next == std::string::npos ? next : next - from);
    const auto hole = std::find_if(cleared.begin(), cleared.end(), [&](const std::string& h) {
      return lower(alternative).find("(your " + lower(h) + " hole)") != std::string::npos;
    });
    if (hole == cleared.end()) kept.push_back(alternative);
    else if (std::find(ruled_out.begin(), ruled_out.end(), *hole) == ruled_out.end()) ruled_out.push_back(*hole);
    if (next == std::string::npos) break;
  }
  if (ruled_out.empty() || kept.empty()) return sentence;
  std::string out = sentence.substr(0, at);
  if (kept.size() > 1) {
    out += kOne;
    for (std::size_t i = 0; i < kept.size(); ++i) out += (i ? kAnother : "") + kept[i];
    return out + end;
  }
  std::string cause = kept.front();
  if (cause.starts_with("that ")) cause.erase(0, 5);
  return out + "your " + listed(ruled_out) + " hole" + (ruled_out.size() == 1 ? " passes" : "s pass") +
         " with the reference, which leaves one cause: " + cause + end;
}
}  // namespace

std::vector<std::string> speak_of_failing(const std::vector<std::string>& lines,
                                          const std::vector<Variant>& variants) {
  const auto cleared = passing(variants), suspects = failing(variants);
  if (cleared.empty()) return lines;
  // A clause that begins with a hole ("the allgather passes chunks on … after the reduce-scatter")
  // is about that hole, whatever else it names. A sentence with no such clause blames a passing
  // hole when it names one and no failing one ("values are too big by what the reduce-scatter
  // left — in the allgather, …" does not).
  auto begins_with = [](const std::string& clause, const std::string& hole) {
    const std::string t = lower(clause.substr(std::min(clause.size(), clause.find_first_not_of(' '))));
    const std::size_t at = first_named_at(t, hole);
    return at != std::string::npos && (at == 0 || t.substr(0, at) == "the " || t.substr(0, at) == "your ");
  };
  auto about_cleared = [&](const std::string& clause) {
    return std::any_of(cleared.begin(), cleared.end(), [&](const std::string& h) { return begins_with(clause, h); });
  };
  auto blames_cleared = [&](const std::string& sentence) {
    auto named = [&](const std::string& h) { return names_hole(sentence, h); };
    return std::any_of(cleared.begin(), cleared.end(), named) && std::none_of(suspects.begin(), suspects.end(), named);
  };
  std::vector<std::string> out;
  int left_out = 0;
  std::string indent;
  for (const auto& line : lines) {
    auto parts = sentences(line);
    // A sentence whose possibilities were pruned has had its say on the passing holes ("your
    // average hole passes with the reference, which leaves one cause: …"): it is kept as it is.
    std::vector<bool> pruned(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
      std::string p = prune_possibilities(parts[i], cleared);
      pruned[i] = p != parts[i];
      parts[i] = std::move(p);
    }
    std::string kept;
    for (const auto& s : parts) {
      if (pruned[static_cast<std::size_t>(&s - parts.data())]) {
        kept += s;
        continue;
      }
      // Evidence first, then the cause: "diagnosis: EVIDENCE: CAUSE — ADVICE". The clauses before
      // one that blames a passing hole are evidence and stay; a leading label ("diagnosis") alone
      // is not evidence.
      const auto clauses = clauses_of(s);
      const std::size_t first = clauses.size() > 1 && is_label(clauses[0]) ? 1 : 0;
      std::size_t blamed = clauses.size();
      for (std::size_t c = 0; c < clauses.size() && blamed == clauses.size(); ++c)
        if (about_cleared(clauses[c])) blamed = c;
      if (blamed == clauses.size() && blames_cleared(s)) blamed = 0;
      if (blamed == clauses.size()) {
        kept += s;
        continue;
      }
      if (!left_out++) indent = indent_of(line);
      if (blamed > first) {  // keep the evidence, end the sentence there
        std::string evidence;
        for (std::size_t c = 0; c < blamed; ++c) evidence += (c ? ": " : "") + clauses[c];
        kept += evidence + ". ";
        break;
      }
      if (&s == &parts.front()) break;  // the line's subject: the rest goes with it
    }
    if (kept.empty() && !parts.empty()) continue;
    while (!kept.empty() && kept.back() == ' ') kept.pop_back();
    out.push_back(kept);
  }
  if (left_out)
    out.push_back(indent + "(left out: " + std::to_string(left_out) + " message" + (left_out == 1 ? "" : "s") +
                  " about your " + listed(cleared) + " hole" + (cleared.size() == 1 ? ", which passes" : "s, which pass") +
                  " with the reference for the others)");
  return out;
}

}  // namespace ringlab::localise
