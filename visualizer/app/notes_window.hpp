// --notes: the presenter's second screen (this slide's notes, the next slide's title, the
// clock) in a window of its own, with its own ImGui context. Keys typed into it go to the
// slides: the presenter looks at the notes screen, the room at the slides.
#pragma once
#include <string>

#include "presenter.hpp"
#include "window.hpp"

namespace ringlab::viz {

// A 900x600 window sharing the slides' GL context; `slides` is current again afterwards.
Window open_notes_window(const Window& slides, bool visible);
// One frame of it; `save_to`: its picture as a PNG too (false: it could not be written).
bool draw_notes_window(const Window& notes, const Window& slides, const Presenter& p,
                       const std::string& save_to = "");

}  // namespace ringlab::viz
