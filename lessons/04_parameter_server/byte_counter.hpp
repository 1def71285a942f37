// Lesson 04's bytes table counts what really crossed the wire: the sends and receives the trace
// records (core/include/ringlab/trace/trace.hpp), per collective name, on this rank.
#pragma once
#include <map>
#include <string>
#include <utility>

#include "ringlab/ringlab.hpp"

namespace lesson04 {

// Bytes this rank sent and received, per collective name.
struct ByteCounter {
  std::map<std::string, std::pair<double, double>> by_coll;  // sent, received
  void attach() {
    using namespace ringlab;
    trace::add_sink([this](const trace::Event& e) {
      if (e.op == trace::Op::send) by_coll[e.coll].first += static_cast<double>(e.bytes);
      if (e.op == trace::Op::recv) by_coll[e.coll].second += static_cast<double>(e.bytes);
    });
  }
  // Sent and received by collective `coll`, per step of `steps` (0, 0 when it sent nothing).
  std::pair<double, double> per_step(const char* coll, int steps) const {
    auto it = by_coll.find(coll);
    const auto v = it == by_coll.end() ? std::pair<double, double>{0, 0} : it->second;
    return std::pair<double, double>{v.first / steps, v.second / steps};
  }
};

}  // namespace lesson04
