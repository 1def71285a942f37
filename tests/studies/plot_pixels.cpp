// Checks a plot the study scripts drew: the PNG is at least WxH, and each series' colour
// (the scripts fix them: #d62728, #1f77b4, #2ca02c) covers at least MIN pixels, so a plot
// with a missing or empty series fails, not only a missing file.
//   plot_pixels PNG MIN_W MIN_H RRGGBB:MIN [RRGGBB:MIN ...]
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: plot_pixels PNG MIN_W MIN_H RRGGBB:MIN [RRGGBB:MIN ...]\n");
    return 2;
  }
  int w = 0, h = 0, ch = 0;
  unsigned char* img = stbi_load(argv[1], &w, &h, &ch, 3);
  if (!img) {
    std::printf("FAILED: cannot read %s as an image\n", argv[1]);
    return 1;
  }
  bool ok = true;
  if (w < std::atoi(argv[2]) || h < std::atoi(argv[3])) {
    std::printf("FAILED: %s is %dx%d, expected at least %sx%s\n", argv[1], w, h, argv[2], argv[3]);
    ok = false;
  }
  for (int a = 4; a < argc; ++a) {
    const std::string spec = argv[a];
    const long rgb = std::strtol(spec.substr(0, 6).c_str(), nullptr, 16);
    const long want = std::atol(spec.substr(7).c_str());
    const int r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
    long count = 0;
    for (long i = 0; i < long(w) * h; ++i) {
      const unsigned char* p = img + 3 * i;
      count += std::abs(p[0] - r) + std::abs(p[1] - g) + std::abs(p[2] - b) <= 30;  // antialiased edges aside
    }
    std::printf("%s: #%s covers %ld pixels (at least %ld wanted)\n", argv[1], spec.substr(0, 6).c_str(),
                count, want);
    ok = ok && count >= want;
  }
  stbi_image_free(img);
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
