// The labels of one frame, and the three numbers --measure prints about them.
#include "text_boxes.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <utility>

namespace ringlab::viz {
namespace {
struct Box {
  std::string view;
  float x0, y0, x1, y1, px;
  ImU32 colour, background;
};
std::vector<Box> g_boxes;
std::string g_view = "window";
ImU32 g_background = IM_COL32(0, 0, 0, 255);

// sRGB channel to linear light, as WCAG defines relative luminance.
double linear(unsigned c) {
  const double v = c / 255.0;
  return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}
double luminance(ImU32 c) {
  return 0.2126 * linear(c >> IM_COL32_R_SHIFT & 0xFF) + 0.7152 * linear(c >> IM_COL32_G_SHIFT & 0xFF) +
         0.0722 * linear(c >> IM_COL32_B_SHIFT & 0xFF);
}
// The WCAG 2 contrast ratio of two colours (1: the same, 21: black on white).
double contrast_ratio(ImU32 a, ImU32 b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}
void record(float x0, float y0, float x1, float y1, ImU32 colour, float px = 0) {
  if (x1 <= x0 || y1 <= y0) return;
  g_boxes.push_back({g_view, x0, y0, x1, y1, px > 0 ? px : ImGui::GetFontSize(), colour, g_background});
}
}  // namespace

void begin_view(const char* name, ImU32 background) {
  g_view = name;
  g_background = background;
}

void label(ImDrawList* dl, ImVec2 pos, ImU32 colour, const std::string& text) {
  dl->AddText(pos, colour, text.c_str());
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  record(pos.x, pos.y, pos.x + size.x, pos.y + size.y, colour);
}

void label(ImDrawList* dl, ImFont* font, float size, ImVec2 pos, ImU32 colour, const char* begin, const char* end) {
  dl->AddText(font, size, pos, colour, begin, end);
  const ImVec2 ext = font->CalcTextSizeA(size, FLT_MAX, 0, begin, end);
  record(pos.x, pos.y, pos.x + ext.x, pos.y + ext.y, colour, size);
}

void label_on(ImDrawList* dl, ImU32 fill, ImVec2 pos, ImU32 colour, const std::string& text) {
  const ImU32 background = std::exchange(g_background, fill);
  label(dl, pos, colour, text);
  g_background = background;
}

void record_item(ImU32 colour) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  record(a.x, a.y, b.x, b.y, colour);
}

ImU32 ink_on(ImU32 background) {
  const ImU32 black = IM_COL32(10, 10, 12, 255), white = IM_COL32(245, 245, 248, 255);
  return contrast_ratio(black, background) >= contrast_ratio(white, background) ? black : white;
}

std::vector<ViewMeasure> measure_labels() {
  std::vector<ViewMeasure> out;  // in the order the views first drew
  for (std::size_t i = 0; i < g_boxes.size(); ++i) {
    const Box& b = g_boxes[i];
    auto m = std::find_if(out.begin(), out.end(), [&](const ViewMeasure& v) { return v.view == b.view; });
    if (m == out.end()) m = out.insert(out.end(), {.view = b.view, .text_px = b.px, .min_contrast = 21});
    ++m->labels;
    m->text_px = std::min(m->text_px, b.px);
    m->min_contrast = std::min(m->min_contrast, contrast_ratio(b.colour, b.background));
    // Overlap: the two boxes share area (touching edges do not count; a pixel of slack for
    // glyph boxes that include their line spacing).
    for (std::size_t j = i + 1; j < g_boxes.size(); ++j) {
      const Box& o = g_boxes[j];
      if (o.view != b.view) continue;
      if (std::min(b.x1, o.x1) - std::max(b.x0, o.x0) > 1 && std::min(b.y1, o.y1) - std::max(b.y0, o.y0) > 1)
        ++m->overlaps;
    }
  }
  return out;
}

void clear_labels() { g_boxes.clear(); }

}  // namespace ringlab::viz
