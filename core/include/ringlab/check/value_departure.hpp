// The first message of a run that carries the wrong values. The schedule says which messages a
// collective sends (schedule_diagnosis.hpp) and what each one carries: the ring's reduce-scatter
// step 1 has rank 2 send its own input plus rank 1's. A run whose messages all go where the
// schedule says can still carry the wrong values, and the final buffer says little about where
// they went wrong. The trace records what every message held (for small buffers, up to
// trace::kMaxTracedValues elements), so the first message, in the schedule's order, that carries
// something else is the place, and what it carries says how:
//   "reduce-scatter step 1: rank 2 sent chunk 1 holding rank 2's input alone, where the ring
//    sends the inputs of ranks 1 and 2 summed"
// A value that is no sum of inputs is looked for among the messages the rank received before
// ("what rank 0 received in reduce-scatter step 0": a message of an earlier step). When every
// message is right, each rank's result is compared the same way, chunk by chunk.
// Evidence first: a cause is offered only as "one possibility". Unit-tested without MPI:
// tests/core/test_value_departure.cpp.
#pragma once
#include <string>
#include <vector>

#include "ringlab/check/schedule_diagnosis.hpp"
#include "ringlab/trace/trace.hpp"

namespace ringlab {

// `inputs[k]`: rank k's input (every rank's, the same length). "" when every traced message and
// result holds what the schedule says, when nothing was traced with values, or when the
// schedule says nothing of values (Schedule::carries empty).
std::string first_value_departure(const Schedule& reference, const std::vector<trace::Event>& events,
                                  const std::vector<std::vector<double>>& inputs);

}  // namespace ringlab
