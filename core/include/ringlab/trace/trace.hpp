// Tracing: every transfer and reduction a kit collective performs can be recorded as an Event.
// Off by default and free when off: every recording site first checks trace::enabled(), a
// plain bool. Turned on by `--trace FILE` or RINGLAB_TRACE=FILE; at the end of the run rank 0
// writes FILE (the ringlab trace format, docs/trace-format.md, which the visualizer replays)
// and FILE.chrome.json (open it in https://ui.perfetto.dev or chrome://tracing).
//
// Algorithms describe *where they are* with a Collective scope; the communicator fills in the
// rest (peer, bytes, times, chunk index from the View, values for small buffers):
//   trace::Collective tc("ring_allreduce", in.data(), in.size());
//   tc.at("reduce-scatter", step);
//   comm.sendrecv(...);          // recorded as a send and a recv event of that phase and step
//   tc.end(out.data(), out.size());
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ringlab/base/dtype.hpp"

namespace ringlab::trace {

inline constexpr int kFormatVersion = 1;
inline constexpr std::size_t kMaxTracedValues = 64;  // values are recorded for buffers this small

enum class Op { begin, end, send, recv, reduce, copy, compute, metric };
const char* op_name(Op op);
std::optional<Op> parse_op(std::string_view name);

struct Event {
  int rank = 0;
  Op op = Op::send;
  int peer = -1;           // the other rank of a send/recv, -1 otherwise
  std::string coll;        // the algorithm, e.g. "ring_allreduce"; empty outside one
  std::int64_t call = -1;  // how many collectives this rank started before this one
  std::string phase;       // e.g. "reduce-scatter", "allgather", "forward"
  int step = -1;
  int chunk = -1;  // chunk (or microbatch) index, -1 when not chunked
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;        // begin/end: elements in the collective's buffer
  std::string dtype;              // begin/end: element type name
  double t0 = 0, t1 = 0;          // microseconds since the run's trace epoch
  std::string name;               // metric or compute name, e.g. "loss", "lr"
  double value = 0;               // metric value
  std::vector<double> values;     // the data moved/held, when the buffer is small
  std::string where;              // "device" for a GPU buffer; empty (host) otherwise
  std::string transport;          // a GPU buffer's transfer: "staged", "ipc" or "nccl"
  double gpu_t0 = 0, gpu_t1 = 0;  // when the GPU did this work (trace clock, us); 0: not timed
};

struct Header {
  int version = kFormatVersion;
  int ranks = 1;
  std::string program;
  std::string args;
};

// Encoding: one JSON object per line (JSON Lines). Header first, then events.
std::string encode(const Header& h);
std::string encode(const Event& e);
std::optional<Header> decode_header(std::string_view line, std::string* error = nullptr);
std::optional<Event> decode_event(std::string_view line, std::string* error = nullptr);

// --- recording -------------------------------------------------------------------------
namespace detail {
extern bool g_enabled;
}
inline bool enabled() { return detail::g_enabled; }

double now_us();  // time since the trace epoch
// Called by Runtime after a barrier: the epoch is (nearly) the same on every rank.
void start_clock(int rank);
void record(Event e);  // fills in rank; call only when enabled()

// A sink sees every event as it is recorded (the file writer is one; the visualizer's live
// stream is another). Adding a sink turns tracing on.
using Sink = std::function<void(const Event&)>;
void add_sink(Sink sink);

// Collects this rank's events in memory while it lives, tracing on only as long as it does:
// how a check looks at what one call of an algorithm sent (harness.hpp compares it with the
// reference schedule) without leaving tracing on for what follows (a benchmark). One at a time.
class Capture {
 public:
  Capture();
  ~Capture();
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  std::vector<Event> take();  // the events so far; collecting goes on from empty

 private:
  std::vector<Event> events_;
};

// The bytes of every send among `events` (a Capture's): what this rank put on the wire.
inline double bytes_sent(const std::vector<Event>& events) {
  double bytes = 0;
  for (const Event& e : events)
    if (e.op == Op::send) bytes += static_cast<double>(e.bytes);
  return bytes;
}

// The collective in progress on this rank: name, phase and step go into every event recorded
// inside the scope. Scopes do not nest (a collective is one algorithm, top to bottom).
// The begin event holds the input's values and end() the result's, when the buffer is small:
// the visualizer's buffer view starts from the one and checks itself against the other.
namespace detail {
// Copies `bytes` from `src` to host memory `dst`, wherever `src` lives: a host buffer is read
// directly, a device buffer (CUDA builds) is copied down first. Only for the values of small
// buffers (kMaxTracedValues elements at most), so the cost is nothing next to a transfer.
void read_to_host(void* dst, const void* src, std::size_t bytes);
template <class T> std::vector<double> values_of(const T* data, std::size_t n) {
  if (n > kMaxTracedValues) return {};
  std::remove_const_t<T> host[kMaxTracedValues];
  read_to_host(host, data, n * sizeof(T));
  return std::vector<double>(host, host + n);
}
}  // namespace detail

class Collective {
 public:
  template <class T> Collective(const char* name, const T* data, std::size_t count)
      : Collective(name, data, count, dtype_of<T>()) {
    if (active_) begin(detail::values_of(data, count));
  }
  ~Collective();
  Collective(const Collective&) = delete;
  Collective& operator=(const Collective&) = delete;
  // Where the algorithm is now. A loop that never ends, and never sends or receives either (its
  // step never changes what its condition tests), blocks no call the watchdog could see: so at()
  // counts the steps in a row without a transfer (note_transfer), and at kIdleSteps it throws,
  // naming the collective and the step it has reached. No algorithm here is near that: each
  // step of the ring, the tree, the chain and the server sends or receives. A loop that never
  // ends but does send or receive (two ranks trading forever) reports the same place over and
  // over, since its step never moves on: at kSamePlace calls in a row at one phase and step, with
  // a transfer among them, at() throws too. No algorithm here stays at one place for long: a
  // server's receive from each worker is one step, n - 1 calls.
  void at(const char* phase, int step);
  static constexpr long long kIdleSteps = 1'000'000;
  static constexpr long long kSamePlace = 100'000;
  template <class T> void end(const T* data, std::size_t count) {
    if (active_) finish(detail::values_of(data, count));
  }

 private:
  Collective(const char* name, const void* data, std::size_t count, DType dtype);
  void begin(std::vector<double> values);
  void finish(std::vector<double> values);
  void emit(Op op, std::vector<double> values, bool at_last_place = false);
  bool active_;
  bool ended_ = false;
  std::int64_t serial_;
  const char* name_;
  std::uint64_t count_;
  DType dtype_;
};

// Every Collective scope, traced or not, gets a serial number (0, 1, 2, ... in the order this
// rank opens them). The communicator uses it to find transfers a collective left unfinished:
// the hook, when set, runs as each scope closes, with the scope's name and serial.
std::int64_t scope_serial();  // the open scope's serial, -1 outside every scope
void note_transfer();  // the communicator, at every send or receive it starts (Collective::at's count)
// The sends and receives this thread has started since the algorithm last said where it is
// (Collective::at): the watchdog tells a call made once too often at one step from its count.
int transfers_here();
// The place this thread's algorithm was at before its current one, the last place of the call
// before included, and how many sends and receives it started there (-1 and "" before a second
// place): a rank that left a place with fewer calls than the schedule has there left a loop
// early, one that left it with more made a call too many (the watchdog reports it).
struct PlaceLeft {
  const char* phase = "";
  int step = -1;
  int transfers = -1;
};
PlaceLeft place_left();
std::int64_t scopes_opened();  // how many scopes this process has opened so far (the next serial)
void set_scope_end_hook(void (*hook)(const char* name, std::int64_t serial));

// The collectives this process called, each a Collective scope: its serial, its name and the
// buffer it was given. A check compares the calls a step made with the calls the reference step
// makes (ringlab/check/collective_calls.hpp): an allgather where the allreduce belongs sums
// nothing, and its values alone do not say so. The last kKeptCalls are kept.
struct ScopeCall {
  std::int64_t serial = -1;
  std::string name;
  const void* data = nullptr;
  std::uint64_t count = 0;
};
inline constexpr std::size_t kKeptCalls = 256;
std::vector<ScopeCall> scope_calls_since(std::int64_t serial);  // serial: a scopes_opened() taken before

// What the current Collective says (used by the communicator when it records an event).
struct Context {
  const char* coll = "";
  std::int64_t call = -1;
  const char* phase = "";
  int step = -1;
  std::uint64_t count = 0;  // elements in the collective's buffer; values are traced when small
};
const Context& context();
// A new event of kind `op` in that context (collective, call, phase, step): what the
// communicator and the ops record for every transfer, reduction and copy.
Event event_here(Op op);

// A named stretch of computation (a pipeline stage's forward of microbatch 3, say).
class Compute {
 public:
  Compute(const char* name, int index);
  ~Compute();
  Compute(const Compute&) = delete;
  Compute& operator=(const Compute&) = delete;

 private:
  const char* name_;
  int index_;
  double t0_;
};

// A scalar per step: loss, learning rate, accuracy. The visualizer plots these per rank.
void metric(const char* name, double value, int step);

// Copies values for the trace when the collective is small enough.
template <class T> std::vector<double> small_values(const T* data, std::size_t n) {
  if (context().count > kMaxTracedValues) return {};
  return detail::values_of(data, n);
}

// --- the run's trace file ---------------------------------------------------------------
// Whether `path` can be written now, without touching an existing file there (rank 0 asks).
bool can_write(const std::string& path, std::string* error);
// Collects this rank's events in memory from now on, for the file (turns tracing on).
void collect_for_file(const std::string& path);
// This rank's collected events, one encoded line each. Gathering them to rank 0 is the
// communicator's job (comm/runtime.cpp): this layer knows no MPI.
std::string local_lines();
// On rank 0: merges every rank's lines (by start time) and writes the trace and its Chrome twin.
void write_merged(const std::string& all_lines, int ranks, const std::string& program, const std::string& args);
const std::string& file_path();  // empty when no file is being written

// Writes a Chrome trace (JSON array form) of already merged events.
std::string to_chrome_json(const std::vector<Event>& events);

}  // namespace ringlab::trace
