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
  std::map<int, int> conn_rank;     // live: open connections -> rank
  std::vector<char> joined;         // live: ranks that have connected
  bool add(const trace::Event& e);  // false: not one of this run's ranks
};

// What the visualizer holds at most, so that a client streaming forever (or reconnecting in a
// loop) cannot grow it without bound. Over a limit: a note, and the connection is closed.
struct Limits {
  std::size_t max_events = 1'000'000;  // events held over all runs (~300 bytes each: ~300 MB)
  std::size_t max_runs = 32;           // runs open at once; the oldest finished one makes room
};

class Session {
 public:
  Session() = default;
  explicit Session(Limits limits) : limits_(limits) {}
  // Loads a trace file as a new run. False (and a note) when the file is refused.
  bool open_file(const std::string& path);
  // Feeds what the server read: live runs start with a header, grow with events.
  void take(std::vector<Incoming> in);
  // Connections the session wants closed (over a limit), since the last call.
  std::vector<int> take_conns_to_close();
  void note(std::string text);

  std::vector<std::unique_ptr<Run>>& runs() { return runs_; }
  Run* current() { return current_ >= 0 ? runs_[current_].get() : nullptr; }
  int current_index() const { return current_; }
  void select(int i) {
    if (i >= 0 && i < static_cast<int>(runs_.size())) current_ = i;
  }
  const std::deque<std::string>& notes() const { return notes_; }  // the last 200
  std::size_t notes_added() const { return notes_added_; }         // ever
  std::size_t total_events() const;
  int connected() const;           // open live connections
  bool live_run_finished() const;  // some rank connected, and every connection has closed
  std::string summary() const;     // per-run, per-rank event counts ("rank 0: 27 events")

 private:
  Run* live_run_for(const trace::Header& h, int rank);
  std::vector<std::unique_ptr<Run>> runs_;
  int current_ = -1;
  std::map<int, Run*> conn_run_;
  std::deque<std::string> notes_;
  std::size_t notes_added_ = 0;
  int live_joined_ = 0;
  Limits limits_;
  std::size_t held_ = 0;  // events in all runs
  std::vector<int> to_close_;
  bool make_room_for_a_run();
  void forget(int conn);                        // a connection that ended: no run's any more
  void drop(int conn, const std::string& why);  // refused: noted, forgotten, to be closed
};

// Polls the server (up to `timeout_ms`) into the session, and closes what the session refused.
void pump(Server& server, Session& session, int timeout_ms);

}  // namespace ringlab::viz
