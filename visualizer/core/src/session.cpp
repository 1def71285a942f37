#include "viz/session.hpp"

#include <sstream>

namespace ringlab::viz {

void Run::add(const trace::Event& e) {
  if (e.rank < 0 || e.rank >= header.ranks) return;
  timeline.add(e);
  plots.add(e);
  ++events_per_rank[e.rank];
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
  while (notes_.size() > 200) notes_.pop_front();
}

bool Session::open_file(const std::string& path) {
  LoadedTrace t = load_trace_file(path);
  if (!t.ok()) {
    note(path + ": " + t.error);
    return false;
  }
  for (auto& n : t.notes) note(path + ": " + n);
  if (t.skipped > t.notes.size())
    note(path + ": " + std::to_string(t.skipped - t.notes.size()) + " more bad lines skipped");
  auto run = make_run(*t.header, t.header->program + " " + t.header->args + "  [" + path + "]", false);
  for (const auto& e : t.events) run->add(e);
  runs_.push_back(std::move(run));
  current_ = static_cast<int>(runs_.size()) - 1;
  return true;
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
        r->joined[m.rank] = 1;
        r->conn_rank[m.conn] = m.rank;
        conn_run_[m.conn] = r;
        ++live_joined_;
        break;
      }
      case Incoming::Kind::event: {
        auto it = conn_run_.find(m.conn);
        if (it != conn_run_.end()) it->second->add(m.event);
        break;
      }
      case Incoming::Kind::disconnected: {
        auto it = conn_run_.find(m.conn);
        if (it != conn_run_.end()) {
          it->second->conn_rank.erase(m.conn);
          conn_run_.erase(it);
        }
        note(m.text);
        break;
      }
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
int Session::ranks_seen_live() const { return live_joined_; }
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
