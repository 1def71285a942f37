// write_png: the back buffer, flipped (GL's first row is the bottom one), through stb.
#include <GLFW/glfw3.h>  // the GL functions and constants
#include <stb_image_write.h>

#include <algorithm>
#include <vector>

#include "shell.hpp"

namespace ringlab::viz {

bool write_png(const std::string& path, int w, int h) {
  std::vector<unsigned char> px(static_cast<std::size_t>(w) * h * 3), flipped(px.size());
  glFinish();
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, px.data());
  for (int y = 0; y < h; ++y)
    std::copy_n(&px[static_cast<std::size_t>(h - 1 - y) * w * 3], w * 3,
                &flipped[static_cast<std::size_t>(y) * w * 3]);
  return stbi_write_png(path.c_str(), w, h, 3, flipped.data(), w * 3) != 0;
}

}  // namespace ringlab::viz
