#include "viz/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "ringlab/base/chunks.hpp"

namespace ringlab::viz {
namespace {
using trace::Op;
constexpr int kStartOrder = -1, kEndOrder = std::numeric_limits<int>::max();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A frame's identity: which call, which phase (in the order the call went through them), step.
using Key = std::tuple<std::int64_t, int, int>;

std::uint64_t bit(int rank) { return rank < 64 ? (std::uint64_t{1} << rank) : 0; }
}  // namespace

std::string Frame::label() const {
  std::string s = call >= 0 ? "call " + std::to_string(call) + " " : "";
  s += coll.empty() ? "(no collective)" : coll;
  if (kind == Kind::start) return s + " · start";
  if (kind == Kind::end) return s + " · end";
  s += " · " + (phase.empty() ? std::string("transfer") : phase);
  if (step >= 0) s += " step " + std::to_string(step);
  return s;
}

void Timeline::reset(int ranks) {
  ranks_ = std::max(1, ranks);
  by_rank_.assign(static_cast<std::size_t>(ranks_), {});
  total_ = 0;
  dirty_ = true;
}

void Timeline::add(const trace::Event& e) {
  if (e.rank < 0 || e.rank >= ranks_) return;  // callers validate; never index out of range
  by_rank_[e.rank].push_back(e);
  ++total_;
  dirty_ = true;
}

Timeline& Timeline::up_to_date() {
  if (due()) rebuild();
  return *this;
}
const std::vector<Frame>& Timeline::frames() { return up_to_date().frames_; }
const std::vector<Move>& Timeline::moves() { return up_to_date().moves_; }
double Timeline::t_min() { return up_to_date().t_min_; }
double Timeline::t_max() { return up_to_date().t_max_; }

bool Timeline::due() {
  if (!dirty_) return false;
  if (!throttle_ || frames_.empty()) return true;
  const double since =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - rebuilt_at_).count();
  return since >= 4 * rebuild_ms_;
}

void Timeline::rebuild() {
  const auto start = std::chrono::steady_clock::now();
  dirty_ = false;
  cached_frame_ = -1;
  moves_.clear();
  call_first_frame_.clear();
  recv_move_.assign(by_rank_.size(), {});
  recv_scratch_.assign(by_rank_.size(), {});

  // 0. Each rank's events in the order they started. A live stream delivers them in the order
  //    they were recorded (a non-blocking send is recorded when it is waited for, perhaps much
  //    later); MPI matches messages in the order they were posted, and so must we.
  for (auto& evs : by_rank_)
    std::stable_sort(evs.begin(), evs.end(),
                     [](const trace::Event& a, const trace::Event& b) { return a.t0 < b.t0; });

  // 1. Give every event its frame key. Phases are numbered per call in the order they appear.
  std::map<std::int64_t, std::map<std::string, int>> phase_order;
  auto order_of = [&](std::int64_t call, const std::string& phase) {
    auto& m = phase_order[call];
    auto it = m.find(phase);
    if (it == m.end()) it = m.emplace(phase, static_cast<int>(m.size())).first;
    return it->second;
  };
  std::map<Key, int> key_ids;
  auto key_id = [&](const Key& k) {
    return key_ids.emplace(k, static_cast<int>(key_ids.size())).first->second;
  };
  std::vector<std::vector<int>> event_key(by_rank_.size());
  for (std::size_t r = 0; r < by_rank_.size(); ++r) {
    int current = -1;
    for (const auto& e : by_rank_[r]) {
      int k = -1;
      switch (e.op) {
        case Op::begin:
          k = current = key_id({e.call, kStartOrder, 0});
          break;
        case Op::end:
          k = key_id({e.call, kEndOrder, 0});
          current = -1;
          break;
        case Op::send:
        case Op::recv:
          k = current = key_id({e.call, order_of(e.call, e.phase), e.step});
          break;
        case Op::reduce:
        case Op::copy:
          // Their own step when they carry one; older traces recorded them without a phase:
          // then they belong to the step whose transfer came just before.
          if (e.call >= 0 && !e.phase.empty()) k = key_id({e.call, order_of(e.call, e.phase), e.step});
          else k = current;
          break;
        default:
          break;
      }
      event_key[r].push_back(k);
    }
  }

  // 2. Frames in key order (call, phase order, step): the order the map keeps its keys in.
  std::vector<int> frame_of_key(key_ids.size());
  frames_.clear();
  frame_events_.assign(key_ids.size(), {});
  for (const auto& [key, id] : key_ids) {
    const auto& [call, order, step] = key;
    const bool begins = order == kStartOrder, ends = order == kEndOrder;
    frame_of_key[id] = static_cast<int>(frames_.size());
    call_first_frame_.emplace(call, frame_of_key[id]);  // sorted, so the first one stays
    Frame& fr = frames_.emplace_back();
    fr.kind = begins ? Frame::Kind::start : ends ? Frame::Kind::end : Frame::Kind::transfer;
    fr.call = call;
    fr.step = begins || ends ? -1 : step;
    fr.t0 = kInf, fr.t1 = -kInf;  // widened by the frame's events below
  }
  t_min_ = kInf;
  t_max_ = -kInf;
  for (std::size_t r = 0; r < by_rank_.size(); ++r) {
    for (std::size_t i = 0; i < by_rank_[r].size(); ++i) {
      const auto& e = by_rank_[r][i];
      t_min_ = std::min(t_min_, e.t0);
      t_max_ = std::max(t_max_, e.t1);
      if (event_key[r][i] < 0) continue;
      const int f = frame_of_key[event_key[r][i]];
      event_key[r][i] = f;  // from here on: the frame index
      Frame& fr = frames_[f];
      fr.t0 = std::min(fr.t0, e.t0);
      fr.t1 = std::max(fr.t1, e.t1);
      if (fr.coll.empty() && !e.coll.empty()) fr.coll = e.coll;
      if (fr.phase.empty() && (e.op == Op::send || e.op == Op::recv)) fr.phase = e.phase;
      frame_events_[f].emplace_back(static_cast<int>(r), static_cast<int>(i));
    }
  }
  if (total_ == 0) t_min_ = t_max_ = 0;

  // 3. Moves: every send, matched first-in first-out with the recvs of the same pair.
  std::map<std::pair<int, int>, std::deque<int>> in_flight;
  for (std::size_t r = 0; r < by_rank_.size(); ++r) {
    for (std::size_t i = 0; i < by_rank_[r].size(); ++i) {
      const auto& e = by_rank_[r][i];
      if (e.op != Op::send || e.peer < 0 || e.peer >= ranks_ || event_key[r][i] < 0) continue;
      Move m{static_cast<int>(r), e.peer, e.chunk, e.bytes, e.t0, e.t1, e.phase, event_key[r][i], e.values};
      in_flight[{m.src, m.dst}].push_back(static_cast<int>(moves_.size()));
      moves_.push_back(std::move(m));
    }
  }
  for (std::size_t r = 0; r < by_rank_.size(); ++r) {
    const auto& evs = by_rank_[r];
    // The (call, phase, step, chunk) of every reduction on this rank: a recv with the same is
    // one that went to a scratch buffer and was added in.
    std::set<std::tuple<std::int64_t, std::string, int, int>> reduced;
    for (const auto& e : evs)
      if (e.op == Op::reduce && e.call >= 0 && !e.phase.empty())
        reduced.insert({e.call, e.phase, e.step, e.chunk});
    recv_move_[r].assign(evs.size(), -1);
    recv_scratch_[r].assign(evs.size(), 0);
    for (std::size_t i = 0; i < evs.size(); ++i) {
      const auto& e = evs[i];
      if (e.op != Op::recv || e.peer < 0 || e.peer >= ranks_ || event_key[r][i] < 0) continue;
      auto& q = in_flight[{e.peer, static_cast<int>(r)}];
      int m;
      if (!q.empty()) {
        m = q.front();
        q.pop_front();
        moves_[m].t1 = std::max(moves_[m].t1, e.t1);
      } else {  // the sender's events are missing (it disconnected): draw the move anyway
        m = static_cast<int>(moves_.size());
        moves_.push_back(Move{e.peer, static_cast<int>(r), e.chunk, e.bytes, e.t0, e.t1, e.phase,
                              event_key[r][i], e.values});
      }
      recv_move_[r][i] = m;
      // Scratch or in place? A reduce of the same chunk in the same step (or, in traces whose
      // reductions carry no step, before this rank's next transfer) means the data went to a
      // scratch buffer and was added in.
      char& scratch = recv_scratch_[r][i];
      scratch = reduced.count({e.call, e.phase, e.step, e.chunk}) > 0;
      for (std::size_t j = i + 1; !scratch && j < evs.size(); ++j) {
        const Op op = evs[j].op;
        if (op == Op::send || op == Op::recv || op == Op::begin || op == Op::end) break;
        scratch = op == Op::reduce && evs[j].chunk == e.chunk;
      }
    }
  }
  for (std::size_t m = 0; m < moves_.size(); ++m)
    frames_[moves_[m].frame].moves.push_back(static_cast<int>(m));

  // 4. For time lookups: the latest frame start at or before each frame.
  t0_prefix_max_.resize(frames_.size());
  double best = -kInf;
  for (std::size_t f = 0; f < frames_.size(); ++f) {
    if (std::isfinite(frames_[f].t0)) best = std::max(best, frames_[f].t0);
    t0_prefix_max_[f] = best;
  }
  rebuilt_at_ = std::chrono::steady_clock::now();
  rebuild_ms_ = std::chrono::duration<double, std::milli>(rebuilt_at_ - start).count();
}

std::vector<MoveAt> Timeline::moves_at(double pos) {
  if (due()) rebuild();
  std::vector<MoveAt> out;
  if (frames_.empty()) return out;
  const int f = std::clamp(static_cast<int>(std::floor(pos)), 0, static_cast<int>(frames_.size()) - 1);
  const float frac = static_cast<float>(std::clamp(pos - f, 0.0, 1.0));
  for (int m : frames_[f].moves) out.push_back({&moves_[m], frac});
  return out;
}

int Timeline::frame_at_time(double t) {
  if (due()) rebuild();
  if (frames_.empty()) return 0;
  auto it = std::upper_bound(t0_prefix_max_.begin(), t0_prefix_max_.end(), t);
  return std::max(0, static_cast<int>(it - t0_prefix_max_.begin()) - 1);
}

std::vector<MoveAt> Timeline::moves_at_time(double t) {
  std::vector<MoveAt> out;
  const int f = frame_at_time(t);
  if (frames_.empty()) return out;
  for (int m : frames_[f].moves) {
    const Move& mv = moves_[m];
    const double len = mv.t1 - mv.t0;
    const double frac = len > 0 ? (t - mv.t0) / len : 1.0;
    out.push_back({&mv, static_cast<float>(std::clamp(frac, 0.0, 1.0))});
  }
  return out;
}

Buffers Timeline::buffers_at(double pos) {
  if (due()) rebuild();
  if (frames_.empty()) return {};
  const int f = std::clamp(static_cast<int>(std::floor(pos)), 0, static_cast<int>(frames_.size()) - 1);
  // Before this frame's moves land: the state after the previous frame, if it is the same call.
  const bool before_moves = f > 0 && !frames_[f].moves.empty() && frames_[f - 1].call == frames_[f].call;
  return buffers_after(before_moves ? f - 1 : f);
}

Buffers Timeline::buffers_after(int target) {
  if (due()) rebuild();
  if (target < 0 || target >= static_cast<int>(frames_.size())) return {};
  if (target == cached_frame_) return cached_;
  const std::int64_t call = frames_[target].call;
  const int first = call_first_frame_.at(call);

  Buffers b;
  b.call = call;
  b.coll = frames_[target].coll;
  // Elements per rank, from the call's begin events.
  for (int f = first; f <= target && b.count == 0; ++f)
    for (auto [r, i] : frame_events_[f])
      if (by_rank_[r][i].op == Op::begin) b.count = std::max(b.count, by_rank_[r][i].count);
  b.per_element = b.count > 0 && b.count <= trace::kMaxTracedValues;
  const std::size_t ncells = b.per_element ? b.count : (b.count > 0 ? static_cast<std::size_t>(ranks_) : 0);
  b.rows.assign(static_cast<std::size_t>(ranks_), std::vector<Cell>(ncells));
  for (auto& row : b.rows)
    for (std::size_t c = 0; c < ncells; ++c) {
      if (!b.per_element) row[c].chunk = static_cast<int>(c);
      else
        for (int k = 0; k < ranks_; ++k) {
          const Chunk ch = chunk_of(b.count, ranks_, k);
          if (c >= ch.offset && c < ch.offset + ch.count) row[c].chunk = k;
        }
    }

  // The cells [lo, hi) a chunk index covers; -1 is the whole buffer.
  // (Never outside the row: events may come without a begin, e.g. a viewer that joined late.)
  auto range = [&](int chunk, std::size_t& lo, std::size_t& hi) {
    if (ncells == 0 || chunk >= ranks_) return false;  // an unknown chunk index touches nothing
    if (chunk < 0) {
      lo = 0, hi = ncells;
    } else if (!b.per_element) {
      lo = static_cast<std::size_t>(chunk), hi = lo + 1;
    } else {
      const Chunk ch = chunk_of(b.count, ranks_, chunk);
      lo = ch.offset, hi = ch.offset + ch.count;
    }
    hi = std::min(hi, ncells);
    lo = std::min(lo, hi);
    return true;
  };
  auto set_values = [&](std::vector<Cell>& row, std::size_t lo, std::size_t hi,
                        const std::vector<double>& v) {
    if (!b.per_element) return;
    if (v.size() == hi - lo) {
      for (std::size_t c = lo; c < hi; ++c) row[c].value = v[c - lo], row[c].has_value = true;
    } else if (v.size() == ncells) {
      for (std::size_t c = 0; c < ncells; ++c) row[c].value = v[c], row[c].has_value = true;
    }
  };

  std::vector<std::uint64_t> move_ranks(moves_.size(), 0);
  std::vector<std::map<int, std::uint64_t>> pending(static_cast<std::size_t>(ranks_));
  for (int f = first; f <= target; ++f) {
    // What each move carries: the sender's cells when the step started.
    for (int m : frames_[f].moves) {
      std::size_t lo, hi;
      if (!range(moves_[m].chunk, lo, hi)) continue;
      for (std::size_t c = lo; c < hi; ++c) move_ranks[m] |= b.rows[moves_[m].src][c].ranks;
      if (lo == hi) move_ranks[m] = bit(moves_[m].src);  // empty chunk: still one contribution
    }
    for (auto [r, i] : frame_events_[f]) {
      const auto& e = by_rank_[r][i];
      auto& row = b.rows[r];
      std::size_t lo, hi;
      switch (e.op) {
        case Op::begin:
          for (auto& cell : row) cell.ranks = bit(r), cell.has_value = false;
          set_values(row, 0, ncells, e.values);
          break;
        case Op::end:
          set_values(row, 0, ncells, e.values);
          break;
        case Op::copy:
          if (range(e.chunk, lo, hi)) set_values(row, lo, hi, e.values);
          break;
        case Op::recv: {
          const int m = recv_move_[r][i];
          const std::uint64_t carried = m >= 0 ? move_ranks[m] : 0;
          if (recv_scratch_[r][i]) {
            pending[r][e.chunk] |= carried;
          } else if (range(e.chunk, lo, hi)) {
            for (std::size_t c = lo; c < hi; ++c) row[c].ranks = carried;
            set_values(row, lo, hi, e.values);
          }
          break;
        }
        case Op::reduce:
          if (range(e.chunk, lo, hi)) {
            const std::uint64_t added = pending[r][e.chunk];
            pending[r].erase(e.chunk);
            for (std::size_t c = lo; c < hi; ++c) row[c].ranks |= added;
            set_values(row, lo, hi, e.values);
          }
          break;
        default:
          break;
      }
    }
  }
  cached_frame_ = target;
  cached_ = b;
  return b;
}

}  // namespace ringlab::viz
