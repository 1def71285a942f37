// Plot data gathered from events as they arrive: metrics per rank and step (loss, lr, ...),
// bytes each rank sent and received (per collective), and compute blocks for the pipeline chart.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ringlab/trace/trace.hpp"

namespace ringlab::viz {

struct Point {
  double x, y;
};

struct Block {  // one stretch of computation: a row per rank, time on the x axis
  int rank;
  double t0, t1;
  std::string name;   // forward, backward, ...
  int chunk;          // microbatch
  std::int64_t call;  // the collective call it belongs to (-1: none)
};

struct Traffic {
  std::vector<std::uint64_t> sent, received;  // per rank
};

class Plots {
 public:
  explicit Plots(int ranks = 1) : ranks_(ranks) {}
  void add(const trace::Event& e);
  // One rank's points of a metric (x = step, y = value), in arrival order; null: none.
  const std::vector<Point>* metric(const std::string& name, int rank) const;
  // collective name ("" = all of them) -> bytes per rank
  const std::map<std::string, Traffic>& traffic() const { return traffic_; }
  const std::vector<Block>& blocks() const { return blocks_; }
  // Each collective from its begin to its end event, per rank (name = the collective): drawn
  // under the compute blocks, so that communication overlapping computation shows (lesson 08).
  const std::vector<Block>& collectives() const { return collectives_; }

 private:
  int ranks_;
  std::map<std::string, std::map<int, std::vector<Point>>> metrics_;  // name -> rank -> points
  std::map<std::string, Traffic> traffic_;
  std::vector<Block> blocks_, collectives_;
  std::map<std::pair<int, std::int64_t>, double> open_;  // (rank, call) -> begin time
};

// Axis helpers for the plots the app draws: "nice" tick steps and the value range of series.
double nice_step(double span, int ticks);
struct Range {
  double lo = 0, hi = 1;
};
Range value_range(const std::vector<const std::vector<Point>*>& series, bool log_scale);

}  // namespace ringlab::viz
