// One connection per rank to the visualizer (a Unix socket, or TCP), fed by a trace sink.
// Blocking sends with a timeout: if the visualizer stops reading for a second, or goes away,
// streaming stops (one warning) and the run carries on untouched.
#include "ringlab/trace/viz_stream.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "ringlab/base/log.hpp"
#include "ringlab/trace/trace.hpp"

namespace ringlab::viz_stream {
namespace {

// How a call refuses: the reason in *error (when asked for), and false.
bool refuse(std::string* error, const std::string& why) {
  if (error) *error = why;
  return false;
}

// A directory that only this user can enter: ours, a real directory (not a link to one),
// no access for group or others.
bool private_dir(const std::string& dir, std::string* error) {
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0) return refuse(error, dir + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077) != 0)
    return refuse(error, dir + " is not a private directory of this user (want mode 0700, owner uid " +
                             std::to_string(getuid()) + "); remove it or set XDG_RUNTIME_DIR");
  return true;
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

// A stream socket connected to `addr`, or -1 with the reason in `why`. It connects without
// blocking for long: an address that does not answer costs one second.
int open_connected(int family, int protocol, const sockaddr* addr, socklen_t len, std::string& why) {
  const int fd = ::socket(family, SOCK_STREAM, protocol);
  if (fd < 0) {
    why = std::strerror(errno);
    return -1;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
  int rc = ::connect(fd, addr, len);
  if (rc != 0 && errno == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    int err = ETIMEDOUT;
    if (::poll(&p, 1, 1000) == 1) {
      socklen_t elen = sizeof err;
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen);
    }
    rc = err == 0 ? 0 : -1;
    errno = err;
  }
  if (rc != 0) {
    why = std::strerror(errno);
    ::close(fd);
    return -1;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) & ~O_NONBLOCK);
  return fd;
}

int connect_unix(const std::string& path, std::string& why) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (path.size() >= sizeof a.sun_path) {
    why = "socket path longer than " + std::to_string(sizeof a.sun_path - 1) + " bytes";
    return -1;
  }
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  return open_connected(AF_UNIX, 0, reinterpret_cast<sockaddr*>(&a), sizeof a, why);
}

int connect_tcp(const std::string& host, const std::string& port, std::string& why) {
  addrinfo hints{}, *found = nullptr;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 || !found) {
    why = "cannot resolve '" + host + "'";
    return -1;
  }
  int fd = -1;
  why = "no address";
  for (addrinfo* a = found; a && fd < 0; a = a->ai_next)
    fd = open_connected(a->ai_family, a->ai_protocol, a->ai_addr, a->ai_addrlen, why);
  freeaddrinfo(found);
  if (fd >= 0) {
    int yes = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);  // each event on screen at once
  }
  return fd;
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

std::string default_socket_path(bool create, std::string* error) {
  const char* xdg = std::getenv("XDG_RUNTIME_DIR");
  if (xdg && *xdg == '/' && private_dir(xdg, nullptr)) return std::string(xdg) + "/ringlab-viz.sock";
  const std::string dir = "/tmp/ringlab-" + std::to_string(getuid());
  if (create && mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    refuse(error, "cannot make " + dir + ": " + std::strerror(errno));
    return {};
  }
  if (!private_dir(dir, error)) return {};
  return dir + "/viz.sock";
}

bool parse_address(const std::string& text, Address& out, std::string* error) {
  out = Address{};
  if (text == "auto") {
    out.path = default_socket_path(false, error);
    return !out.path.empty();
  }
  if (text.rfind("unix:", 0) == 0) {
    out.path = text.substr(5);
    if (!out.path.empty()) return true;
  } else {
    const auto colon = text.rfind(':');
    if (colon != std::string::npos && colon > 0 && colon + 1 < text.size()) {
      out.tcp = true;
      out.host = text.substr(0, colon);
      out.port = text.substr(colon + 1);
      if (out.port.size() <= 5 && out.port.find_first_not_of("0123456789") == std::string::npos) {
        const int p = std::stoi(out.port);
        if (p >= 1 && p <= 65535) return true;
      }
    }
  }
  return refuse(error,
                "--viz '" + text +
                    "': expected nothing (or auto) for this user's visualizer, unix:PATH, or HOST:PORT "
                    "with PORT in 1..65535, e.g. 127.0.0.1:7777");
}

bool connect(const std::string& address, const std::string& token, int rank, int ranks,
             const std::string& program, const std::string& args, std::string* error) {
  Address a;
  if (!parse_address(address, a, error)) return false;
  std::string why;
  const int fd = a.tcp ? connect_tcp(a.host, a.port, why) : connect_unix(a.path, why);
  if (fd < 0) return refuse(error, "visualizer at " + a.text() + " not reachable (" + why + ")");
  timeval timeout{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);

  auto stream = std::make_shared<Stream>();
  stream->fd = fd;
  stream->address = a.text();
  // The header of a file, plus which rank this connection speaks for (and the token).
  auto header =
      nlohmann::json::parse(trace::encode(trace::Header{.ranks = ranks, .program = program, .args = args}));
  header["rank"] = rank;
  if (!token.empty()) header["token"] = token;
  if (!send_all(fd, header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"))
    return refuse(error, "visualizer at " + a.text() + " closed the connection");
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
