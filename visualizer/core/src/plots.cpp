#include "viz/plots.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ringlab::viz {

void Plots::add(const trace::Event& e) {
  if (e.rank < 0 || e.rank >= ranks_) return;
  using trace::Op;
  if (e.op == Op::metric) {
    metrics_[e.name][e.rank].push_back({static_cast<double>(e.step), e.value});
  } else if (e.op == Op::send || e.op == Op::recv) {
    for (const std::string& key : {std::string(), e.coll}) {
      Traffic& t = traffic_[key];
      t.sent.resize(static_cast<std::size_t>(ranks_));
      t.received.resize(static_cast<std::size_t>(ranks_));
      (e.op == Op::send ? t.sent : t.received)[e.rank] += e.bytes;
      if (key == e.coll) break;  // e.coll empty: counted once
    }
  } else if (e.op == Op::begin) {
    open_[{e.rank, e.call}] = e.t0;
  } else if (e.op == Op::end) {
    auto it = open_.find({e.rank, e.call});
    if (it != open_.end()) {
      collectives_.push_back({e.rank, it->second, e.t0, e.coll, -1, e.call});
      open_.erase(it);
    }
  } else if (e.op == Op::compute) {
    blocks_.push_back({e.rank, e.t0, e.t1, e.name, e.chunk, e.call});
  }
}

const std::vector<Point>* Plots::metric(const std::string& name, int rank) const {
  auto m = metrics_.find(name);
  if (m == metrics_.end()) return nullptr;
  auto r = m->second.find(rank);
  return r == m->second.end() ? nullptr : &r->second;
}

double nice_step(double span, int ticks) {
  if (!(span > 0) || ticks < 1) return 1;
  const double raw = span / ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

Range value_range(const std::vector<const std::vector<Point>*>& series, bool log_scale) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto* s : series)
    for (const auto& p : *s) {
      if (!std::isfinite(p.y) || (log_scale && p.y <= 0)) continue;
      lo = std::min(lo, p.y);
      hi = std::max(hi, p.y);
    }
  if (!std::isfinite(lo)) return log_scale ? Range{0.1, 1} : Range{0, 1};
  if (hi - lo < 1e-12) {
    const double pad = std::max(std::fabs(lo) * 0.1, 1e-6);
    lo -= pad, hi += pad;
    if (log_scale && lo <= 0) lo = hi / 10;
  }
  return {lo, hi};
}

}  // namespace ringlab::viz
