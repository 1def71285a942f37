// The watchdog (see watchdog.hpp): a watched wait, the reports blocked ranks exchange, and the
// diagnosis the lowest blocked rank prints before the run is stopped.
#include "ringlab/comm/watchdog.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <sstream>
#include <thread>

#include "ringlab/base/log.hpp"
#include "ringlab/base/plural.hpp"
#include "ringlab/comm/comm.hpp"  // kMaxTag: a wire tag back into the caller's tag
#include "ringlab/trace/trace.hpp"

namespace ringlab::watchdog {
namespace {

constexpr int kReportTag = 1;  // "I am blocked, on this" (an encoded Report)
constexpr int kResumeTag = 2;  // "my wait finished after all: forget my report"
constexpr int kExitCode = 3;
constexpr int kErrorExitCode = 4;

std::string bytes_text(std::size_t b) {
  std::ostringstream s;
  if (b >= (1u << 20)) s << std::round(10.0 * b / (1 << 20)) / 10 << " MiB";
  else if (b >= (1u << 10)) s << std::round(10.0 * b / (1 << 10)) / 10 << " KiB";
  else s << b << " B";
  return s.str();
}

std::string rank_text(int peer) { return peer < 0 ? "any rank" : "rank " + std::to_string(peer); }

// "waits to send 4 MiB to rank 1 (tag 0)"
std::string wait_text(const Pending& p) {
  return (p.send ? "waits to send " : "waits to receive ") + bytes_text(p.bytes) +
         (p.send ? " to " : " from ") + rank_text(p.peer) + " (tag " + std::to_string(p.tag) + ")";
}

// Where the algorithm is, from the trace context: "ring_allreduce, reduce-scatter step 0".
std::string where_now() {
  const auto& c = trace::context();
  std::string s = c.coll ? c.coll : "";
  if (c.phase && *c.phase) {
    s += (s.empty() ? "" : ", ") + std::string(c.phase);
    if (c.step >= 0) s += " step " + std::to_string(c.step);
  }
  return s;
}

// Sends `text` from `rank` to every other rank of `watch` (`size` of them) without waiting. The
// texts stay alive until the end of the run (a few per hang at most): a non-blocking send's
// buffer must outlive the send.
void tell_everyone(MPI_Comm watch, int rank, int size, int tag, std::string text) {
  static std::deque<std::string> sent;
  sent.push_back(std::move(text));
  const std::string& s = sent.back();
  for (int p = 0; p < size; ++p) {
    if (p == rank) continue;
    MPI_Request r;
    MPI_Isend(s.data(), static_cast<int>(s.size()), MPI_CHAR, p, tag, watch, &r);
    MPI_Request_free(&r);
  }
}

// Reads every report that has arrived. Kept for the whole run: messages from one rank arrive
// in the order it sent them, so a report followed by a resume leaves nothing behind.
void read_reports(MPI_Comm watch, std::map<int, Report>& heard) {
  std::string text;
  MPI_Status st;
  while (take_arrived(watch, text, st)) {
    Report r;
    if (st.MPI_TAG == kReportTag && decode(text, r)) heard[st.MPI_SOURCE] = r;
    else heard.erase(st.MPI_SOURCE);
  }
}

// What every other rank has said (reports, and answers from ranks in a collective), for the run.
std::map<int, Report> g_heard;

// This rank's place, for any report it sends: the algorithm's scope, phase and step, and how
// many collectives it has started. The caller adds what it waits for.
Report report_here(int rank) {
  const auto& place = trace::context();
  Report r;
  r.rank = rank;
  r.where = where_now();
  r.phase = place.phase ? place.phase : "";
  r.step = place.step;
  r.scopes = trace::scopes_opened();
  r.scope = trace::scope_serial();
  r.started_here = trace::transfers_here();
  const trace::PlaceLeft left = trace::place_left();
  r.left_phase = left.phase ? left.phase : "";
  r.left_step = left.step;
  r.left_here = left.transfers;
  return r;
}

// Where strays are looked for (look_for_strays_on), and the call being posted (Calling).
MPI_Comm g_strays_comm = MPI_COMM_NULL;
thread_local const Pending* t_calling = nullptr;
// The transfers a wait_all is waiting for (an MPI error there, such as a truncated message, is
// about one of them): what[0..n).
thread_local const Pending* t_waiting = nullptr;
thread_local int t_waiting_n = 0;

// Where a message was longer than its receive: the receives this rank was posting or waiting for,
// each with the room it had ("its receive from rank 0 had room for 16 bytes"). MPI does not say
// how long the message was; the sender's side of the size is then the other thing to compare.
std::string truncated_receives() {
  std::vector<Pending> receives;
  if (t_calling && !t_calling->send) receives.push_back(*t_calling);
  for (int i = 0; i < t_waiting_n; ++i)
    if (!t_waiting[i].send) receives.push_back(t_waiting[i]);
  std::string out;
  for (const Pending& p : receives)
    out += (out.empty() ? "" : "; ") + std::string("its receive from rank ") + std::to_string(p.peer) +
           " had room for " + std::to_string(p.bytes) + " bytes";
  return out;
}

// The messages that reached this rank and that no receive took: the first from each sender.
// MPI_Iprobe looks without receiving, so a wait that was only slow loses nothing.
std::vector<Pending> strays_here() {
  std::vector<Pending> out;
  if (g_strays_comm == MPI_COMM_NULL) return out;
  int size = 0;
  MPI_Comm_size(g_strays_comm, &size);
  for (int from = 0; from < size; ++from) {
    int flag = 0, bytes = 0;
    MPI_Status st;
    MPI_Iprobe(from, MPI_ANY_TAG, g_strays_comm, &flag, &st);
    if (!flag) continue;
    MPI_Get_count(&st, MPI_BYTE, &bytes);
    out.push_back({false, from, st.MPI_TAG % (kMaxTag + 1), static_cast<std::size_t>(bytes)});
  }
  return out;
}

// What the watchdog does to take the whole run down: the hook first (a device transport
// aborts its NCCL communicator there), then MPI_Abort.
std::function<void()> g_before_abort;
std::string g_rules;                         // what the transport adds to a report (explain_rules)
CompareFn g_compare;                         // the schedule a check compares a hang with (compare_with)
thread_local std::function<void()> t_pause;  // between two tests: nothing (spin), or this

[[noreturn]] void stop_everything(int code) {
  if (g_before_abort) g_before_abort();
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

// This rank's wait has passed the threshold: report, listen, and either go on (the wait
// finished after all) or, as the lowest blocked rank, print the diagnosis and stop the run.
void on_stuck(MPI_Comm watch, const std::function<bool()>& done,
              const std::function<std::vector<Pending>()>& still_waiting, double limit) {
  int rank = 0, size = 1;
  MPI_Comm_rank(watch, &rank);
  MPI_Comm_size(watch, &size);
  Report me = report_here(rank);
  me.blocked = true;
  me.waits = still_waiting();
  me.strays = strays_here();
  if (me.waits.empty()) return;
  tell_everyone(watch, rank, size, kReportTag, encode(me));

  // Ranks caught in the same hang cross the threshold within moments of each other: give
  // their reports a little time to arrive before deciding who speaks.
  const double grace = std::clamp(limit / 5, 0.5, 2.0);
  const double decide_at = MPI_Wtime() + grace, speak_anyway_at = decide_at + 4 * grace;
  for (;;) {
    read_reports(watch, g_heard);
    if (done()) {  // only slow, not stuck
      tell_everyone(watch, rank, size, kResumeTag, "resume");
      return;
    }
    const double now = MPI_Wtime();
    if (now >= decide_at) {
      int lowest = rank;
      for (const auto& [r, report] : g_heard)
        if (report.blocked) lowest = std::min(lowest, r);
      // The lowest blocked rank speaks; the others wait to be stopped (or speak themselves
      // if it never does).
      if (lowest == rank || now >= speak_anyway_at) {
        std::vector<Report> all{me};
        for (const auto& [r, report] : g_heard)
          if (r != rank) all.push_back(report);
        const Comparison schedule = g_compare ? g_compare(all, size) : Comparison{};
        const std::string text = diagnose(all, size, limit, schedule) + g_rules;
        std::fwrite(text.data(), 1, text.size(), stderr);
        std::fflush(stderr);
        stop_everything(kExitCode);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// A call that named a rank that does not exist: which rank made it, to whom, and (when a check
// knows the schedule) what the schedule has that rank do there. Without a schedule both usual
// causes are offered: the peer's arithmetic, or a call made on a rank that should make none.
std::string explain_bad_peer(MPI_Comm comm, const Pending& call) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (g_compare) {
    Report me = report_here(rank);
    me.blocked = true;
    me.waits = {call};
    me.failed = true;
    const Comparison schedule = g_compare({me}, size);
    if (!schedule.text.empty()) return ":\n" + schedule.text.substr(0, schedule.text.size() - 1);
  }
  return ". Rank " + std::to_string(rank) + (call.send ? " tried to send to rank " : " tried to receive from rank ") +
         std::to_string(call.peer) + ", which does not exist (ranks 0.." + std::to_string(size - 1) + "): check the peer arithmetic (mod n), or, where this rank should make no such call, the "
                "condition around it.";
}

void on_mpi_error(MPI_Comm* comm, int* code, ...) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0, error_class = 0;
  MPI_Error_string(*code, text, &len);
  MPI_Error_class(*code, &error_class);
  std::string message = "MPI error: " + std::string(text, static_cast<std::size_t>(len));
  const std::string where = where_now();
  if (!where.empty()) message += " (in " + where + ")";
  if (error_class == MPI_ERR_TRUNCATE) {
    const std::string room = truncated_receives();
    message += ". A message was longer than the buffer that received it" +
               (room.empty() ? std::string() : " (" + room + ", and the message was longer)") +
               ": sender and receiver disagree on its size (which chunk, or how many elements)";
  } else if (error_class == MPI_ERR_RANK && t_calling)
    message += explain_bad_peer(*comm, *t_calling);
  else if (error_class == MPI_ERR_RANK)
    message += ". A send or receive named a rank that does not exist: check the neighbour arithmetic (mod n)";
  log(Level::error) << message;
  stop_everything(kErrorExitCode);
}

struct Edge {
  int from, to;
  Pending wait;
};

std::string edge_text(const Edge& e) {
  return "rank " + std::to_string(e.from) + (e.wait.send ? " waits to send to " : " waits to receive from ") +
         std::to_string(e.to);
}

// "4th": the place of a call among a rank's calls.
std::string nth(long long k) {
  const long long tens = k % 100, last = k % 10;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
  return std::to_string(k) + suffix;
}

// Rank `rank` (report r) waits for `p.peer`, which waits in a call every rank makes (report c):
// the peer is past this point. The collectives each has started tell whether it skipped one
// (every rank starts them in the same order) or left this one without the transfer.
std::string past_the_call(int rank, const Report& r, const Pending& p, const Report& c) {
  const std::string me = "rank " + std::to_string(rank), peer = "rank " + std::to_string(p.peer);
  const std::string coll = r.where.substr(0, r.where.find(','));
  std::string s = "  " + me + (p.send ? " waits to send to " : " waits to receive from ") + peer +
                  (r.where.empty() ? "" : " in " + r.where) + ", but " + peer + " is past that point: it waits in " +
                  c.collective + ", a call every rank makes.\n";
  const std::string missing = (p.send ? "a receive missing on " + peer + ", or an extra send on " + me
                                      : "a send missing on " + peer + ", or an extra receive on " + me) +
                              " (or a wrong peer).\n";
  if (r.scope >= 0 && c.scope == r.scope)  // the same call, the peer already past its transfers
    return s + "  " + peer + " is in the same call" + (coll.empty() ? "" : " (" + coll + ")") +
           " and went on without the " + (p.send ? "receive " : "send ") + me + " waits for: " + missing;
  if (r.scope >= 0 && c.scopes >= 0 && c.scopes <= r.scope)
    return s + "  " + peer + " has started " + plural(c.scopes, "collective call") + "; " + me + " is in its " +
           nth(r.scope + 1) + (coll.empty() ? "" : " (" + coll + ")") + ": " + peer +
           " skipped a collective call that " + me +
           " made. Every rank must make each collective call, in the same order: is a call made on some ranks "
           "only (inside a condition on the rank)?\n";
  if (r.scope >= 0 && c.scopes > r.scope)
    return s + "  " + peer + " did call " + (coll.empty() ? "it" : coll) + ", and left it without the " +
           (p.send ? "receive " : "send ") + me + " waits for: " + missing;
  return s + "  That is " + missing;
}

// Why the cycle cannot move, and what to change.
std::string explain_cycle(const std::vector<Edge>& cycle, const std::map<int, const Report*>& blocked) {
  const bool all_send = std::all_of(cycle.begin(), cycle.end(), [](const Edge& e) { return e.wait.send; });
  const bool all_recv = std::none_of(cycle.begin(), cycle.end(), [](const Edge& e) { return e.wait.send; });
  if (all_send)
    return "  Every rank in this cycle sends before it receives. A message this large is not buffered: a "
           "send\n"
           "  waits until the receiver posts its receive, and the receiver is itself stuck sending.\n"
           "  Use comm.sendrecv (it sends and receives at once), or post the receive first (irecv, send,\n"
           "  wait), or let even ranks send first while odd ranks receive first.\n";
  if (all_recv)
    return "  Every rank in this cycle waits to receive before it sends, so nobody sends. Let one side send\n"
           "  first, or use comm.sendrecv.\n";
  // A receive facing a send to it that does not match: the tags differ.
  for (const Edge& e : cycle) {
    if (e.wait.send) continue;
    auto it = blocked.find(e.to);
    if (it == blocked.end()) continue;
    for (const Pending& p : it->second->waits)
      if (p.send && p.peer == e.from && p.tag != e.wait.tag)
        return "  Rank " + std::to_string(e.to) + " sends to rank " + std::to_string(e.from) + " with tag " +
               std::to_string(p.tag) + ", but rank " + std::to_string(e.from) + " waits for tag " +
               std::to_string(e.wait.tag) + ": the tags must match.\n";
  }
  return "  Each rank in this cycle waits for the next one to move first, so none can. Reorder the calls:\n"
         "  post receives before sends (irecv, send, wait), or use comm.sendrecv.\n";
}

}  // namespace

double threshold_s() {
  static const double seconds = [] {
    const char* text = std::getenv("RINGLAB_WATCHDOG_S");
    if (!text || !*text) return 10.0;
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    return (*end || !(v >= 0) || !std::isfinite(v)) ? -1.0 : v;  // -1: invalid (the communicator says so)
  }();
  return seconds;
}

void set_pause_between_tests(std::function<void()> pause) { t_pause = std::move(pause); }

void wait_until(MPI_Comm watch, const std::function<bool()>& done,
                const std::function<std::vector<Pending>()>& still_waiting) {
  const double limit = threshold_s();
  if (done()) return;
  double start = MPI_Wtime();
  for (unsigned spin = 1;; ++spin) {
    if (t_pause) t_pause();
    if (done()) return;
    if (limit > 0 && spin % 256 == 0 && MPI_Wtime() - start > limit) {
      on_stuck(watch, done, still_waiting, limit);  // returns only if the wait may go on
      start = MPI_Wtime();
    }
  }
}

void wait_all(MPI_Comm watch, MPI_Request* reqs, const Pending* what, int n, MPI_Status* statuses) {
  struct Waiting {  // what an MPI error in this wait is about (truncated_receives)
    Waiting(const Pending* what, int n) { t_waiting = what, t_waiting_n = n; }
    ~Waiting() { t_waiting = nullptr, t_waiting_n = 0; }
  } waiting(what, n);
  if (threshold_s() <= 0 && !t_pause) {
    MPI_Waitall(n, reqs, statuses);
    return;
  }
  auto done = [&] {
    int flag = 0;
    MPI_Testall(n, reqs, &flag, statuses);
    return flag != 0;
  };
  auto still_waiting = [&] {  // looks without completing anything, so no status is lost
    std::vector<Pending> left;
    for (int i = 0; i < n; ++i) {
      int flag = 1;
      if (reqs[i] != MPI_REQUEST_NULL) MPI_Request_get_status(reqs[i], &flag, MPI_STATUS_IGNORE);
      if (!flag) left.push_back(what[i]);
    }
    return left;
  };
  wait_until(watch, done, still_waiting);
}

void wait_collective(MPI_Comm watch, MPI_Request* req, const char* what) {
  if (threshold_s() <= 0 || watch == MPI_COMM_NULL) {
    MPI_Wait(req, MPI_STATUS_IGNORE);
    return;
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(watch, &rank);
  MPI_Comm_size(watch, &size);
  bool answered = false;  // once per call: a blocked rank needs to hear it only once
  for (unsigned spin = 1;; ++spin) {
    int flag = 0;
    MPI_Test(req, &flag, MPI_STATUS_IGNORE);
    if (flag) return;
    if (answered || spin % 256 != 0) continue;
    read_reports(watch, g_heard);
    if (std::none_of(g_heard.begin(), g_heard.end(), [](const auto& h) { return h.second.blocked; })) continue;
    Report me = report_here(rank);
    me.strays = strays_here();
    me.collective = what;
    tell_everyone(watch, rank, size, kReportTag, encode(me));
    answered = true;
  }
}

void look_for_strays_on(MPI_Comm comm) { g_strays_comm = comm; }

Calling::Calling(const Pending& call) : outer_(t_calling) { t_calling = &call; }
Calling::~Calling() { t_calling = outer_; }

void before_abort(std::function<void()> hook) { g_before_abort = std::move(hook); }
void explain_rules(std::string text) { g_rules = std::move(text); }
void compare_with(CompareFn compare) { g_compare = std::move(compare); }

void refuse_bad_peer(MPI_Comm comm, const Pending& call) {
  std::string message = "invalid peer: rank " + std::to_string(call.peer) + " is no rank";
  const std::string where = where_now();
  if (!where.empty()) message += " (in " + where + ")";
  log(Level::error) << message + explain_bad_peer(comm, call);
  stop_everything(kErrorExitCode);
}

void refuse_no_memory(const Pending& call, std::size_t count) {
  const auto& c = trace::context();
  std::string message = std::string("invalid buffer: a ") + (call.send ? "send" : "receive") + " of " +
                        plural(static_cast<long long>(count), "element") + (call.send ? " to " : " from ") +
                        rank_text(call.peer) + " at no memory (a null pointer)";
  const std::string where = where_now();
  if (!where.empty())
    message += " (in " + where + (c.coll && *c.coll ? ", whose buffer has " + plural(static_cast<long long>(c.count), "element") : "") + ")";
  log(Level::error) << message +
                           ": a View built by hand from a buffer's data() keeps the size it was given, even past the "
                           "buffer's end — build views from the buffer itself (buf, or buf.sub(offset, count)), which "
                           "cannot reach past it";
  stop_everything(kErrorExitCode);
}

void explain_errors(MPI_Comm comm) {
  static MPI_Errhandler handler = [] {
    MPI_Errhandler h;
    MPI_Comm_create_errhandler(on_mpi_error, &h);
    return h;
  }();
  MPI_Comm_set_errhandler(comm, handler);
}

bool take_arrived(MPI_Comm comm, std::string& bytes, MPI_Status& status) {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &status);
  if (!flag) return false;
  int len = 0;
  MPI_Get_count(&status, MPI_BYTE, &len);
  bytes.resize(static_cast<std::size_t>(len));
  MPI_Recv(bytes.data(), len, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, comm, MPI_STATUS_IGNORE);
  return true;
}

std::string encode(const Report& r) {
  std::ostringstream s;
  s << "rank " << r.rank << "\nblocked " << (r.blocked ? 1 : 0) << "\nwhere " << r.where << "\nphase "
    << r.phase << "\nstep " << r.step << "\n";
  for (const Pending& p : r.waits)
    s << "wait " << (p.send ? "send" : "recv") << " " << p.peer << " " << p.tag << " " << p.bytes << "\n";
  for (const Pending& p : r.strays) s << "stray " << p.peer << " " << p.tag << " " << p.bytes << "\n";
  if (!r.collective.empty()) s << "collective " << r.collective << "\n";
  s << "scopes " << r.scopes << "\nscope " << r.scope << "\nhere " << r.started_here << "\n";
  if (!r.left_phase.empty()) s << "left " << r.left_step << " " << r.left_here << " " << r.left_phase << "\n";
  return s.str();
}

bool decode(const std::string& text, Report& r) {
  std::istringstream in(text);
  std::string line;
  r = Report{};
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string key;
    fields >> key;
    if (key == "rank") fields >> r.rank;
    else if (key == "blocked") fields >> r.blocked;  // 0 or 1
    else if (key == "where") r.where = line.size() > 6 ? line.substr(6) : "";
    else if (key == "phase") r.phase = line.size() > 6 ? line.substr(6) : "";
    else if (key == "step") fields >> r.step;
    else if (key == "collective") r.collective = line.size() > 11 ? line.substr(11) : "";
    else if (key == "scopes") fields >> r.scopes;
    else if (key == "scope") fields >> r.scope;
    else if (key == "here") fields >> r.started_here;
    else if (key == "left") {
      fields >> r.left_step >> r.left_here;
      std::getline(fields >> std::ws, r.left_phase);
    }
    else if (key == "wait") {
      std::string op;
      Pending p;
      fields >> op >> p.peer >> p.tag >> p.bytes;
      if (fields.fail() || (op != "send" && op != "recv")) return false;
      p.send = op == "send";
      r.waits.push_back(p);
    } else if (key == "stray") {
      Pending p;
      fields >> p.peer >> p.tag >> p.bytes;
      if (fields.fail()) return false;
      r.strays.push_back(p);
    } else if (!key.empty()) {
      return false;
    }
  }
  return r.rank >= 0;
}

std::string diagnose(const std::vector<Report>& reports, int size, double threshold_s,
                     const Comparison& schedule) {
  std::map<int, const Report*> blocked, in_collective;  // (in a call every rank makes: past any transfer)
  for (const Report& r : reports)
    if (r.rank >= 0 && r.rank < size) {
      if (r.blocked) blocked[r.rank] = &r;
      else if (!r.collective.empty()) in_collective[r.rank] = &r;
    }
  std::ostringstream out;
  out << "ringlab watchdog: ranks blocked for more than " << threshold_s << " s in a point-to-point call:\n";
  for (int rank = 0; rank < size; ++rank) {
    auto it = blocked.find(rank);
    if (it == blocked.end()) {
      if (auto c = in_collective.find(rank); c != in_collective.end())
        out << "  rank " << rank << " waits in " << c->second->collective << ", a call every rank makes\n";
      else
        out << "  rank " << rank << " is not in a point-to-point call (computing, finished, or in a collective)\n";
      continue;
    }
    const Report& r = *it->second;
    for (std::size_t i = 0; i < r.waits.size(); ++i) {
      out << "  rank " << rank << " " << wait_text(r.waits[i]);
      if (i == 0 && !r.where.empty()) out << "   in " << r.where;
      out << "\n";
    }
    for (const Pending& p : r.strays)
      out << "  rank " << rank << " holds a message from rank " << p.peer << " (" << bytes_text(p.bytes) << ", tag "
          << p.tag << ") that no receive took\n";
  }

  // The wait-for graph: an edge from each blocked rank to each other blocked rank it waits for.
  // A rank waiting on itself is said at once: no other rank can help; the peer was computed wrong.
  bool self = false;
  std::map<int, std::vector<Edge>> edges;
  for (const auto& [rank, r] : blocked)
    for (const Pending& p : r->waits)
      if (p.peer == rank && !self) {
        self = true;
        out << "  rank " << rank << (p.send ? " waits to send to itself" : " waits to receive from itself")
            << (r->where.empty() ? "" : " (in " + r->where + ")")
            << ": a rank never waits on itself, so the peer arithmetic is wrong. Check how the peer is "
               "computed, and that a step with nobody to talk to makes no call.\n";
      } else if (p.peer != rank && blocked.count(p.peer)) {
        edges[rank].push_back({rank, p.peer, p});
      }
  // A blocked call that is not the schedule's is the cause; the watchdog's own advice would only guess.
  const bool guess = !schedule.departs;
  std::vector<Edge> path, cycle;
  std::map<int, int> color;  // 0 unseen, 1 on the path, 2 done
  std::function<bool(int)> visit = [&](int u) {
    color[u] = 1;
    for (const Edge& e : edges[u]) {
      path.push_back(e);
      if (color[e.to] == 1) {
        auto first = std::find_if(path.begin(), path.end(), [&](const Edge& x) { return x.from == e.to; });
        cycle.assign(first, path.end());
        return true;
      }
      if (color[e.to] == 0 && visit(e.to)) return true;
      path.pop_back();
    }
    color[u] = 2;
    return false;
  };
  for (const auto& [rank, r] : blocked)
    if (color[rank] == 0 && visit(rank)) break;

  if (!cycle.empty()) {
    out << "deadlock: ";
    for (std::size_t i = 0; i < cycle.size(); ++i) out << (i ? "; " : "") << edge_text(cycle[i]);
    out << ".\n";
  }
  // The schedule's word on each blocked call, when a check knows it: evidence before any guess.
  out << schedule.text;
  if (!cycle.empty()) {
    // Ranks stuck at different points (another step or phase) are out of step: reordering the
    // calls will not help, a call is missing or extra on one side.
    bool same_place = true;  // (a rank outside any collective has no place to compare)
    std::string place;
    for (const Edge& e : cycle) {
      const std::string& w = blocked[e.from]->where;
      if (w.empty()) continue;
      if (place.empty()) place = w;
      same_place = same_place && w == place;
    }
    const bool all_recv = std::none_of(cycle.begin(), cycle.end(), [](const Edge& e) { return e.wait.send; });
    if (guess && same_place) {
      out << explain_cycle(cycle, blocked);
    } else if (guess) {
      std::string places;
      for (std::size_t i = 0; i < cycle.size(); ++i)
        places += (i ? "; rank " : " rank ") + std::to_string(cycle[i].from) + " in " +
                  blocked[cycle[i].from]->where;
      // Everyone waits for a message and nobody is sending: whatever the places, some rank
      // receives where it should have sent first (or a send is missing).
      if (all_recv)
        out << "  Every rank in this cycle waits to receive, so nobody sends. They are at:" << places
            << ".\n  One of them receives where it should send first (look at the order of its calls), or a\n"
               "  send is missing on one side.\n";
      else
        out << "  The ranks in this cycle are at different points:" << places
            << ". They are out of step: one of them made a missing or extra call before this point (a\n"
               "  receive or send the other side expects), so reordering the calls will not help.\n";
    }
  } else if (!self && guess) {
    bool said = false;
    for (const auto& [rank, r] : blocked)
      for (const Pending& p : r->waits) {
        if (p.peer < 0) continue;
        auto other = blocked.find(p.peer);
        const std::string me = "rank " + std::to_string(rank), peer = "rank " + std::to_string(p.peer);
        const std::string here = r->where.empty() ? "" : " (" + me + " is in " + r->where + ")";
        const std::string stray = p.send ? "" : stray_text(reports, p.peer, rank, p.tag);
        if (other == blocked.end() && !stray.empty()) {  // the message was sent: where it went is the evidence
          said = true;
          out << "  " << me << " waits to receive from " << peer << here << ": " << stray << "\n";
        } else if (auto c = in_collective.find(p.peer); other == blocked.end() && c != in_collective.end()) {
          said = true;
          out << past_the_call(rank, *r, p, *c->second);
        } else if (other == blocked.end()) {
          said = true;
          out << "  " << me << (p.send ? " waits to send to " : " waits to receive from ") << peer
              << ", which is not in a point-to-point call: "
              << (p.send ? "it never posts the matching receive" : "it never sends this message")
              << " (it finished, computes, or waits in another collective). A missing or extra call: "
              << (p.send ? "an extra send on " + me + ", or a receive missing on " + peer
                         : "an extra receive on " + me + ", or a send missing on " + peer)
              << here << " (or a wrong peer, or tags that do not match).\n";
        } else if (other->second->where != r->where && !other->second->where.empty() && schedule.text.empty()) {
          // (a schedule's comparison has put each call in its place: the chain's ranks wait at
          // different steps by design)
          said = true;
          out << "  " << me << " waits for " << peer << ", but " << peer << " is elsewhere, in "
              << other->second->where << here
              << ": the two ranks are out of step, one of them made a missing or extra call before this "
                 "point.\n";
        }
      }
    if (!said)
      out << "  no cycle among the blocked ranks: they wait in a chain for a rank that never answers.\n";
  }
  out << "ringlab watchdog: stopping every rank (exit code " << kExitCode
      << "). RINGLAB_WATCHDOG_S sets the threshold "
      << "(0 turns the watchdog off); raise it if a rank is only slow.\n";
  return out.str();
}

int stray_at(const std::vector<Report>& reports, int from, int to) {
  for (const Report& r : reports)
    if (r.rank != to && std::any_of(r.strays.begin(), r.strays.end(), [&](const Pending& p) { return p.peer == from; }))
      return r.rank;
  return -1;
}

std::string stray_text(const std::vector<Report>& reports, int from, int to, int tag) {
  const std::string sender = "rank " + std::to_string(from), receiver = "rank " + std::to_string(to);
  for (const Report& r : reports)
    if (r.rank == to)
      for (const Pending& p : r.strays)
        if (p.peer == from && p.tag != tag)
          return sender + "'s message did reach " + receiver + ", with tag " + std::to_string(p.tag) + ", and " +
                 receiver + " waits for tag " + std::to_string(tag) + ": the tags do not match.";
  const int at = stray_at(reports, from, to);
  if (at < 0) return "";
  for (const Report& r : reports)
    if (r.rank == at)
      for (const Pending& p : r.strays)
        if (p.peer == from)
          return sender + " sent rank " + std::to_string(at) + " a message (" + bytes_text(p.bytes) + ", tag " +
                 std::to_string(p.tag) + ") that no receive took, and " + receiver + " holds none from it: " + sender +
                 "'s message went to rank " + std::to_string(at) + ".";
  return "";
}

}  // namespace ringlab::watchdog
