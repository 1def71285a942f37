// libFuzzer harness: the visualizer's live server, for real. Each input is what one client
// sends on a Unix socket (a header line, then events, or anything at all); the server reads it
// with its non-blocking loop and the session builds runs from it, under small limits. Nothing
// may throw or crash, the connection must end (closed by the client or refused by the server),
// and the session must stay inside its limits. See tests/fuzz/README.md.
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "viz/server.hpp"
#include "viz/session.hpp"

using namespace ringlab::viz;

namespace {
struct Live {
  Server server;
  Session session{Limits{5000, 4}};
  Live() {
    Server::Options o;
    o.socket_path = "/tmp/ringlab-fuzz-" + std::to_string(getpid()) + ".sock";
    o.max_frame = 64 * 1024;
    if (!server.listen(o, nullptr)) std::abort();
  }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Live live;
  const int fd = dial(live.server.lesson_address());
  if (fd < 0) std::abort();
  // Send without blocking, serving the server in between (one thread plays both ends).
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = send(fd, data + done, size - done, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) break;  // the server closed on us
    if (n > 0) done += static_cast<std::size_t>(n);
    pump(live.server, live.session, 0);
  }
  close(fd);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (live.server.connections() > 0) {
    if (std::chrono::steady_clock::now() > deadline) std::abort();  // a connection that never ends
    pump(live.server, live.session, 10);
  }
  if (live.session.runs().size() > 4 || live.session.total_events() > 5000) std::abort();
  if (Run* run = live.session.current()) {  // what the window draws every frame
    const int frames = static_cast<int>(run->timeline.frames().size());
    if (frames > 0) run->timeline.buffers_at(frames - 0.5);
  }
  return 0;
}
