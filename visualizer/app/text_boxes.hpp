// Every label a view draws, remembered for one frame: where it is, its colour, and the
// background under it. `ringlab-viz --measure` reads them to report, per view, the smallest
// text, the lowest contrast and the labels that overlap: what a projector audience needs, in
// numbers a test can hold the views to (the readability rules in docs/visualizer.md).
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace ringlab::viz {

// Views draw on their pane's background: say which view draws next, on what colour.
void begin_view(const char* name, ImU32 background);
// Draws `text` at `pos` in the current font, and records its box.
void label(ImDrawList* dl, ImVec2 pos, ImU32 colour, const std::string& text);
// The same with an explicit font and size, for text drawn outside a view's window (a demo
// pane's header and output); [begin, end) is the text.
void label(ImDrawList* dl, ImFont* font, float size, ImVec2 pos, ImU32 colour, const char* begin,
           const char* end = nullptr);
// The same on a filled shape (a chunk's box, a cell): measured against `fill`, not the view's
// background.
void label_on(ImDrawList* dl, ImU32 fill, ImVec2 pos, ImU32 colour, const std::string& text);
// Records the last ImGui item (a Text(), a button's caption) as a label in `colour`.
void record_item(ImU32 colour);

// The text size unit of the views: the current font's height in pixels. Every length in a
// view is a multiple of it, so the whole window scales with --font-scale.
inline float em() { return ImGui::GetFontSize(); }

struct ViewMeasure {
  std::string view{};
  int labels = 0;
  float text_px = 0;        // the smallest text's height in pixels
  double min_contrast = 0;  // the lowest WCAG contrast ratio of a label against its background
  int overlaps = 0;         // pairs of labels whose boxes overlap
};
// What the frame drawn since the last clear_labels() holds, view by view.
std::vector<ViewMeasure> measure_labels();
void clear_labels();

// Near-black or white, whichever reads better on `background`.
ImU32 ink_on(ImU32 background);

}  // namespace ringlab::viz
