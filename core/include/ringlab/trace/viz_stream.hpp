// Live streaming to the visualizer. Each rank opens one connection to a running
// `ringlab-viz --listen` and sends the trace header (with its rank added) and then every event
// as a JSON line, as it is recorded (docs/trace-format.md). It is a trace::add_sink, like the
// trace file.
//
// Where to: on a shared login node every attendee runs a visualizer, so the default is a
// Unix-domain socket in a directory only this user can enter (default_socket_path), which
// nobody else can connect to or listen on:
//   --viz                 (or --viz auto, RINGLAB_VIZ=auto)   the default socket
//   --viz unix:PATH       another socket
//   --viz HOST:PORT       TCP (a cluster streaming to a laptop through an ssh tunnel); needs the
//                         token the visualizer printed: --viz-token T or RINGLAB_VIZ_TOKEN=T
//
// The visualizer is optional: when it cannot be reached the run goes on without it, and
// Runtime prints one warning for the whole run.
#pragma once
#include <string>

namespace ringlab::viz_stream {

// The default socket: $XDG_RUNTIME_DIR/ringlab-viz.sock when that directory is this user's
// and private, else /tmp/ringlab-UID/viz.sock. With `create` the /tmp directory is made
// (mode 0700). Empty, with a one-line reason, when the directory exists but is not private
// (someone else's, or readable by others): nothing is streamed through a directory we do not own.
std::string default_socket_path(bool create, std::string* error);

struct Address {
  bool tcp = false;
  std::string path;        // unix socket
  std::string host, port;  // tcp
  std::string text() const { return tcp ? host + ":" + port : "unix:" + path; }
};
// "auto", "unix:PATH" or "HOST:PORT" -> Address (a one-line reason in *error when not).
bool parse_address(const std::string& text, Address& out, std::string* error);

// Connects (waiting at most about a second) and, on success, adds the sink. False with a
// reason when the visualizer is not there; nothing is streamed then. `token` goes in the
// header (TCP visualizers close connections without the right one).
bool connect(const std::string& address, const std::string& token, int rank, int ranks,
             const std::string& program, const std::string& args, std::string* error);

}  // namespace ringlab::viz_stream
