// One TCP connection per rank to the visualizer, fed by a trace sink. Blocking sends with a
// timeout: if the visualizer stops reading for a second, or goes away, streaming stops (one
// warning) and the run carries on untouched.
#include "ringlab/viz_stream.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "ringlab/log.hpp"
#include "ringlab/trace.hpp"

namespace ringlab::viz_stream {
namespace {

bool split(const std::string& address, std::string& host, std::string& port) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) return false;
  host = address.substr(0, colon);
  port = address.substr(colon + 1);
  if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos) return false;
  const int p = std::stoi(port);
  return p >= 1 && p <= 65535;
}

// Sends all of `text`, or gives up (false) on an error or a send that times out.
bool send_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

struct Stream {
  int fd = -1;
  bool broken = false;
  std::string address;
  ~Stream() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

bool valid_address(const std::string& address, std::string* error) {
  std::string host, port;
  if (split(address, host, port)) return true;
  if (error)
    *error = "--viz '" + address + "': expected HOST:PORT with PORT in 1..65535, e.g. 127.0.0.1:7777";
  return false;
}

bool connect(const std::string& address, int rank, int ranks, const std::string& program,
             const std::string& args, std::string* error) {
  std::string host, port;
  if (!split(address, host, port)) return valid_address(address, error);
  addrinfo hints{}, *found = nullptr;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 || !found) {
    if (error) *error = "cannot resolve '" + host + "'";
    return false;
  }
  int fd = -1;
  std::string why = "no address";
  for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) continue;
    // Connect without blocking for long: an address that does not answer costs one second.
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
    int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      int err = ETIMEDOUT;
      if (::poll(&p, 1, 1000) == 1) {
        socklen_t len = sizeof err;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      }
      rc = err == 0 ? 0 : -1;
      errno = err;
    }
    if (rc != 0) {
      why = std::strerror(errno);
      ::close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(found);
  if (fd < 0) {
    if (error) *error = "visualizer at " + address + " not reachable (" + why + ")";
    return false;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) & ~O_NONBLOCK);
  int yes = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);  // each event on screen at once
  timeval timeout{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);

  auto stream = std::make_shared<Stream>();
  stream->fd = fd;
  stream->address = address;
  trace::Header h;
  h.ranks = ranks;
  h.program = program;
  h.args = args;
  // The header of a file, plus which rank this connection speaks for.
  auto header = nlohmann::json::parse(trace::encode(h));
  header["rank"] = rank;
  if (!send_all(fd, header.dump() + "\n")) {
    if (error) *error = "visualizer at " + address + " closed the connection";
    return false;
  }
  trace::add_sink([stream](const trace::Event& e) {
    if (stream->broken) return;
    if (!send_all(stream->fd, trace::encode(e) + "\n")) {
      stream->broken = true;
      log(Level::warning) << "visualizer at " << stream->address << " stopped reading; streaming stopped";
    }
  });
  return true;
}

}  // namespace ringlab::viz_stream
