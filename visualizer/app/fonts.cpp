// find_font: one fontconfig query (fonts.hpp says why not a path).
#include "fonts.hpp"

#include <fontconfig/fontconfig.h>

namespace ringlab::viz {

std::string find_font(const std::string& pattern, std::string* error) {
  // The family asked for is everything before the first ':' ("DejaVu Sans:bold" → "DejaVu Sans").
  const std::string family = pattern.substr(0, pattern.find(':'));
  std::string file;
  std::string found_family;
  if (FcInit()) {
    FcPattern* want = FcNameParse(reinterpret_cast<const FcChar8*>(pattern.c_str()));
    if (want) {
      // The same two steps a desktop application takes: the user's and the system's rules
      // (aliases, preferred faces), then defaults for whatever the pattern left open.
      FcConfigSubstitute(nullptr, want, FcMatchPattern);
      FcDefaultSubstitute(want);
      FcResult result = FcResultNoMatch;
      if (FcPattern* got = FcFontMatch(nullptr, want, &result)) {
        FcChar8 *path = nullptr, *fam = nullptr;
        if (FcPatternGetString(got, FC_FILE, 0, &path) == FcResultMatch) file = reinterpret_cast<char*>(path);
        if (FcPatternGetString(got, FC_FAMILY, 0, &fam) == FcResultMatch) found_family = reinterpret_cast<char*>(fam);
        FcPatternDestroy(got);
      }
      FcPatternDestroy(want);
    }
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

}  // namespace ringlab::viz
