#include "viz/server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>

namespace ringlab::viz {
namespace {
constexpr std::size_t kMaxRefusedBeforeClose = 1000;  // a client that only sends garbage goes
constexpr std::size_t kRefusalNotes = 5;              // notes per connection, then silence

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK); }

// A fresh secret per visualizer session: 128 random bits as 32 hex digits.
std::string make_token() {
  std::random_device rd;  // /dev/urandom on Linux; each call gives 32 bits
  char hex[33];
  std::snprintf(hex, sizeof hex, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
  return hex;
}

// Compares in time that does not depend on where the first difference is.
bool same_secret(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}
}  // namespace

bool parse_host_port(const std::string& text, std::string& host, int& port, std::string* error) {
  const auto colon = text.rfind(':');
  auto fail = [&] {
    if (error) *error = "'" + text + "': expected HOST:PORT with PORT in 1..65535, e.g. 127.0.0.1:7777";
    return false;
  };
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) return fail();
  host = text.substr(0, colon);
  const std::string p = text.substr(colon + 1);
  if (p.size() > 5 || p.find_first_not_of("0123456789") != std::string::npos) return fail();
  port = std::stoi(p);
  if (port < 1 || port > 65535) return fail();
  return true;
}

int dial(const std::string& lesson_address) {
  if (lesson_address.rfind("unix:", 0) == 0) {
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    const std::string path = lesson_address.substr(5);
    if (path.size() >= sizeof a.sun_path) return -1;
    std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
    if (fd >= 0) ::close(fd);
    return -1;
  }
  std::string host;
  int port = 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  if (!parse_host_port(lesson_address, host, port, nullptr) ||
      inet_pton(AF_INET, host.c_str(), &a.sin_addr) != 1)
    return -1;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
  if (fd >= 0) ::close(fd);
  return -1;
}

Server::~Server() {
  for (auto& c : conns_) ::close(c.fd);
  if (listen_fd_ >= 0) ::close(listen_fd_);
  if (unlink_at_exit_) ::unlink(opt_.socket_path.c_str());
}

void Server::close(int conn) {
  const auto it = std::ranges::find(conns_, conn, &Conn::id);
  if (it == conns_.end()) return;
  ::close(it->fd);
  conns_.erase(it);
}

std::string Server::lesson_address() const {
  return tcp() ? opt_.address + ":" + std::to_string(port_) : "unix:" + opt_.socket_path;
}

bool Server::listen(const Options& options, std::string* error) {
  opt_ = options;
  if (!opt_.socket_path.empty()) return listen_unix(error);
  if (opt_.token.empty()) opt_.token = make_token();
  auto fail = [&](const std::string& what) {
    if (error)
      *error = what + " " + opt_.address + ":" + std::to_string(opt_.port) + ": " + std::strerror(errno);
    if (listen_fd_ >= 0) ::close(listen_fd_);
    listen_fd_ = -1;
    return false;
  };
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(opt_.port));
  if (opt_.port < 0 || opt_.port > 65535 || inet_pton(AF_INET, opt_.address.c_str(), &addr.sin_addr) != 1) {
    if (error)
      *error = "cannot listen on '" + opt_.address + ":" + std::to_string(opt_.port) +
               "': give an IPv4 address and a port in 0..65535";
    return false;
  }
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) return fail("socket for");
  int yes = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return fail("cannot bind");
  if (::listen(listen_fd_, 128) != 0) return fail("cannot listen on");
  set_nonblocking(listen_fd_);
  socklen_t len = sizeof addr;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  return true;
}

bool Server::listen_unix(std::string* error) {
  const std::string& path = opt_.socket_path;
  opt_.token.clear();  // the socket's directory and mode keep other users out
  auto fail = [&](const std::string& why) {
    if (error) *error = "cannot listen on " + path + ": " + why;
    if (listen_fd_ >= 0) ::close(listen_fd_);
    listen_fd_ = -1;
    return false;
  };
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path)
    return fail("longer than " + std::to_string(sizeof addr.sun_path - 1) + " bytes");
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  // A socket file left by a visualizer that was killed is removed; a live one is not stolen.
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) return fail("it exists and is not a socket");
    const int probe = ::socket(AF_UNIX, SOCK_STREAM, 0);
    const bool alive = probe >= 0 && ::connect(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    if (probe >= 0) ::close(probe);
    if (alive) return fail("another visualizer is listening there (close it, or use --socket PATH)");
    ::unlink(path.c_str());
  }
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (listen_fd_ < 0) return fail(std::strerror(errno));
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    return fail(std::strerror(errno));
  unlink_at_exit_ = true;
  chmod(path.c_str(), 0600);  // connecting needs write permission: only this user has it
  if (::listen(listen_fd_, 128) != 0) return fail(std::strerror(errno));
  set_nonblocking(listen_fd_);
  return true;
}

Incoming Server::about(const Conn& c, const std::string& what) const {
  const std::string who =
      c.rank >= 0 ? "rank " + std::to_string(c.rank) : "connection " + std::to_string(c.id);
  return {.kind = Incoming::Kind::note, .conn = c.id, .rank = c.rank, .text = who + what};
}

std::vector<Incoming> Server::poll(int timeout_ms) {
  std::vector<Incoming> out;
  if (listen_fd_ < 0) return out;
  std::vector<pollfd> fds{{listen_fd_, POLLIN, 0}};
  for (const auto& c : conns_) fds.push_back({c.fd, POLLIN, 0});
  if (::poll(fds.data(), fds.size(), timeout_ms) <= 0) return out;

  for (std::size_t i = 1; i < fds.size(); ++i)
    if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) read_from(conns_[i - 1], out);
  std::erase_if(conns_, [](const Conn& c) { return c.fd < 0; });
  if (fds[0].revents & POLLIN) {
    for (;;) {
      const int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) break;
      if (static_cast<int>(conns_.size()) >= opt_.max_connections) {
        out.push_back({.text = "refused a connection: already " + std::to_string(conns_.size()) + " open"});
        ::close(fd);
        continue;
      }
      set_nonblocking(fd);
      Conn c;
      c.fd = fd;
      c.id = next_id_++;
      conns_.push_back(std::move(c));
    }
  }
  return out;
}

void Server::read_from(Conn& c, std::vector<Incoming>& out) {
  bool close_it = false;
  char chunk[64 * 1024];
  // Read what is there now, up to a budget so one chatty rank cannot starve the window.
  for (int rounds = 0; rounds < 64 && !close_it; ++rounds) {
    const ssize_t n = ::recv(c.fd, chunk, sizeof chunk, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
      if (!c.buf.empty()) out.push_back(about(c, ": its last frame was cut off, dropped"));
      close_it = true;
      break;
    }
    if (n < 0) return;  // nothing more for now
    c.buf.append(chunk, static_cast<std::size_t>(n));
    std::size_t start = 0, nl;
    while (!close_it && (nl = c.buf.find('\n', start)) != std::string::npos) {
      take_line(c, std::string_view(c.buf).substr(start, nl - start), out, close_it);
      start = nl + 1;
    }
    c.buf.erase(0, start);
    if (!close_it && c.buf.size() > opt_.max_frame) {
      out.push_back(
          about(c, ": frame longer than " + std::to_string(opt_.max_frame) + " bytes refused; closed"));
      close_it = true;
    }
  }
  if (close_it) {
    Incoming gone = about(c, " disconnected after " + std::to_string(c.events) + " events");
    gone.kind = Incoming::Kind::disconnected;
    out.push_back(std::move(gone));
    ::close(c.fd);
    c.fd = -1;  // poll() drops it
  }
}

void Server::take_line(Conn& c, std::string_view line, std::vector<Incoming>& out, bool& close_it) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.empty()) return;
  auto close_with = [&](const std::string& why) {
    out.push_back(about(c, why + "; closed"));
    close_it = true;
  };
  if (line.size() > opt_.max_frame)
    return close_with(": frame longer than " + std::to_string(opt_.max_frame) + " bytes refused");
  auto refuse = [&](const std::string& why) {
    if (++c.refused <= kRefusalNotes) out.push_back(about(c, ": frame refused: " + why));
    if (c.refused >= kMaxRefusedBeforeClose) close_with(": too many bad frames");
  };
  if (!c.have_header) {
    std::string err;
    auto h = trace::decode_header(line, &err);
    if (!h) return close_with(": not a ringlab trace stream (" + err + ")");
    if (h->ranks > kMaxRanks)
      return close_with(": " + std::to_string(h->ranks) + " ranks; the visualizer draws 1 to " +
                        std::to_string(kMaxRanks));
    // The live stream adds the sender's rank to the header (a field plain files do not have).
    auto j = nlohmann::json::parse(line, nullptr, false);
    // Read as 64 bits and range-checked, so that 4294967297 is refused, not taken for rank 1.
    std::int64_t wide = -1;
    const auto r = j.find("rank");
    if (r != j.end() && r->is_number_integer() &&
        !(r->is_number_unsigned() && r->get<std::uint64_t>() > 4096))
      wide = r->get<std::int64_t>();
    const int rank = wide >= 0 && wide < h->ranks ? static_cast<int>(wide) : -1;
    if (rank < 0)
      return close_with(": header without a valid 'rank' (0.." + std::to_string(h->ranks - 1) + ")");
    const auto token = j.find("token");
    // Anyone on the network can reach a TCP port: only the token's holder may speak.
    if (tcp() &&
        (token == j.end() || !token->is_string() || !same_secret(token->get<std::string>(), opt_.token)))
      return close_with(std::string(": ") + (token == j.end() ? "no" : "wrong") +
                        " token (lessons need RINGLAB_VIZ_TOKEN=the token this visualizer printed)");
    c.have_header = true;
    c.rank = rank;
    c.ranks = h->ranks;
    out.push_back({.kind = Incoming::Kind::header, .conn = c.id, .rank = rank, .header = *h});
    return;
  }
  std::string err;
  auto e = trace::decode_event(line, &err);
  if (!e) return refuse(err);
  if (e->rank != c.rank)
    return refuse("event of rank " + std::to_string(e->rank) + " on rank " + std::to_string(c.rank) +
                  "'s connection");
  if (e->peer >= c.ranks)
    return refuse("peer " + std::to_string(e->peer) + " outside 0.." + std::to_string(c.ranks - 1));
  ++c.events;
  out.push_back({.kind = Incoming::Kind::event, .conn = c.id, .rank = c.rank, .event = std::move(*e)});
}

}  // namespace ringlab::viz
