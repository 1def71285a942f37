// The two palettes (theme.hpp). Light values: dark text at 9:1 or more on near-white, accents
// darkened until they reach 7:1.
#include "theme.hpp"

namespace ringlab::viz {
namespace {
const Palette kDark{
    IM_COL32(22, 24, 30, 255),                                // background
    IM_COL32(232, 233, 238, 255), IM_COL32(255, 255, 255, 255),  // text, bright
    IM_COL32(175, 178, 190, 255), IM_COL32(105, 185, 240, 255),  // dim, accent
    IM_COL32(240, 200, 130, 255), IM_COL32(38, 42, 54, 255),     // code, code_bg
    IM_COL32(44, 52, 68, 255),    IM_COL32(70, 76, 92, 255),     // table_head, rule
    IM_COL32(30, 33, 42, 255),    IM_COL32(18, 20, 26, 255),     // pane, output_bg
    IM_COL32(60, 60, 70, 255),    IM_COL32(150, 150, 160, 255),  // grid, axis
    IM_COL32(38, 38, 44, 255),                                   // row_bg
    IM_COL32(70, 70, 80, 255),    IM_COL32(45, 48, 60, 255),     // ring_edge, node_fill
    IM_COL32(160, 165, 185, 255),                                // node_line
    IM_COL32(20, 20, 25, 255),    IM_COL32(200, 200, 200, 200),  // outline, lr_line
};
const Palette kLight{
    IM_COL32(252, 252, 250, 255),
    IM_COL32(25, 25, 30, 255),    IM_COL32(0, 0, 0, 255),
    IM_COL32(70, 72, 82, 255),    IM_COL32(15, 80, 155, 255),
    IM_COL32(120, 55, 0, 255),    IM_COL32(236, 237, 242, 255),
    IM_COL32(222, 228, 240, 255), IM_COL32(190, 195, 205, 255),
    IM_COL32(242, 243, 247, 255), IM_COL32(230, 232, 238, 255),
    IM_COL32(215, 215, 222, 255), IM_COL32(110, 110, 120, 255),
    IM_COL32(232, 232, 238, 255),
    IM_COL32(170, 170, 180, 255), IM_COL32(226, 229, 238, 255),
    IM_COL32(80, 85, 100, 255),
    IM_COL32(60, 60, 70, 255),    IM_COL32(90, 90, 90, 200),
};
Theme g_theme = Theme::dark;
}  // namespace

void use_theme(Theme theme) {
  g_theme = theme;
  if (ImGui::GetCurrentContext()) {
    if (theme == Theme::light) ImGui::StyleColorsLight();
    else ImGui::StyleColorsDark();
    ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 0;  // the panes' background is the clear colour
  }
}
Theme current_theme() { return g_theme; }
const Palette& palette() { return g_theme == Theme::light ? kLight : kDark; }

}  // namespace ringlab::viz
