// Checks a ringlab-viz screenshot of a ring allreduce: at reduce-scatter (or allgather) step
// s, every rank r's chunk must be drawn in that phase's colour half-way along the edge
// r -> r+1, and not on the way back (r+1 -> r). Positions come from the same layout code the
// window used, given the ring's rectangle the screenshot mode printed; the schedule and the
// colours are what the trace format and lesson 05 say they are.
//   viz_png_check PNG X0 Y0 X1 Y1 RANKS PHASE [EM]     (EM: the text height the window drew with)
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "viz/layout.hpp"

using namespace ringlab::viz;

int main(int argc, char** argv) {
  if (argc != 8 && argc != 9) {
    std::fprintf(stderr, "usage: viz_png_check PNG X0 Y0 X1 Y1 RANKS PHASE [EM]\n");
    return 2;
  }
  int w, h, ch;
  unsigned char* img = stbi_load(argv[1], &w, &h, &ch, 3);
  if (!img) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  const float x0 = std::atof(argv[2]), y0 = std::atof(argv[3]), x1 = std::atof(argv[4]),
              y1 = std::atof(argv[5]);
  const int n = std::atoi(argv[6]);
  const std::string phase = argv[7];
  const RingLayout l = argc == 9 ? ring_layout(n, x0, y0, x1, y1, std::atof(argv[8])) : ring_layout(n, x0, y0, x1, y1);
  const Rgb want = phase_colour(phase);
  // Is there a pixel of colour `c` within a few pixels of (x, y)? (Anti-aliasing and the
  // label in the box's middle are why we look at the left part of the box, not one pixel.)
  auto colour_near = [&](Vec2 p, Rgb c) {
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx) {
        const int x = static_cast<int>(p.x - l.box.x / 2 + 4) + dx, y = static_cast<int>(p.y) + dy;
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        const unsigned char* px = img + (static_cast<std::size_t>(y) * w + x) * 3;
        if (std::abs(px[0] - c.r) <= 6 && std::abs(px[1] - c.g) <= 6 && std::abs(px[2] - c.b) <= 6)
          return true;
      }
    return false;
  };
  int bad = 0;
  for (int r = 0; r < n; ++r) {
    const int next = (r + 1) % n;
    const Vec2 forward = move_point(l, r, next, 0.5f), backward = move_point(l, next, r, 0.5f);
    const bool on_edge = colour_near(forward, want), on_wrong_side = colour_near(backward, want);
    std::printf("rank %d -> %d: %s chunk at (%.0f, %.0f): %s; on the way back: %s\n", r, next, phase.c_str(),
                forward.x, forward.y, on_edge ? "found" : "MISSING",
                on_wrong_side ? "FOUND (wrong)" : "none");
    bad += !on_edge + on_wrong_side;
  }
  // The centre of the ring is empty: no chunk drawn there.
  if (colour_near(l.center, want)) {
    std::printf("a chunk colour at the ring's centre: wrong\n");
    ++bad;
  }
  stbi_image_free(img);
  std::printf("%s\n", bad ? "FAILED" : "ok");
  return bad ? 1 : 0;
}
