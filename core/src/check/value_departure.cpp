#include "ringlab/check/value_departure.hpp"

#include <cmath>
#include <algorithm>
#include <cstddef>
#include <optional>

#include "ringlab/base/chunks.hpp"
#include "ringlab/check/value_relation.hpp"

namespace ringlab {
namespace {

struct Range {
  std::size_t offset = 0, count = 0;
};

bool same(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(std::fabs(a[i] - b[i]) <= 1e-5 * std::fmax(1.0, std::fabs(b[i])))) return false;
  return true;
}

// The values of sum_k m[k] * input_k over `r`.
std::vector<double> combination(const std::vector<std::vector<double>>& inputs, const std::vector<int>& m, Range r) {
  std::vector<double> v(r.count, 0.0);
  for (std::size_t k = 0; k < m.size(); ++k)
    for (std::size_t i = 0; i < r.count && m[k] != 0; ++i) v[i] += m[k] * inputs[k][r.offset + i];
  return v;
}

// "rank 2's input alone", "the inputs of ranks 1 and 2 summed", "rank 1's input twice and rank
// 2's once", "no input at all (0)".
std::string inputs_text(const std::vector<int>& m) {
  std::vector<int> ranks;
  bool ones = true;
  for (std::size_t k = 0; k < m.size(); ++k)
    if (m[k] != 0) ranks.push_back(static_cast<int>(k)), ones = ones && m[k] == 1;
  if (ranks.empty()) return "no input at all (0)";
  if (ranks.size() == m.size() && ones) return "every rank's input once (the full sum)";
  auto list = [&]() {  // "0, 1 and 2"
    std::string text;
    for (std::size_t i = 0; i < ranks.size(); ++i)
      text += (i == 0 ? "" : i + 1 == ranks.size() ? " and " : ", ") + std::to_string(ranks[i]);
    return text;
  };
  if (ranks.size() == 1 && ones) return "rank " + list() + "'s input alone";
  if (ones) return "the inputs of ranks " + list() + " summed";
  std::string text;  // "rank 0's input twice and rank 1's once"
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const int k = ranks[i], c = m[static_cast<std::size_t>(k)];
    text += i == 0 ? "" : i + 1 == ranks.size() ? " and " : ", ";
    text += "rank " + std::to_string(k) + "'s";
    if (i == 0) text += " input";
    if (c == 1) text += " once";
    else if (c == 2) text += " twice";
    else text += std::string(" ").append(std::to_string(c)).append(" times");
  }
  return text;
}

// The one combination of the inputs, each rank's 0, 1 or 2 times, that `got` is; none when no
// combination or more than one is (a value or two can match several by chance).
std::optional<std::vector<int>> as_inputs(const std::vector<std::vector<double>>& inputs, Range r,
                                          const std::vector<double>& got) {
  const std::size_t n = inputs.size();
  if (n > 6 || r.count == 0) return std::nullopt;
  std::optional<std::vector<int>> found;
  std::vector<int> m(n, 0);
  for (;;) {
    if (same(got, combination(inputs, m, r))) {
      if (found) return std::nullopt;
      found = m;
    }
    std::size_t k = 0;
    while (k < n && m[k] == 2) m[k++] = 0;
    if (k == n) break;
    ++m[k];
  }
  return found;
}

// How a message or result that is a sum of inputs (`got`) differs from the schedule's (`want`),
// as the one possibility it suggests: more than the schedule's (what arrived added where it
// belongs in place of what was there, or added twice), or less (an earlier step's part left
// out). "" when neither holds.
std::string what_differs(const std::vector<int>& got, const std::vector<int>& want) {
  bool more = true, less = true;
  for (std::size_t k = 0; k < got.size(); ++k) more = more && got[k] >= want[k], less = less && got[k] <= want[k];
  if (more) return ": that and more — one possibility is that what arrived was added to what the buffer already "
                   "held, where it belongs in place of it, or added twice";
  if (less) return ": part of it is missing — one possibility is that what arrived at a step before was not added, "
                   "or was sent from a buffer that does not hold it (the input, where the sum is kept in another)";
  return "";
}

// A result that is no sum of the inputs, or nothing at all, said against the right one (`want`,
// not all 0) when every value relates to it alike (value_relation): ": 1/n = 1/4 times that
// everywhere — …" for a buffer scaled at the end; ": 0 everywhere — …" for a buffer never written,
// or scaled by a factor that is 0 (a 1/n in integers). "" when neither holds.
std::string scaled_result(const std::vector<double>& got, const std::vector<double>& want, int n) {
  // Integers (an int32 run) are scaled with truncation: each value within 1 of k times the right one.
  const auto integral = [](const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [](double x) { return x == std::trunc(x); });
  };
  const double rounding = integral(got) && integral(want) ? 1.0 : 0.0;
  std::vector<ValueEvidence> evidence;
  for (std::size_t i = 0; i < got.size(); ++i)
    evidence.push_back({.expected = want[i], .got = got[i], .rounding = rounding});
  if (std::all_of(want.begin(), want.end(), [](double v) { return v == 0; })) return "";
  for (const RelationFound& found : relate(evidence, n)) {
    if (found.relation == Relation::zero)
      return ": 0 everywhere — one possibility is that nothing was written there; another, that it was scaled by a "
             "factor that is 0 (1/n computed in integers is 0 from 2 ranks on)";
    if (found.relation == Relation::factor && !found.k_name.empty() && found.k != 1)
      return ": " + found.k_name + " times that everywhere — one possibility is that the buffer was scaled after its "
             "last step (a collective that sums hands on the sum; dividing it is the caller's)";
  }
  return "";
}

}  // namespace

std::string first_value_departure(const Schedule& reference, const std::vector<trace::Event>& events,
                                  const std::vector<std::vector<double>>& inputs) {
  const int n = reference.ranks;
  if (reference.carries.empty() || static_cast<int>(inputs.size()) != n) return "";
  const std::size_t count = inputs.front().size();
  for (const auto& in : inputs)
    if (in.size() != count) return "";
  auto range = [&](int chunk) {
    if (chunk < 0) return Range{0, count};
    const Chunk c = chunk_of(count, n, chunk);
    return Range{c.offset, c.count};
  };
  auto hole = [&](const std::string& phase) {
    for (const auto& [p, h] : reference.holes)
      if (p == phase) return " That is your " + h + " hole.";
    return std::string();
  };
  // What `got` is, said against what the schedule has there (`want`): as a sum of inputs, else as
  // a message `rank` received before `before_t` (microseconds), else only its first value.
  // The latest message `rank` received before `before_t` that holds exactly `got`; none: nullptr.
  auto received_as = [&](int rank, const std::vector<double>& got, double before_t) -> const trace::Event* {
    for (auto it = events.rbegin(); it != events.rend(); ++it)  // the latest first
      if (it->rank == rank && it->op == trace::Op::recv && it->t1 <= before_t && same(got, it->values)) return &*it;
    return nullptr;
  };
  auto received_text = [&](const trace::Event& e) {
    return "what rank " + std::to_string(e.rank) + " received in " + place_of(reference, e.phase, e.step) +
           " (from rank " + std::to_string(e.peer) + ")";
  };
  auto what_it_holds = [&](int rank, Range r, const std::vector<double>& got, double before_t) {
    if (const auto m = as_inputs(inputs, r, got)) return inputs_text(*m);
    if (const trace::Event* e = received_as(rank, got, before_t)) return received_text(*e) + " — a message of an earlier step";
    return std::string("values that are no sum of the inputs");
  };

  // What the buffer held when the call began (its begin event) against the last message `rank`
  // received into range r before `before_t`: a result that is their sum had what arrived added
  // where it belongs in place of what was there; one that is still the first kept none of it.
  auto held_before = [&](int rank, Range r, const std::vector<double>& got, double before_t) -> std::string {
    const trace::Event *begin = nullptr, *last = nullptr;
    for (const auto& e : events) {
      if (e.rank != rank || e.t1 > before_t) continue;
      if (e.op == trace::Op::begin && e.values.size() == count) begin = &e, last = nullptr;
      else if (e.op == trace::Op::recv && e.values.size() == r.count) last = &e;
    }
    if (!begin || !last) return "";
    std::vector<double> before(begin->values.begin() + static_cast<std::ptrdiff_t>(r.offset),
                               begin->values.begin() + static_cast<std::ptrdiff_t>(r.offset + r.count)),
        sum(r.count);
    for (std::size_t i = 0; i < r.count; ++i) sum[i] = before[i] + last->values[i];
    const std::string arrived = "what arrived from rank " + std::to_string(last->peer) + " in " +
                                place_of(reference, last->phase, last->step);
    if (!same(got, last->values) && same(got, sum) && !same(sum, before))
      return ": that is " + arrived + " plus what the buffer held before the call, element by element — what "
             "arrived was added to the buffer, where it belongs in place of what was there";
    if (!same(got, last->values) && same(got, before))
      return ": that is what the buffer held before the call, unchanged — " + arrived + " did not end up in it "
             "(received into another buffer and not copied, or copied before the message arrived)";
    return "";
  };

  // 1. The messages, in the schedule's order.
  std::size_t send_index = 0;
  for (const auto& t : reference.transfers) {
    if (t.op != trace::Op::send) continue;
    const std::vector<int>& m = reference.carries[send_index++];
    const trace::Event* got = nullptr;
    for (const auto& e : events)
      if (e.rank == t.rank && e.op == trace::Op::send && e.phase == t.phase && e.step == t.step && e.peer == t.peer) {
        got = &e;
        break;
      }
    const Range r = range(t.chunk);
    if (!got || got->values.size() != r.count || r.count == 0) continue;  // (not traced, or another size)
    const std::vector<double> want = combination(inputs, m, r);
    if (same(got->values, want)) continue;
    const std::string chunk = t.chunk >= 0 ? " chunk " + std::to_string(t.chunk) : "";
    std::string text = place_of(reference, t.phase, t.step) + ": rank " + std::to_string(t.rank) + " sent" + chunk +
                       " to rank " + std::to_string(t.peer) + " holding " +
                       what_it_holds(t.rank, r, got->values, got->t0) + ", where " + reference.name + " sends " +
                       inputs_text(m) + " there";
    // What the message lacks or has too much of, when it is a sum of inputs.
    // A sum of inputs that is also a message the sender received, as it arrived: it sent that
    // message on, from where it landed, or never added its own terms to it.
    const auto mine = as_inputs(inputs, r, got->values);
    if (const trace::Event* e = mine ? received_as(t.rank, got->values, got->t0) : nullptr)
      text += ": that is " + received_text(*e) + ", as it arrived — one possibility is that the send reads the "
              "memory that message landed in (a scratch), not the buffer where this rank's sum is; another, that "
              "this rank's own terms were never added to it";
    else if (mine) text += what_differs(*mine, m);
    else text += held_before(t.rank, r, got->values, got->t0);
    return text + "." + hole(t.phase);
  }

  // 2. Every message right: the results, rank by rank (chunk by chunk where the schedule chunks).
  for (int rank = 0; rank < n; ++rank) {
    const trace::Event* end = nullptr;
    for (const auto& e : events)
      if (e.rank == rank && e.op == trace::Op::end) end = &e;
    if (!end || end->values.size() != count) continue;
    for (int c = reference.result_chunked ? 0 : -1; c < (reference.result_chunked ? n : 0); ++c) {
      const Range r = range(c);
      if (r.count == 0) continue;
      const std::vector<double> got(end->values.begin() + static_cast<std::ptrdiff_t>(r.offset),
                                    end->values.begin() + static_cast<std::ptrdiff_t>(r.offset + r.count));
      if (same(got, combination(inputs, reference.result, r))) continue;
      // The place whose receive writes this chunk last: where its final value arrives.
      std::string arrives;
      for (const auto& t : reference.transfers)
        if (t.rank == rank && t.op == trace::Op::recv && (t.chunk == c || t.chunk < 0))
          arrives = place_of(reference, t.phase, t.step);
      // A sum of inputs says how it differs; anything else (an earlier message, or nothing the
      // inputs make) says that what arrived did not end up there.
      const auto mine = as_inputs(inputs, r, got);
      std::string differs = scaled_result(got, combination(inputs, reference.result, r), n);
      if (differs.empty() && mine) differs = what_differs(*mine, reference.result);
      if (differs.empty()) differs = held_before(rank, r, got, end->t0);
      return "every message carried what " + reference.name + " sends, but rank " + std::to_string(rank) +
             " ends with" + (c >= 0 ? " chunk " + std::to_string(c) : std::string(" its buffer")) + " holding " +
             what_it_holds(rank, r, got, end->t0) + ", where it should hold " + inputs_text(reference.result) +
             (arrives.empty() ? std::string() : ", as received in " + arrives) +
             (!differs.empty() ? differs + "."
                               : ": what arrived there did not end up in it — one possibility is that it was copied out "
                                 "of the landing buffer before the message arrived, or not at all.");
    }
  }
  return "";
}

}  // namespace ringlab
