#include "ringlab/check/collective_calls.hpp"

#include <algorithm>

namespace ringlab {
namespace {

// One call, as the comparison sees it: its kind, and which buffer it was given, whole or not.
struct Call {
  std::string kind;
  std::string buffer;  // a NamedBuffer's name, "" when the call's data is in none of them
  std::size_t offset = 0, count = 0;
  bool whole = false;  // the whole named buffer
  bool operator==(const Call& o) const {
    return kind == o.kind && buffer == o.buffer && whole == o.whole && (whole || (offset == o.offset && count == o.count));
  }
};

Call made_call(const trace::ScopeCall& c, const std::vector<NamedBuffer>& buffers) {
  Call call{collective_kind(c.name), "", 0, static_cast<std::size_t>(c.count), false};
  const auto* p = static_cast<const float*>(c.data);
  for (const NamedBuffer& b : buffers)
    if (p >= b.data && p < b.data + b.count) {
      call.buffer = b.name;
      call.offset = static_cast<std::size_t>(p - b.data);
      call.whole = call.offset == 0 && call.count == b.count;
      break;
    }
  return call;
}

std::size_t count_of(const std::string& buffer, const std::vector<NamedBuffer>& buffers) {
  for (const NamedBuffer& b : buffers)
    if (b.name == buffer) return b.count;
  return 0;
}

// "allgather(params)", "allgather(params[0, 78382) of its 235146)", "allgather(78382 values elsewhere)"
std::string text(const Call& c, const std::vector<NamedBuffer>& buffers) {
  if (c.buffer.empty()) return c.kind + "(" + std::to_string(c.count) + " values in none of the step's buffers)";
  if (c.whole) return c.kind + "(" + c.buffer + ")";
  return c.kind + "(" + c.buffer + "[" + std::to_string(c.offset) + ", " + std::to_string(c.offset + c.count) +
         ") of its " + std::to_string(count_of(c.buffer, buffers)) + ")";
}

std::string list(const std::vector<Call>& calls, const std::vector<NamedBuffer>& buffers) {
  if (calls.empty()) return "no collective";
  std::string s;
  for (std::size_t i = 0; i < calls.size(); ++i) s += (i ? ", " : "") + text(calls[i], buffers);
  return s;
}

// What a kind of call does to its buffer, as a clause: "sums ... and ...".
std::string does(const std::string& kind) {
  if (kind == "allreduce") return "sums the buffer over the ranks and gives every rank the whole sum";
  if (kind == "reduce_scatter") return "sums the buffer over the ranks but leaves each rank only its own chunk of the sum";
  if (kind == "allgather") return "copies each rank's own chunk of the buffer to every rank, and sums nothing";
  if (kind == "broadcast") return "copies one rank's buffer to every rank, and sums nothing";
  return "";
}
std::string with_does(const std::string& call_text, const std::string& kind) {
  const std::string d = does(kind);
  return d.empty() ? call_text : call_text + ", which " + d;
}

bool same(const std::vector<Call>& a, std::size_t i, const std::vector<Call>& b, std::size_t j) {
  return a.size() - i == b.size() - j && std::equal(a.begin() + long(i), a.end(), b.begin() + long(j));
}

// A reduce-scatter then an allgather of the same whole buffer: the allreduce's two halves, merged
// into one allreduce unless the reference itself reduce-scatters (any buffer: lesson 09's step,
// whose two halves are the lesson). A call is known by the buffer it reads, so a reduce-scatter
// of params into grad followed by an allgather of params is no allreduce of params.
std::vector<Call> merge_halves(std::vector<Call> calls, const std::vector<Call>& want) {
  for (std::size_t i = 0; i + 1 < calls.size(); ++i) {
    const Call &a = calls[i], &b = calls[i + 1];
    const bool reference_scatters = std::any_of(want.begin(), want.end(), [&](const Call& w) {
      return w.kind == "reduce_scatter";
    });
    if (a.kind == "reduce_scatter" && b.kind == "allgather" && a.whole && b.whole && a.buffer == b.buffer &&
        !reference_scatters) {
      calls[i].kind = "allreduce";
      calls.erase(calls.begin() + long(i) + 1);
    }
  }
  return calls;
}

}  // namespace

std::string collective_kind(const std::string& scope_name) {
  if (scope_name == "ring_allreduce" || scope_name == "ring_allreduce_fast" || scope_name == "naive_allreduce")
    return "allreduce";
  if (scope_name == "broadcast" || scope_name.rfind("bcast_", 0) == 0) return "broadcast";
  return scope_name;
}

CallsFound compare_calls(const std::vector<trace::ScopeCall>& made_scopes, const std::vector<ExpectedCall>& expected,
                         const std::vector<NamedBuffer>& buffers, const std::string& step) {
  std::vector<Call> want;
  for (const ExpectedCall& e : expected) want.push_back({e.kind, e.buffer, 0, count_of(e.buffer, buffers), true});
  std::vector<Call> made;
  for (const trace::ScopeCall& c : made_scopes) made.push_back(made_call(c, buffers));
  made = merge_halves(std::move(made), want);
  if (made == want) return {};

  std::size_t i = 0;
  while (i < made.size() && i < want.size() && made[i] == want[i]) ++i;
  const std::string evidence =
      step + " called " + list(made, buffers) + "; the reference calls " + list(want, buffers) + ".";
  std::string cause;
  if (i < made.size() && same(made, i + 1, want, i)) {
    const Call& extra = made[i];
    cause = "One call too many: " + with_does(text(extra, buffers), extra.kind) +
            (extra.buffer.empty() ? "" : "; the reference makes no " + extra.kind + " of " + extra.buffer + " there") + ".";
  } else if (i < want.size() && same(made, i, want, i + 1)) {
    cause = "A call is missing: " + with_does(text(want[i], buffers), want[i].kind) + ".";
  } else if (i < made.size() && i < want.size() && same(made, i + 1, want, i + 1)) {
    const Call &got = made[i], &ref = want[i];
    if (got.kind != ref.kind && got.buffer == ref.buffer && got.whole)
      cause = "The call of another kind: " + text(got, buffers) + " " + does(got.kind) + ", where " +
              text(ref, buffers) + " " + does(ref.kind) + ".";
    else if (got.kind == ref.kind && got.buffer == ref.buffer && !got.whole)
      cause = "The " + got.kind + " was given only part of " + ref.buffer + " (" + std::to_string(got.count) +
              " of its " + std::to_string(ref.count) + " values); the reference passes the whole buffer.";
    else if (got.kind == ref.kind && got.whole)
      cause = "The " + got.kind + " was given " + got.buffer + " where the reference gives it " + ref.buffer + ".";
  }
  if (cause.empty()) return {evidence, false};
  return {evidence + " " + cause, true};
}

}  // namespace ringlab
