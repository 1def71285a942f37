// Live streaming to the visualizer: `--viz HOST:PORT` (or RINGLAB_VIZ=HOST:PORT) makes each
// rank open one TCP connection to a running `ringlab-viz --listen` and send the trace header
// (with its rank added) and then every event as a JSON line, as it is recorded
// (docs/trace-format.md). It is a trace::add_sink, like the trace file.
//
// The visualizer is optional: when it cannot be reached the run goes on without it, and
// Runtime prints one warning for the whole run.
#pragma once
#include <string>

namespace ringlab::viz_stream {

// Whether `address` has the HOST:PORT form (a one-line reason in *error when not).
bool valid_address(const std::string& address, std::string* error);
// Connects (waiting at most about a second) and, on success, adds the sink. False with a
// reason when the visualizer is not there; nothing is streamed then.
bool connect(const std::string& address, int rank, int ranks, const std::string& program,
             const std::string& args, std::string* error);

}  // namespace ringlab::viz_stream
