#include "viz/session.hpp"

#include <sstream>
#include <utility>

namespace ringlab::viz {

bool Run::add(const trace::Event& e) {
  if (e.rank < 0 || e.rank >= header.ranks) return false;
  timeline.add(e);
  plots.add(e);
  ++events_per_rank[e.rank];
  return true;
}

namespace {
std::unique_ptr<Run> make_run(const trace::Header& h, std::string name, bool live) {
  auto run = std::make_unique<Run>();
  run->header = h;
  run->name = std::move(name);
  run->live = live;
  run->timeline.reset(h.ranks);
  run->plots = Plots(h.ranks);
  run->events_per_rank.assign(static_cast<std::size_t>(h.ranks), 0);
  run->joined.assign(static_cast<std::size_t>(h.ranks), 0);
  return run;
}
}  // namespace

void Session::note(std::string text) {
  notes_.push_back(std::move(text));
  ++notes_added_;
  while (notes_.size() > 200) notes_.pop_front();
}

bool Session::open_file(const std::string& path) {
  LoadedTrace t = load_trace_file(path);
  if (!t.ok()) {
    note(path + ": " + t.error);
    return false;
  }
  // A few bad lines (a run killed mid-write, a line mangled in a copy) do not stop the rest
  // from loading; one note says how many, and the first reason.
  if (t.skipped > 0)
    note(path + ": " + std::to_string(t.skipped) + (t.skipped == 1 ? " bad line" : " bad lines") +
         " skipped (first: " + t.notes.front() + ")");
  if (!make_room_for_a_run()) {
    note(path + ": not opened: already " + std::to_string(runs_.size()) + " runs open");
    return false;
  }
  auto run = make_run(*t.header, t.header->program + " " + t.header->args + "  [" + path + "]", false);
  std::size_t kept = 0;
  for (const auto& e : t.events) {
    if (held_ >= limits_.max_events) break;
    if (run->add(e)) ++held_;
    ++kept;
  }
  if (kept < t.events.size())
    note(path + ": only the first " + std::to_string(kept) + " of " + std::to_string(t.events.size()) +
         " events loaded (the visualizer holds " + std::to_string(limits_.max_events) + " at most)");
  runs_.push_back(std::move(run));
  current_ = static_cast<int>(runs_.size()) - 1;
  return true;
}

// At the run limit, the oldest run no connection is feeding is closed to make room.
bool Session::make_room_for_a_run() {
  if (runs_.size() < limits_.max_runs) return true;
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    if (!runs_[i]->conn_rank.empty()) continue;
    held_ -= runs_[i]->timeline.event_count();
    note("closed the oldest run (" + runs_[i]->name + "): " + std::to_string(limits_.max_runs) +
         " runs are open at most");
    runs_.erase(runs_.begin() + static_cast<std::ptrdiff_t>(i));
    const int removed = static_cast<int>(i);
    if (current_ > removed) --current_;
    else if (current_ == removed) current_ = runs_.empty() ? -1 : static_cast<int>(runs_.size()) - 1;
    return true;
  }
  return false;
}

void Session::forget(int conn) {
  if (auto it = conn_run_.find(conn); it != conn_run_.end()) {
    it->second->conn_rank.erase(conn);
    conn_run_.erase(it);
  }
}

void Session::drop(int conn, const std::string& why) {
  note(why);
  to_close_.push_back(conn);
  forget(conn);
}

std::vector<int> Session::take_conns_to_close() { return std::exchange(to_close_, {}); }

void pump(Server& server, Session& session, int timeout_ms) {
  session.take(server.poll(timeout_ms));
  for (int conn : session.take_conns_to_close()) server.close(conn);
}

Run* Session::live_run_for(const trace::Header& h, int rank) {
  // Join the newest live run of the same program if this rank has not connected to it yet;
  // otherwise a new run starts (the next launch of a lesson).
  for (auto it = runs_.rbegin(); it != runs_.rend(); ++it) {
    Run& r = **it;
    if (!r.live) continue;
    if (r.header.ranks == h.ranks && r.header.program == h.program && r.header.args == h.args &&
        !r.joined[rank])
      return &r;
    break;
  }
  if (!make_room_for_a_run()) return nullptr;
  runs_.push_back(make_run(h, h.program + " " + h.args + "  [live]", true));
  runs_.back()->timeline.set_throttle(true);
  current_ = static_cast<int>(runs_.size()) - 1;
  return runs_.back().get();
}

void Session::take(std::vector<Incoming> in) {
  for (auto& m : in) {
    switch (m.kind) {
      case Incoming::Kind::header: {
        Run* r = live_run_for(m.header, m.rank);
        if (!r) {
          drop(m.conn, "rank " + std::to_string(m.rank) + " refused: " + std::to_string(runs_.size()) +
                           " runs are open, each still connected; closed");
          break;
        }
        r->joined[m.rank] = 1;
        r->conn_rank[m.conn] = m.rank;
        conn_run_[m.conn] = r;
        ++live_joined_;
        break;
      }
      case Incoming::Kind::event: {
        auto it = conn_run_.find(m.conn);
        if (it == conn_run_.end()) break;
        if (held_ >= limits_.max_events) {
          drop(m.conn,
               "rank " + std::to_string(m.rank) + ": the visualizer holds " +
                   std::to_string(limits_.max_events) +
                   " events at most (close some runs, or start it with a larger --max-events); closed");
          break;
        }
        if (it->second->add(m.event)) ++held_;
        break;
      }
      case Incoming::Kind::disconnected:
        forget(m.conn);
        note(m.text);
        break;
      case Incoming::Kind::note:
        note(m.text);
        break;
    }
  }
}

std::size_t Session::total_events() const {
  std::size_t n = 0;
  for (const auto& r : runs_) n += r->timeline.event_count();
  return n;
}

int Session::connected() const { return static_cast<int>(conn_run_.size()); }
bool Session::live_run_finished() const { return live_joined_ > 0 && conn_run_.empty(); }

std::string Session::summary() const {
  std::ostringstream s;
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    const Run& r = *runs_[i];
    s << "run " << i << ": " << r.name << ", " << r.header.ranks << " ranks, " << r.timeline.event_count()
      << " events\n";
    for (int k = 0; k < r.header.ranks; ++k)
      s << "  rank " << k << ": " << r.events_per_rank[k] << " events\n";
  }
  if (runs_.empty()) s << "no runs\n";
  return s.str();
}

}  // namespace ringlab::viz
