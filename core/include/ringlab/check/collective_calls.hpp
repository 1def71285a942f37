// The collectives a step called, against the ones the reference step calls. Wrong values say that
// a step went wrong; the calls often say what it did instead, because each collective does one
// thing to its buffer:
//   allreduce       sums the buffer over the ranks and gives every rank the whole sum
//   reduce_scatter  sums it over the ranks and leaves each rank only its own chunk of the sum
//   allgather       copies each rank's own chunk to every rank, and sums nothing
//   broadcast       copies one rank's buffer to every rank
// An allgather where the allreduce belongs sums nothing; an allreduce where the reduce-scatter
// belongs sends every rank every chunk (sharding lost); an allgather of the velocity mixes the
// ranks' own state. A check names the buffers it knows (the gradient, the parameters, ...), the
// trace gives the calls (trace::scope_calls_since), and compare_calls() says where the two lists
// first part:
//   "the step called allgather(grad, 235146 values); the reference calls allreduce(grad, ...)"
// then the cause, when one difference explains it: a call of another kind on the same buffer,
// one call too many, one missing, or a call on part of the buffer where the reference passes all
// of it. Any other difference is stated as evidence only. A reduce-scatter followed by an
// allgather of the same buffer is an allreduce (its two halves), so that way of writing one is
// never blamed. No MPI: tested with data alone (tests/core/test_collective_calls.cpp).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "ringlab/trace/trace.hpp"

namespace ringlab {

// A buffer the check knows by name, given as where it starts and how many floats it holds.
struct NamedBuffer {
  std::string name;  // "grad", "params", "velocity"
  const float* data = nullptr;
  std::size_t count = 0;
};

// One call the reference step makes: its kind (allreduce, reduce_scatter, allgather, broadcast)
// on the whole of one named buffer.
struct ExpectedCall {
  std::string kind;
  std::string buffer;
};

// "allreduce" for ring_allreduce, ring_allreduce_fast and naive_allreduce; "broadcast" for every
// bcast_*; a kit name otherwise (reduce_scatter, allgather); any other name unchanged.
std::string collective_kind(const std::string& scope_name);

// What compare_calls found: `text` is "" when the calls match the reference's (kinds and whole
// buffers, in order); else one or two sentences: both lists, then the first difference and, when
// it singles one out, its cause (`cause` true). A check that has a cause from the calls leaves
// out its diagnosis of the values: the values only show what the wrong call did, and a relation
// read from them (a division before the sum, say) may point at correct code.
struct CallsFound {
  std::string text;
  bool cause = false;
};
// `step` names who made the calls ("stage 1's step").
CallsFound compare_calls(const std::vector<trace::ScopeCall>& made, const std::vector<ExpectedCall>& want,
                         const std::vector<NamedBuffer>& buffers, const std::string& step);

}  // namespace ringlab
