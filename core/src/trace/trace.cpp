// Recording, encoding and writing trace events. The format is documented in
// docs/trace-format.md; keep the two in step (tests/test_trace.cpp round-trips every field).
#include "ringlab/trace/trace.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <chrono>
#include <cstdio>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <type_traits>
#include <utility>

#include "ringlab/base/output_path.hpp"

namespace ringlab::trace {
bool detail::g_enabled = false;

namespace {
using json = nlohmann::json;
using clock = std::chrono::steady_clock;

const char* kOpNames[] = {"begin", "end", "send", "recv", "reduce", "copy", "compute", "metric"};

clock::time_point g_epoch = clock::now();
int g_rank = 0;
std::vector<Sink> g_sinks;
std::mutex g_mutex;                // sinks may be fed from a progress thread too
std::vector<Event> g_file_events;  // this rank's events, when a trace file was asked for
std::string g_path;
std::vector<Event>* g_capture = nullptr;  // a Capture's events, while one lives

// Per thread: a progress thread runs a collective while the training thread records compute
// blocks (lesson 08), and each must describe its own activity. The scope serials count the
// collectives of the whole process (every rank starts them in the same order, so the serial
// names the same call on every rank); the open scope is each thread's own.
thread_local Context g_context;
std::atomic<std::int64_t> g_calls{0};
std::atomic<std::int64_t> g_scopes{0};
thread_local std::int64_t g_open_scope = -1;
thread_local long long g_idle_steps = 0;  // Collective::at calls since this thread's last transfer
thread_local long long g_same_place = 0;  // Collective::at calls in a row at this thread's place
thread_local PlaceLeft g_left;             // the place before this thread's current one (place_left)
thread_local int g_transfers_here = 0;    // transfers started since this thread's last Collective::at
void (*g_scope_end_hook)(const char*, std::int64_t) = nullptr;
std::mutex g_calls_mutex;            // scopes open on the training thread and a progress thread
std::vector<ScopeCall> g_scope_calls;  // the last kKeptCalls scopes opened (scope_calls_since)

// Reads one optional field of untrusted JSON into `out`, checking its JSON type and, for a
// whole number, that it fits `out` (4294967297 must not quietly become 1 in an int). A field
// of the wrong type is an error naming the field, never an exception.
template <class T> bool get(const json& j, const char* key, T& out, std::string* error) {
  static_assert(!std::is_same_v<T, bool>, "no boolean fields in the trace format");
  auto it = j.find(key);
  if (it == j.end()) return true;  // optional field: keep the default
  auto wrong = [&](const std::string& what) {
    if (error) *error = std::string("field '") + key + "' must be " + what;
    return false;
  };
  if constexpr (std::is_integral_v<T>) {
    using limits = std::numeric_limits<T>;
    const std::string range =
        "a whole number in " + std::to_string(limits::min()) + ".." + std::to_string(limits::max());
    // nlohmann stores a non-negative literal as unsigned, a negative one as signed.
    if (it->is_number_unsigned() && std::in_range<T>(it->template get<std::uint64_t>()))
      out = static_cast<T>(it->template get<std::uint64_t>());
    else if (!it->is_number_unsigned() && it->is_number_integer() &&
             std::in_range<T>(it->template get<std::int64_t>()))
      out = static_cast<T>(it->template get<std::int64_t>());
    else return wrong(range);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!it->is_number()) return wrong("a number");
    out = it->template get<T>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!it->is_string()) return wrong("a string");
    out = it->template get_ref<const std::string&>();
  } else {  // std::vector<double>
    if (!it->is_array()) return wrong("a list of numbers");
    out.clear();
    for (const auto& v : *it) {
      if (!v.is_number()) return wrong("a list of numbers");
      out.push_back(v.template get<double>());
    }
  }
  return true;
}

// How a decoder refuses a line: the reason in *error (when asked for), and no value.
std::nullopt_t refuse(std::string* error, std::string why) {
  if (error) *error = std::move(why);
  return std::nullopt;
}

// Text from the command line or the environment may hold any bytes (a file name in Latin-1,
// say), and JSON is UTF-8: an invalid byte becomes U+FFFD instead of an exception.
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }
}  // namespace

const char* op_name(Op op) { return kOpNames[static_cast<int>(op)]; }

std::optional<Op> parse_op(std::string_view name) {
  for (int i = 0; i < 8; ++i)
    if (name == kOpNames[i]) return static_cast<Op>(i);
  return std::nullopt;
}

std::string encode(const Header& h) {
  json j{{"format", "ringlab-trace"}, {"version", h.version}, {"ranks", h.ranks},
         {"program", h.program},      {"args", h.args},       {"clock", "us"}};
  return dump(j);
}

std::string encode(const Event& e) {
  json j{{"rank", e.rank}, {"op", op_name(e.op)}};
  // Only fields that carry information: keeps lines short for the live stream.
  if (e.peer >= 0) j["peer"] = e.peer;
  if (!e.coll.empty()) j["coll"] = e.coll;
  if (e.call >= 0) j["call"] = e.call;
  if (!e.phase.empty()) j["phase"] = e.phase;
  if (e.step >= 0) j["step"] = e.step;
  if (e.chunk >= 0) j["chunk"] = e.chunk;
  if (e.bytes) j["bytes"] = e.bytes;
  if (e.count) j["count"] = e.count;
  if (!e.dtype.empty()) j["dtype"] = e.dtype;
  j["t0"] = e.t0;
  j["t1"] = e.t1;
  if (!e.name.empty()) {
    j["name"] = e.name;
    j["value"] = e.value;
  }
  if (!e.values.empty()) j["values"] = e.values;
  if (!e.where.empty()) j["where"] = e.where;
  if (!e.transport.empty()) j["transport"] = e.transport;
  if (e.gpu_t1 > 0) {
    j["gpu_t0"] = e.gpu_t0;
    j["gpu_t1"] = e.gpu_t1;
  }
  return dump(j);
}

std::optional<Header> decode_header(std::string_view line, std::string* error) {
  json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return refuse(error, "header is not a JSON object");
  const auto format = j.find("format");
  if (format == j.end() || !format->is_string() || *format != "ringlab-trace")
    return refuse(error, "not a ringlab trace (format field missing or different)");
  Header h;
  if (!get(j, "version", h.version, error) || !get(j, "ranks", h.ranks, error) ||
      !get(j, "program", h.program, error) || !get(j, "args", h.args, error))
    return std::nullopt;
  if (h.version != kFormatVersion)
    return refuse(error, "unsupported trace format version " + std::to_string(h.version) +
                             " (this build reads " + std::to_string(kFormatVersion) + ")");
  if (h.ranks < 1 || h.ranks > 4096)
    return refuse(error, "ranks must be between 1 and 4096, got " + std::to_string(h.ranks));
  return h;
}

std::optional<Event> decode_event(std::string_view line, std::string* error) {
  json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return refuse(error, "event is not a JSON object");
  Event e;
  std::string op;
  if (!j.contains("rank") || !j.contains("op")) return refuse(error, "event lacks 'rank' or 'op'");
  if (!get(j, "rank", e.rank, error) || !get(j, "op", op, error)) return std::nullopt;
  auto parsed = parse_op(op);
  if (!parsed) return refuse(error, "unknown op '" + op + "'");
  e.op = *parsed;
  if (!get(j, "peer", e.peer, error) || !get(j, "coll", e.coll, error) || !get(j, "call", e.call, error) ||
      !get(j, "phase", e.phase, error) || !get(j, "step", e.step, error) ||
      !get(j, "chunk", e.chunk, error) || !get(j, "bytes", e.bytes, error) ||
      !get(j, "count", e.count, error) || !get(j, "dtype", e.dtype, error) || !get(j, "t0", e.t0, error) ||
      !get(j, "t1", e.t1, error) || !get(j, "name", e.name, error) || !get(j, "value", e.value, error) ||
      !get(j, "values", e.values, error) || !get(j, "where", e.where, error) ||
      !get(j, "transport", e.transport, error) || !get(j, "gpu_t0", e.gpu_t0, error) ||
      !get(j, "gpu_t1", e.gpu_t1, error))
    return std::nullopt;
  if (e.rank < 0) return refuse(error, "negative rank");
  return e;
}

double now_us() { return std::chrono::duration<double, std::micro>(clock::now() - g_epoch).count(); }

void record(Event e) {
  e.rank = g_rank;
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto& sink : g_sinks) sink(e);
  if (g_capture) g_capture->push_back(std::move(e));
}

Capture::Capture() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_capture = &events_;
  detail::g_enabled = true;
}

Capture::~Capture() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_capture = nullptr;
  detail::g_enabled = !g_sinks.empty();
}

std::vector<Event> Capture::take() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return std::exchange(events_, {});
}

void add_sink(Sink sink) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_sinks.push_back(std::move(sink));
  detail::g_enabled = true;
}

const Context& context() { return g_context; }

Event event_here(Op op) {
  Event e;
  e.op = op;
  e.coll = g_context.coll;
  e.call = g_context.call;
  e.phase = g_context.phase;
  e.step = g_context.step;
  return e;
}

std::int64_t scope_serial() { return g_open_scope; }
std::int64_t scopes_opened() { return g_scopes; }
std::vector<ScopeCall> scope_calls_since(std::int64_t serial) {
  std::lock_guard lock(g_calls_mutex);
  std::vector<ScopeCall> calls;
  for (const ScopeCall& c : g_scope_calls)
    if (c.serial >= serial) calls.push_back(c);
  std::sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) { return a.serial < b.serial; });
  return calls;
}
void set_scope_end_hook(void (*hook)(const char*, std::int64_t)) { g_scope_end_hook = hook; }

Collective::Collective(const char* name, const void* data, std::size_t count, DType dtype)
    : active_(enabled()), serial_(g_scopes++), name_(name), count_(count), dtype_(dtype) {
  {
    std::lock_guard lock(g_calls_mutex);
    if (g_scope_calls.size() == kKeptCalls) g_scope_calls.erase(g_scope_calls.begin());
    g_scope_calls.push_back({serial_, name, data, count});
  }
  g_open_scope = serial_;
  g_idle_steps = 0;  // counted per call
  g_same_place = 0;  // (g_left is kept: the last place of the call before, until this one moves on)
  g_transfers_here = 0;
  // Untraced, the scope still names where the algorithm is (the watchdog reports it on a hang).
  if (!active_) g_context = Context{name_, -1, "", -1, 0};
}

// The begin or end event of this collective, with the buffer's values when it is small.
void Collective::emit(Op op, std::vector<double> values, bool at_last_place) {
  Event e;
  e.op = op;
  e.coll = name_;
  e.call = g_context.call;
  if (at_last_place) {  // the end carries the last place the algorithm announced (at): how far it went
    e.phase = g_context.phase;
    e.step = g_context.step;
  }
  e.count = count_;
  e.dtype = dtype_name(dtype_);
  e.t0 = e.t1 = now_us();
  e.values = std::move(values);
  record(std::move(e));
}

void Collective::begin(std::vector<double> values) {
  g_context = Context{name_, g_calls++, "", -1, count_};
  emit(Op::begin, std::move(values));
}

// The last place of a call that ends is the place left, for the next call's first: a rank that
// made a call too many there is seen from wherever it waits next.
static void keep_last_place() {
  if (g_same_place > 0) g_left = PlaceLeft{g_context.phase, g_context.step, g_transfers_here};
  g_same_place = 0;
}

void Collective::finish(std::vector<double> values) {
  if (ended_) return;
  ended_ = true;
  emit(Op::end, std::move(values), /*at_last_place=*/true);
  keep_last_place();
  g_context = Context{};
}

Collective::~Collective() {
  if (active_) {
    finish({});
  } else {
    keep_last_place();
    g_context = Context{};
  }
  g_open_scope = -1;
  if (g_scope_end_hook) g_scope_end_hook(name_, serial_);
}

void Collective::at(const char* phase, int step) {
  const bool same = g_same_place > 0 && g_context.step == step && std::string_view(g_context.phase) == phase;
  if (!same && g_same_place > 0) g_left = PlaceLeft{g_context.phase, g_context.step, g_transfers_here};
  g_same_place = same ? g_same_place + 1 : 1;
  g_context.phase = phase;
  g_context.step = step;
  g_transfers_here = 0;
  // (A loop with no transfer at all is left to the count without one, below, which says so.)
  if (g_same_place >= kSamePlace && g_idle_steps < g_same_place) {
    g_same_place = 0;
    throw std::runtime_error(std::string(name_) + ": at " + phase + " step " + std::to_string(step) + " " +
                             std::to_string(kSamePlace) +
                             " times in a row: the loop never moves on — its step never changes (a step that is "
                             "not advanced, a mask that does not grow), so it makes the same calls forever.");
  }
  if (++g_idle_steps < kIdleSteps) return;
  g_idle_steps = 0;
  throw std::runtime_error(std::string(name_) + ": " + std::to_string(kIdleSteps) +
                           " steps in a row without a send or a receive, now at " + phase + " step " +
                           std::to_string(step) +
                           ": the loop never ends — what its condition tests never changes (a step that "
                           "stays 0, a bound that moves with it) — or it skips every call it should make.");
}

void note_transfer() {
  g_idle_steps = 0;
  ++g_transfers_here;
}
int transfers_here() { return g_transfers_here; }
PlaceLeft place_left() { return g_left; }

Compute::Compute(const char* name, int index) : name_(name), index_(index), t0_(enabled() ? now_us() : 0) {}

Compute::~Compute() {
  if (!enabled()) return;
  Event e = event_here(Op::compute);
  e.name = name_;
  e.chunk = index_;
  e.t0 = t0_;
  e.t1 = now_us();
  record(std::move(e));
}

void metric(const char* name, double value, int step) {
  if (!enabled()) return;
  Event e;
  e.op = Op::metric;
  e.name = name;
  e.value = value;
  e.step = step;
  e.t0 = e.t1 = now_us();
  record(std::move(e));
}

// --- the trace file ----------------------------------------------------------------------

bool can_write(const std::string& path, std::string* error) {
  // Check that the file can be written *now*, before the run, without touching an existing
  // trace: the real file is written to PATH.tmp and renamed into place at the end.
  // FILE.chrome.json is written beside it the same way.
  std::string why;
  for (const std::string& p : {path, path + ".chrome.json"})
    if (!output_file_writable(p, &why)) {
      if (error) *error = "cannot write trace file '" + p + "': " + why;
      return false;
    }
  return true;
}

void collect_for_file(const std::string& path) {
  g_path = path;
  add_sink([](const Event& e) { g_file_events.push_back(e); });
}

const std::string& file_path() { return g_path; }

std::string to_chrome_json(const std::vector<Event>& events) {
  json out = json::array();
  int max_rank = 0;
  for (const auto& e : events) max_rank = std::max(max_rank, e.rank);
  // Row `tid` is named `name` in the viewer.
  auto name_row = [&](int tid, const std::string& name) {
    out.push_back(
        {{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", tid}, {"args", {{"name", name}}}});
  };
  // The rows of one kind of work, for the ranks that have some: row first + r is rank r's.
  auto rows_for = [&](int first, const std::string& suffix, auto has) {
    std::vector<bool> any(static_cast<std::size_t>(max_rank + 1), false);
    for (const auto& e : events)
      if (e.rank >= 0 && has(e)) any[static_cast<std::size_t>(e.rank)] = true;
    for (int r = 0; r <= max_rank; ++r)
      if (any[static_cast<std::size_t>(r)]) name_row(first + r, "rank " + std::to_string(r) + suffix);
  };
  for (int r = 0; r <= max_rank; ++r) name_row(r, "rank " + std::to_string(r));
  // Compute blocks get a row of their own under the ranks' rows: a rank's communication may
  // run while it computes (lesson 08's progress thread), and one row cannot show two things
  // at once. Row max_rank + 1 + r is rank r's computation.
  rows_for(max_rank + 1, " compute", [](const Event& e) { return e.op == Op::compute; });
  // Work timed on a GPU (events with gpu_t1, traced device buffers) gets one more row per rank:
  // when the GPU ran it, which may be later than the host call that queued it.
  // Row 2 * (max_rank + 1) + r is rank r's GPU.
  const int gpu_row = 2 * (max_rank + 1);
  rows_for(gpu_row, " GPU", [](const Event& e) { return e.gpu_t1 > 0; });
  for (const auto& e : events) {
    json args{{"coll", e.coll}, {"phase", e.phase}, {"step", e.step}, {"chunk", e.chunk}, {"bytes", e.bytes}};
    if (!e.where.empty()) args["where"] = e.where;
    if (!e.transport.empty()) args["transport"] = e.transport;
    if (e.peer >= 0) args["peer"] = e.peer;
    std::string name = op_name(e.op);
    if (e.op == Op::send) name += " to " + std::to_string(e.peer);
    if (e.op == Op::recv) name += " from " + std::to_string(e.peer);
    if (e.op == Op::compute) name = e.name;
    if (e.op == Op::metric) {
      out.push_back({{"name", e.name},
                     {"ph", "C"},
                     {"pid", 0},
                     {"tid", e.rank},
                     {"ts", e.t0},
                     {"args", {{"rank " + std::to_string(e.rank), e.value}}}});
      continue;
    }
    if (e.op == Op::begin || e.op == Op::end) {
      out.push_back({{"name", e.coll + " " + name},
                     {"ph", "i"},
                     {"s", "t"},
                     {"pid", 0},
                     {"tid", e.rank},
                     {"ts", e.t0}});
      continue;
    }
    auto span = [&](const std::string& cat, int tid, double t0, double t1) {
      out.push_back({{"name", name},
                     {"cat", cat},
                     {"ph", "X"},
                     {"pid", 0},
                     {"tid", tid},
                     {"ts", t0},
                     {"dur", std::max(0.0, t1 - t0)},
                     {"args", args}});
    };
    span(e.phase.empty() ? "kit" : e.phase, e.op == Op::compute ? max_rank + 1 + e.rank : e.rank, e.t0, e.t1);
    if (e.gpu_t1 > 0) span("gpu", gpu_row + e.rank, e.gpu_t0, e.gpu_t1);
  }
  return dump(out);
}

std::string local_lines() {
  std::string mine;
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const auto& e : g_file_events) mine += encode(e) + '\n';
  return mine;
}

void write_merged(const std::string& all, int size, const std::string& program, const std::string& args) {
  if (g_path.empty()) return;
  // Merge: decode, order by start time (ties by rank), write both files.
  std::vector<Event> events;
  std::istringstream lines(all);
  for (std::string line; std::getline(lines, line);)
    if (auto e = decode_event(line)) events.push_back(std::move(*e));
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.t0 != b.t0 ? a.t0 < b.t0 : a.rank < b.rank;
  });
  std::string text = encode(Header{.ranks = size, .program = program, .args = args}) + "\n";
  for (const auto& e : events) text += encode(e) + "\n";
  const bool ok1 = write_whole(g_path, text);
  const bool ok2 = write_whole(g_path + ".chrome.json", to_chrome_json(events));
  if (ok1 && ok2)
    std::fprintf(stderr, "[rank 0/%d] trace: %zu events written to %s and %s.chrome.json\n", size,
                 events.size(), g_path.c_str(), g_path.c_str());
  else std::fprintf(stderr, "[rank 0/%d] error: could not write trace file %s\n", size, g_path.c_str());
}

void start_clock(int rank) {
  g_epoch = clock::now();
  g_rank = rank;
}

}  // namespace ringlab::trace
