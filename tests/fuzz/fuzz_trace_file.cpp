// libFuzzer harness: a whole trace file, as `ringlab-viz TRACE` reads it, then everything the
// window computes from it: the timeline's frames and moves, every frame's buffers, the plots.
// A file is refused with a reason or loaded with notes; nothing throws, crashes or reads out of
// bounds (built with ASan and UBSan). See tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "viz/plots.hpp"
#include "viz/timeline.hpp"
#include "viz/trace_source.hpp"

using namespace ringlab::viz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  LoadedTrace t = parse_trace(text);
  if (!t.ok()) {
    if (t.error.empty()) std::abort();
    return 0;
  }
  if (t.header->ranks < 1 || t.header->ranks > kMaxRanks) std::abort();
  Timeline tl(t.header->ranks);
  Plots plots(t.header->ranks);
  for (const auto& e : t.events) {
    if (e.rank < 0 || e.rank >= t.header->ranks) std::abort();  // the reader promised this
    tl.add(e);
    plots.add(e);
  }
  const int frames = static_cast<int>(tl.frames().size());
  tl.moves();
  for (int f = 0; f < frames && f < 32; ++f) {
    tl.buffers_after(f);
    tl.buffers_at(f + 0.5);
    tl.moves_at(f + 0.5);
  }
  tl.moves_at_time((tl.t_min() + tl.t_max()) / 2);
  tl.frame_at_time(tl.t_max());
  return 0;
}
