#include "viz/layout.hpp"

#include <algorithm>
#include <cmath>

namespace ringlab::viz {

RingLayout ring_layout(int n, float x0, float y0, float x1, float y1, float em) {
  n = std::clamp(n, 1, 64);
  RingLayout l;
  l.center = {(x0 + x1) / 2, (y0 + y1) / 2};
  const float half = std::max(10.0f, std::min(x1 - x0, y1 - y0) / 2);
  // Discs get smaller as ranks get more numerous, but stay readable; their largest size, and
  // the chunks' boxes, follow the text size `em` so a rank's number fits its disc.
  // A small ring keeps three quarters of its half-size for the circle, so the chunks between
  // the discs have room.
  l.node_radius = std::clamp(std::min(half * 2.2f / static_cast<float>(n + 2), half * 0.22f), 6.0f,
                             std::max(6.0f, em * 1.7f));
  l.radius = std::max(1.0f, half - l.node_radius - 4);
  const float w = std::clamp(l.node_radius * 1.6f, 12.0f, std::max(12.0f, em * 2.3f));
  l.box = {w, std::max(em * 0.77f, w * 0.7f)};
  const float pi = 3.14159265358979f;
  for (int r = 0; r < n; ++r) {
    const float a = -pi / 2 + 2 * pi * static_cast<float>(r) / static_cast<float>(n);
    l.ranks.push_back({l.center.x + l.radius * std::cos(a), l.center.y + l.radius * std::sin(a)});
  }
  return l;
}

Vec2 move_point(const RingLayout& l, int src, int dst, float frac) {
  const int n = static_cast<int>(l.ranks.size());
  if (src < 0 || dst < 0 || src >= n || dst >= n) return l.center;
  const Vec2 a = l.ranks[src], b = l.ranks[dst];
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  // Travel from the rim of one disc to the rim of the other, offset to the right of the way.
  Vec2 p{a.x + dx * frac, a.y + dy * frac};
  if (len > 1e-3f) {
    const float shift = l.box.y * 0.6f;
    p.x += -dy / len * shift;
    p.y += dx / len * shift;
  }
  return p;
}

// The phases' colours are light enough that a chunk's number in near-black on them has a
// contrast of at least 7:1 (--measure checks it).
Rgb phase_colour(const std::string& phase) {
  if (phase == "reduce-scatter" || phase == "reduce") return {245, 130, 60};
  if (phase == "allgather" || phase == "broadcast") return {85, 165, 245};
  if (phase == "forward") return {70, 185, 90};
  if (phase == "backward") return {200, 135, 235};
  if (phase.find("bcast") != std::string::npos || phase.find("broadcast") != std::string::npos ||
      phase.find("gather") != std::string::npos)
    return phase_colour("broadcast");
  if (phase.find("reduce") != std::string::npos) return phase_colour("reduce");
  // Any other phase: a stable colour from its name.
  std::uint32_t h = 2166136261u;
  for (char c : phase) h = (h ^ static_cast<std::uint8_t>(c)) * 16777619u;
  // Every channel at least 160: light enough for a near-black label at 7:1.
  return {static_cast<std::uint8_t>(160 + h % 90), static_cast<std::uint8_t>(160 + (h >> 8) % 90),
          static_cast<std::uint8_t>(160 + (h >> 16) % 90)};
}

// Light cells take near-black numbers, dark ones (empty, own data) white: 7:1 either way.
Rgb cell_colour(int k, int n) {
  if (k <= 0) return {60, 60, 66};
  if (k >= n) return {70, 180, 100};
  if (k == 1) return {50, 65, 105};
  // Partial sums: from pale to deep amber as contributions grow.
  const float t = static_cast<float>(k - 1) / static_cast<float>(std::max(1, n - 2));
  return {static_cast<std::uint8_t>(200 + 45 * t), static_cast<std::uint8_t>(170 - 40 * t),
          static_cast<std::uint8_t>(90 - 30 * t)};
}

Rgb rank_colour(int rank) {
  static const Rgb base[10] = {{31, 119, 180},  {255, 127, 14}, {44, 160, 44},   {214, 39, 40},
                               {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {127, 127, 127},
                               {188, 189, 34},  {23, 190, 207}};
  if (rank >= 0 && rank < 10) return base[rank];
  const float h = std::fmod(static_cast<float>(rank) * 0.618034f, 1.0f) * 6;
  const float x = 1 - std::fabs(std::fmod(h, 2.0f) - 1);
  // The hue's sixth of the colour wheel: one channel full, one rising or falling (x), one off.
  const float sextants[6][3] = {{1, x, 0}, {x, 1, 0}, {0, 1, x}, {0, x, 1}, {x, 0, 1}, {1, 0, x}};
  const int sextant = static_cast<int>(h);
  const float* rgb = sextants[sextant >= 0 && sextant < 5 ? sextant : 5];
  auto c = [](float v) { return static_cast<std::uint8_t>(60 + 170 * v); };
  return {c(rgb[0]), c(rgb[1]), c(rgb[2])};
}

}  // namespace ringlab::viz
