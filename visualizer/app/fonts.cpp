// find_font: one fontconfig query (fonts.hpp says why not a path).
#include "fonts.hpp"

#include "theme.hpp"

#include <fontconfig/fontconfig.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace ringlab::viz {

std::string find_font(const std::string& pattern, std::string* error) {
  // The family asked for is everything before the first ':' ("DejaVu Sans:bold" → "DejaVu Sans").
  const std::string family = pattern.substr(0, pattern.find(':'));
  std::string file, found_family;
  if (FcPattern* want = FcInit() ? FcNameParse(reinterpret_cast<const FcChar8*>(pattern.c_str())) : nullptr) {
    // The same two steps a desktop application takes: the user's and the system's rules
    // (aliases, preferred faces), then defaults for whatever the pattern left open.
    FcConfigSubstitute(nullptr, want, FcMatchPattern);
    FcDefaultSubstitute(want);
    FcResult result = FcResultNoMatch;
    if (FcPattern* got = FcFontMatch(nullptr, want, &result)) {
      FcChar8 *path = nullptr, *fam = nullptr;
      if (FcPatternGetString(got, FC_FILE, 0, &path) == FcResultMatch) file = reinterpret_cast<char*>(path);
      if (FcPatternGetString(got, FC_FAMILY, 0, &fam) == FcResultMatch)
        found_family = reinterpret_cast<char*>(fam);
      FcPatternDestroy(got);
    }
    FcPatternDestroy(want);
  }
  if (!file.empty() && found_family == family) return file;
  if (error) {
    const char* package = family.find("DejaVu") == 0 ? "fonts-dejavu-core" : "the package that has it";
    *error = "no '" + family + "' font installed" +
             (found_family.empty() ? std::string() : " (fontconfig offers '" + found_family + "' instead)") +
             ": apt-get install " + package;
  }
  return {};
}

bool use_viewer_font(float window_height, float scale, std::string* error) {
  const std::string path = find_font("DejaVu Sans", error);
  if (path.empty()) return false;
  constexpr float kTextFraction = 1.0f / 40;  // of the window height (fonts.hpp)
  const float px = std::max(10.0f, std::round(window_height * kTextFraction * scale));
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.OversampleH = px < 24 ? 2 : 1;  // big glyphs need no sub-pixel copies
  io.FontDefault = io.Fonts->AddFontFromFileTTF(path.c_str(), px, &cfg);
  if (!io.FontDefault || !io.Fonts->Build()) {
    if (error) *error = "cannot load " + path;
    return false;
  }
  // A fresh style (ScaleAllSizes multiplies, so never scale a scaled one) in the theme's colours,
  // its sizes scaled from the 13-pixel font they were made for.
  ImGui::GetStyle() = ImGuiStyle();
  use_theme(current_theme());
  ImGui::GetStyle().ScaleAllSizes(px / 13.0f);
  return true;
}

}  // namespace ringlab::viz
