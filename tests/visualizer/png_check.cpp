// Pixel checks on the pictures the tests make, one subcommand per kind of picture. Each prints
// what it found; exit 0 when the check holds, 1 when it does not, 2 on bad usage.
//   png_check ring PNG X0 Y0 X1 Y1 RANKS PHASE [EM]
//     A ringlab-viz screenshot of a ring allreduce: at reduce-scatter (or allgather) step s,
//     every rank r's chunk is drawn in that phase's colour half-way along the edge r -> r+1, and
//     not on the way back (r+1 -> r). Positions come from the same layout code the window used,
//     given the ring's rectangle the screenshot mode printed (EM: the text height it drew with);
//     the schedule and the colours are what the trace format and lesson 05 say they are.
//   png_check colour PNG X0 Y0 X1 Y1 R G B [MIN]   a slide: at least MIN pixels (default 1) of
//                                                 [X0,X1)x[Y0,Y1) near (R,G,B): text is there
//   png_check empty PNG X0 Y0 X1 Y1 R G B          no pixel there differs: nothing was drawn
//   png_check plot PNG MIN_W MIN_H RRGGBB:MIN...    a study plot: at least MIN_W x MIN_H, and each
//     series' colour (the scripts fix them: #d62728, #1f77b4, #2ca02c) covers at least MIN
//     pixels, so a plot with a missing or empty series fails, not only a missing file.
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "viz/layout.hpp"

using namespace ringlab::viz;

namespace {
struct Image {
  int w = 0, h = 0;
  unsigned char* px = nullptr;  // RGB, top row first
  const unsigned char* at(int x, int y) const { return px + (static_cast<std::size_t>(y) * w + x) * 3; }
};

int ring(const Image& img, int argc, char** argv) {
  const float x0 = std::atof(argv[1]), y0 = std::atof(argv[2]), x1 = std::atof(argv[3]),
              y1 = std::atof(argv[4]);
  const int n = std::atoi(argv[5]);
  const std::string phase = argv[6];
  const RingLayout l =
      argc == 8 ? ring_layout(n, x0, y0, x1, y1, std::atof(argv[7])) : ring_layout(n, x0, y0, x1, y1);
  const Rgb want = phase_colour(phase);
  // Is there a pixel of colour `c` within a few pixels of (x, y)? (Anti-aliasing and the
  // label in the box's middle are why we look at the left part of the box, not one pixel.)
  auto colour_near = [&](Vec2 p, Rgb c) {
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx) {
        const int x = static_cast<int>(p.x - l.box.x / 2 + 4) + dx, y = static_cast<int>(p.y) + dy;
        if (x < 0 || y < 0 || x >= img.w || y >= img.h) continue;
        const unsigned char* px = img.at(x, y);
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
  std::printf("%s\n", bad ? "FAILED" : "ok");
  return bad ? 1 : 0;
}

int region(const Image& img, const std::string& check, int argc, char** argv) {
  const int x0 = std::atoi(argv[1]), y0 = std::atoi(argv[2]), x1 = std::atoi(argv[3]),
            y1 = std::atoi(argv[4]);
  const int r = std::atoi(argv[5]), g = std::atoi(argv[6]), b = std::atoi(argv[7]);
  const int min = argc > 8 ? std::atoi(argv[8]) : 1;
  const int tol = check == "empty" ? 3 : 30;  // text is anti-aliased: its edges blend
  long near = 0, total = 0;
  for (int y = std::max(0, y0); y < std::min(img.h, y1); ++y)
    for (int x = std::max(0, x0); x < std::min(img.w, x1); ++x) {
      const unsigned char* p = img.at(x, y);
      near += std::abs(p[0] - r) <= tol && std::abs(p[1] - g) <= tol && std::abs(p[2] - b) <= tol;
      ++total;
    }
  std::printf("%s %dx%d: %ld of %ld pixels in [%d,%d)x[%d,%d) near (%d,%d,%d)\n", argv[0], img.w, img.h, near,
              total, x0, x1, y0, y1, r, g, b);
  return (check == "empty" ? near == total : near >= min) ? 0 : 1;
}

int plot(const Image& img, int argc, char** argv) {
  bool ok = true;
  if (img.w < std::atoi(argv[1]) || img.h < std::atoi(argv[2])) {
    std::printf("FAILED: %s is %dx%d, expected at least %sx%s\n", argv[0], img.w, img.h, argv[1], argv[2]);
    ok = false;
  }
  for (int a = 3; a < argc; ++a) {
    const std::string spec = argv[a];
    const long rgb = std::strtol(spec.substr(0, 6).c_str(), nullptr, 16);
    const long want = std::atol(spec.substr(7).c_str());
    const int r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
    long count = 0;
    for (long i = 0; i < long(img.w) * img.h; ++i) {
      const unsigned char* p = img.px + 3 * i;
      count += std::abs(p[0] - r) + std::abs(p[1] - g) + std::abs(p[2] - b) <= 30;  // antialiased edges aside
    }
    std::printf("%s: #%s covers %ld pixels (at least %ld wanted)\n", argv[0], spec.substr(0, 6).c_str(),
                count, want);
    ok = ok && count >= want;
  }
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
}  // namespace

int main(int argc, char** argv) {
  const std::string check = argc > 1 ? argv[1] : "";
  const int n = argc - 2;
  char** args = argv + 2;  // the check's arguments: PNG, ...
  if (!((check == "ring" && (n == 7 || n == 8)) || ((check == "colour" || check == "empty") && n >= 8) ||
        (check == "plot" && n >= 4))) {
    std::fprintf(stderr,
                 "usage: png_check ring PNG X0 Y0 X1 Y1 RANKS PHASE [EM]\n"
                 "       png_check colour|empty PNG X0 Y0 X1 Y1 R G B [MIN]\n"
                 "       png_check plot PNG MIN_W MIN_H RRGGBB:MIN [RRGGBB:MIN ...]\n");
    return 2;
  }
  Image img;
  int channels = 0;
  img.px = stbi_load(args[0], &img.w, &img.h, &channels, 3);
  if (!img.px && check == "plot") {
    std::printf("FAILED: cannot read %s as an image\n", args[0]);
    return 1;
  }
  if (!img.px) {
    std::fprintf(stderr, "cannot read %s\n", args[0]);
    return 2;
  }
  const int rc = check == "ring"   ? ring(img, n, args)
                 : check == "plot" ? plot(img, n, args)
                                   : region(img, check, n, args);
  stbi_image_free(img.px);
  return rc;
}
