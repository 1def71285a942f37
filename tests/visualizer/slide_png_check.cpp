// Pixel checks on a presenter screenshot: how many pixels inside a rectangle are close to a
// colour (text is there), or differ from the background (something was drawn there).
//   slide_png_check PNG X0 Y0 X1 Y1 colour R G B MIN     at least MIN pixels near (R,G,B)
//   slide_png_check PNG X0 Y0 X1 Y1 empty R G B          no pixel differs from (R,G,B)
// Prints the count it found and the image size; exit 0 when the check holds, 1 when not.
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc < 10) {
    std::fprintf(stderr, "usage: slide_png_check PNG X0 Y0 X1 Y1 colour|empty R G B [MIN]\n");
    return 2;
  }
  int w, h, ch;
  unsigned char* img = stbi_load(argv[1], &w, &h, &ch, 3);
  if (!img) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  const int x0 = std::atoi(argv[2]), y0 = std::atoi(argv[3]), x1 = std::atoi(argv[4]),
            y1 = std::atoi(argv[5]);
  const std::string mode = argv[6];
  const int r = std::atoi(argv[7]), g = std::atoi(argv[8]), b = std::atoi(argv[9]);
  const int min = argc > 10 ? std::atoi(argv[10]) : 1;
  const int tol = mode == "empty" ? 3 : 30;  // text is anti-aliased: its edges blend
  long near = 0, total = 0;
  for (int y = std::max(0, y0); y < std::min(h, y1); ++y)
    for (int x = std::max(0, x0); x < std::min(w, x1); ++x) {
      const unsigned char* p = img + (static_cast<std::size_t>(y) * w + x) * 3;
      near += std::abs(p[0] - r) <= tol && std::abs(p[1] - g) <= tol && std::abs(p[2] - b) <= tol;
      ++total;
    }
  std::printf("%s %dx%d: %ld of %ld pixels in [%d,%d)x[%d,%d) near (%d,%d,%d)\n", argv[1], w, h, near, total,
              x0, x1, y0, y1, r, g, b);
  if (mode == "empty") return near == total ? 0 : 1;
  return near >= min ? 0 : 1;
}
