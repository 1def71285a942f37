// Where things go on screen, and in which colour: ranks on a circle, chunks on the edges
// between them. Pure arithmetic, so the screenshot test can ask where a chunk must be drawn.
//
//              rank 0
//          7 .-'    '-. 1        ranks clockwise from the top; a chunk moving from a to b
//          |            |        sits at lerp(a, b, frac), shifted a little to the right of
//          6 '-.    .-' 2        its direction so that a->b and b->a do not cover each other
//               ...
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ringlab::viz {

struct Vec2 {
  float x = 0, y = 0;
};

struct RingLayout {
  Vec2 center;
  float radius = 1;         // of the circle the ranks sit on
  std::vector<Vec2> ranks;  // rank positions
  float node_radius = 10;   // a rank's disc
  Vec2 box{24, 16};         // a chunk's box (width, height)
};

// n ranks (1..64) on a circle that fits the rectangle [x0, x1] x [y0, y1], for labels `em`
// pixels high (Dear ImGui's built-in font is 13).
RingLayout ring_layout(int n, float x0, float y0, float x1, float y1, float em = 13);
// The centre of a chunk moving from `src` to `dst`, `frac` of the way.
Vec2 move_point(const RingLayout& l, int src, int dst, float frac);

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  std::uint32_t abgr(std::uint8_t a = 255) const {  // ImGui's IM_COL32 packing
    return (std::uint32_t(a) << 24) | (std::uint32_t(b) << 16) | (std::uint32_t(g) << 8) | r;
  }
};

// Colours of phases: reduce-scatter (and a naive reduce) warm, allgather (and broadcast) cool.
Rgb phase_colour(const std::string& phase);
// A buffer cell holding k of n ranks' contributions: own data grey-blue, partial amber, full green.
Rgb cell_colour(int k, int n);
// One colour per rank (plots, pipeline rows); distinct for the first 10, then cycling hues.
Rgb rank_colour(int rank);

}  // namespace ringlab::viz
