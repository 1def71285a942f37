// Finding a font file the way the desktop does: ask fontconfig for a family and a style
// ("DejaVu Sans:bold:italic"), not a path. Debian moves font files between packages and
// releases (DejaVuSans-BoldOblique.ttf left fonts-dejavu-core in Debian 13); fontconfig knows
// where each one is today, and picks the family's nearest face when a style is missing.
#pragma once

#include <string>

namespace ringlab::viz {

// The file of the best match for a fontconfig pattern such as "DejaVu Sans Mono" or
// "DejaVu Sans:bold". Empty, with `error` set to one line naming the family and the Debian
// package that has it, when no face of that family is installed (fontconfig would otherwise
// answer with some other family, whose glyphs and widths the layout was not made for).
std::string find_font(const std::string& pattern, std::string* error);

// The viewer's text: DejaVu Sans at 1/40 of the window height (readable from the back of a
// room on a projector), times `scale` (--font-scale, and the [ ] keys), at least 10 pixels.
// Replaces the current ImGui context's fonts and scales its style (padding, spacing) to match;
// the renderer must upload the new font texture. False, with `error`: no such font here.
bool use_viewer_font(float window_height, float scale, std::string* error);

}  // namespace ringlab::viz
