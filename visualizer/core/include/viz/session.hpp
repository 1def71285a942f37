// What the visualizer has open: one or more runs (a trace file, or a live run streamed by a
// lesson), the notes to show the user, and the per-rank event counts printed on exit.
// Several runs can be open at once: the loss plot overlays them (np 1, 2, 4 of lesson 07).
#pragma once
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "viz/plots.hpp"
#include "viz/server.hpp"
#include "viz/timeline.hpp"

namespace ringlab::viz {

struct Run {
  std::string name;  // "lesson_05 --schedule" and where it came from
  bool live = false;
  trace::Header header;
  Timeline timeline;
  Plots plots;
  std::vector<std::size_t> events_per_rank;
  std::map<int, int> conn_rank;  // live: open connections -> rank
  std::vector<char> joined;      // live: ranks that have connected
  void add(const trace::Event& e);
};

class Session {
 public:
  // Loads a trace file as a new run. False (and a note) when the file is refused.
  bool open_file(const std::string& path);
  // Feeds what the server read: live runs start with a header, grow with events.
  void take(std::vector<Incoming> in);
  void note(std::string text);

  std::vector<std::unique_ptr<Run>>& runs() { return runs_; }
  Run* current() { return current_ >= 0 ? runs_[current_].get() : nullptr; }
  int current_index() const { return current_; }
  void select(int i) {
    if (i >= 0 && i < static_cast<int>(runs_.size())) current_ = i;
  }
  const std::deque<std::string>& notes() const { return notes_; }
  std::size_t total_events() const;
  int connected() const;           // open live connections
  int ranks_seen_live() const;     // ranks that connected at some point
  bool live_run_finished() const;  // some rank connected, and every connection has closed
  std::string summary() const;     // per-run, per-rank event counts ("rank 0: 27 events")

 private:
  Run* live_run_for(const trace::Header& h, int rank);
  std::vector<std::unique_ptr<Run>> runs_;
  int current_ = -1;
  std::map<int, Run*> conn_run_;
  std::deque<std::string> notes_;
  int live_joined_ = 0;
};

}  // namespace ringlab::viz
