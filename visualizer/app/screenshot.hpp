// A window's picture as a PNG file: what --screenshot, the handout's --export and the notes
// window's screenshot save. Call after rendering, before swapping buffers.
#pragma once
#include <string>

namespace ringlab::viz {

// Reads the current GL context's back buffer (`w` x `h`) and writes it top row first, as image
// files want it. False when the file cannot be written.
bool write_png(const std::string& path, int w, int h);

}  // namespace ringlab::viz
