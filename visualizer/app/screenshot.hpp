// A window's picture as a PNG file: what --screenshot, the handout's --export and the notes
// window's screenshot save. The visualizer's one PNG writer. Call after draw_frame (window.hpp),
// before swapping buffers.
#pragma once
#include <string>

namespace ringlab::viz {

// Waits for the current GL context to finish drawing, reads its back buffer (`w` x `h`) and
// writes it top row first, as image files want it. False when the file cannot be written.
bool write_png(const std::string& path, int w, int h);

}  // namespace ringlab::viz
