// The timeline model: from the events of every rank, where every chunk is at a step (or at a
// time) and what every buffer cell holds. No window, no GL: the app draws what this computes.
//
// Steps. Every collective call becomes a run of frames: "start" (the begin values), one frame
// per (phase, step) the algorithm announced with tc.at(), and "end". A position on the
// scrubber is frame + fraction: at 3.5 the chunks of frame 3 are half-way along their edges.
//
//   frame:   0 start | 1 reduce-scatter 0 | 2 reduce-scatter 1 | ... | 6 allgather 2 | 7 end
//
// Moves. Each send is matched with its recv (first send from a to b with the first recv on b
// from a: MPI keeps that order), so a move runs from the send's start to the recv's end.
//
// Buffers. Replayed as docs/trace-format.md "Replaying a buffer" says: begin values, then
// each reduce and each recv that overwrote a chunk (a recv followed by a reduce of the same
// chunk went to a scratch buffer), per rank in its own order. Each cell also carries the set
// of ranks whose data it holds, so "partly reduced with k contributions" can be drawn.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "ringlab/trace/trace.hpp"

namespace ringlab::viz {

struct Move {
  int src = 0, dst = 0, chunk = -1;
  std::uint64_t bytes = 0;
  double t0 = 0, t1 = 0;  // send posted .. recv completed
  std::string phase;
  int frame = 0;
  std::vector<double> values;  // what was sent (small buffers)
};

struct Frame {
  enum class Kind { start, transfer, end };
  Kind kind = Kind::transfer;
  std::int64_t call = -1;
  std::string coll, phase;
  int step = -1;
  double t0 = 0, t1 = 0;      // earliest start and latest end of its events
  std::vector<int> moves;     // indices into Timeline::moves()
  std::string label() const;  // "call 0 ring_allreduce · reduce-scatter step 1"
};

struct Cell {
  double value = 0;
  bool has_value = false;
  std::uint64_t ranks = 0;  // bit r set: rank r's data is summed into this cell
  int chunk = -1;           // which chunk of the buffer the cell belongs to
  int contributions() const { return __builtin_popcountll(ranks); }
};

struct Buffers {
  std::int64_t call = -1;
  std::string coll;
  std::uint64_t count = 0;              // elements per rank
  bool per_element = false;             // cells are elements (small buffers) rather than chunks
  std::vector<std::vector<Cell>> rows;  // one row per rank
};

struct MoveAt {
  const Move* move;
  float frac;  // 0 at the sender, 1 at the receiver
};

class Timeline {
 public:
  explicit Timeline(int ranks = 1) { reset(ranks); }
  void reset(int ranks);
  void add(const trace::Event& e);  // events of one rank must arrive in that rank's order
  std::size_t event_count() const { return total_; }

  // Live runs keep growing: rebuild the derived views at most every 4x the last rebuild's
  // time, so a long run cannot take the window's frame rate down (off: always up to date).
  void set_throttle(bool on) { throttle_ = on; }
  double last_rebuild_ms() const { return rebuild_ms_; }

  // Derived views, rebuilt when events were added since the last call.
  const std::vector<Frame>& frames();
  const std::vector<Move>& moves();
  std::vector<MoveAt> moves_at(double pos);        // step mode: frame floor(pos), fraction
  std::vector<MoveAt> moves_at_time(double t_us);  // time mode
  int frame_at_time(double t_us);
  double t_min();
  double t_max();
  // Every rank's buffer as the scrubber at `pos` shows it: before the frame's moves land
  // (after them for frames without moves: start and end).
  Buffers buffers_at(double pos);
  Buffers buffers_after(int frame);  // after every event of frames <= frame of that call

 private:
  void rebuild();
  bool due();              // dirty, and (when throttled) enough time since the last rebuild
  Timeline& up_to_date();  // rebuilt first when due()
  int ranks_ = 1;
  std::size_t total_ = 0;
  std::vector<std::vector<trace::Event>> by_rank_;
  bool dirty_ = true;
  bool throttle_ = false;
  double rebuild_ms_ = 0;
  std::chrono::steady_clock::time_point rebuilt_at_{};

  std::vector<Frame> frames_;
  std::vector<Move> moves_;
  std::vector<double> t0_prefix_max_;
  // For each frame, its events as (rank, index in by_rank_[rank]), each rank in its order.
  std::vector<std::vector<std::pair<int, int>>> frame_events_;
  std::vector<std::vector<int>> recv_move_;      // [rank][event] -> matched move, -1 otherwise
  std::vector<std::vector<char>> recv_scratch_;  // [rank][event] -> recv went to a scratch buffer
  std::unordered_map<std::int64_t, int> call_first_frame_;
  double t_min_ = 0, t_max_ = 0;
  int cached_frame_ = -1;
  Buffers cached_;
};

}  // namespace ringlab::viz
