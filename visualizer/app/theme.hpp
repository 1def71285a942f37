// The colours the viewer, the presenter and their views draw with. Dark is for a screen or a
// projector (the default); light is for paper: the handout printed with `--theme light` costs no
// ink on black. In both, a label's colour keeps a contrast of at least 7:1 on what it sits on
// (--measure reports it for the dark one; the light one was chosen with the same formula).
#pragma once
#include <imgui.h>

namespace ringlab::viz {

enum class Theme { dark, light };

struct Palette {
  ImU32 background;                         // the window, the slide
  ImU32 text, bright, dim, accent;          // body text, headings' emphasis, secondary, links/status
  ImU32 code, code_bg, table_head, rule;    // slides: code, its box, a table's first row, lines
  ImU32 pane, output_bg;                    // a demo's pane, and its output box
  ImU32 grid, axis, row_bg;                 // charts
  ImU32 ring_edge, node_fill, node_line;    // the ring view
  ImU32 outline, lr_line;                   // boxes' outlines; the learning-rate line
};

void use_theme(Theme theme);  // also switches Dear ImGui's own widget colours
Theme current_theme();
const Palette& palette();

}  // namespace ringlab::viz
