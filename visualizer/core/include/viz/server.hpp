// The live source: a server that lessons started with `--viz` connect to, one connection per
// rank. Each connection carries JSON lines: the trace header (with the rank's number added),
// then that rank's events as they are recorded.
//
// Where it listens (docs/visualizer.md, "Live"): by default a Unix-domain socket in this user's
// private runtime directory, which other users on a shared login node can neither reach nor
// take over. TCP (for a cluster streaming to a laptop through an ssh tunnel) is opt-in, and
// then every connection's header must carry the per-session token the visualizer printed.
//
// It never blocks and never trusts its input: sockets are non-blocking and served by poll();
// a frame (line) longer than the limit, a wrong token or one connection too many closes that
// connection with a note; a line that is not a valid event is refused with a note; a vanished
// client becomes "rank 3 disconnected".
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "ringlab/trace/trace.hpp"
#include "viz/trace_source.hpp"

namespace ringlab::viz {

struct Incoming {
  enum class Kind { header, event, note, disconnected };
  Kind kind = Kind::note;
  int conn = -1;  // which connection (a number the server hands out)
  int rank = -1;  // the rank on that connection, once its header said
  trace::Header header{};
  trace::Event event{};
  std::string text{};  // notes
};

class Server {
 public:
  struct Options {
    std::string socket_path{};  // listen on this Unix socket; empty: TCP on address:port
    std::string address = "127.0.0.1";
    int port = 7777;      // 0: any free port (see port())
    std::string token{};  // TCP: what every header must carry; empty: a random one is made
    std::size_t max_frame = kMaxFrameBytes;
    int max_connections = 2 * kMaxRanks;
  };
  Server() = default;
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  bool listen(const Options& options, std::string* error);
  int port() const { return port_; }
  const std::string& address() const { return opt_.address; }
  bool tcp() const { return opt_.socket_path.empty(); }
  const std::string& token() const { return opt_.token; }  // empty for a Unix socket
  // What a lesson gives to --viz to reach this server: "unix:PATH" or "HOST:PORT" (plus the
  // token, for TCP, in RINGLAB_VIZ_TOKEN). The one place that spells the address for lessons.
  std::string lesson_address() const;
  // Accepts and reads whatever is waiting, for up to `timeout_ms` (0: do not wait).
  std::vector<Incoming> poll(int timeout_ms);
  int connections() const { return static_cast<int>(conns_.size()); }
  void close(int conn);  // closes one connection (the session's limits ask for it)

 private:
  struct Conn {
    int fd = -1;
    int id = 0;
    std::string buf;
    bool have_header = false;
    int rank = -1;
    int ranks = 0;
    std::size_t events = 0, refused = 0;
  };
  bool listen_unix(std::string* error);
  // Reads what `c` sent; a connection that ended or was refused is closed (fd -1).
  void read_from(Conn& c, std::vector<Incoming>& out);
  void take_line(Conn& c, std::string_view line, std::vector<Incoming>& out, bool& close_it);
  // A note about `c` that names it: "rank 3" once its header said, else "connection 2".
  Incoming about(const Conn& c, const std::string& what) const;

  Options opt_;
  int listen_fd_ = -1;
  int port_ = 0;
  int next_id_ = 0;
  bool unlink_at_exit_ = false;
  std::vector<Conn> conns_;
};

// A client's end, for the visualizer's own probes and tests: connects (blocking) to "unix:PATH"
// or "HOST:PORT", as lessons do. -1 when it cannot.
int dial(const std::string& lesson_address);

// "HOST:PORT" -> host and port; false (with a reason) when it is not that.
bool parse_host_port(const std::string& text, std::string& host, int& port, std::string* error);

}  // namespace ringlab::viz
