// The shipped deck (slides/ringlab.md), laid out by the presenter's own code with the real
// DejaVu fonts, at 1280x720 and 1920x1080: every slide fits its slide area (text extents
// measured against it) at a size still readable from the back of a room. ImGui alone, no
// window (as Dear ImGui's example_null), so it is fast and needs no display.
#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8
#include <stb_image.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include "catch.hpp"
#include "presenter.hpp"

using namespace ringlab::viz;

namespace {
std::vector<int> lessons_in_repo() {
  std::vector<int> out;
  const std::filesystem::path lessons = RINGLAB_SOURCE_DIR "/lessons";
  REQUIRE(std::filesystem::is_directory(lessons));
  for (const auto& e : std::filesystem::directory_iterator(lessons)) {
    const std::string n = e.path().filename();
    if (n.size() > 3 && isdigit(n[0]) && isdigit(n[1]) && n[2] == '_')
      out.push_back(std::stoi(n.substr(0, 2)));
  }
  return out;
}
}  // namespace

TEST_CASE("every slide of the shipped deck fits at 1280x720 and 1920x1080") {
  DeckOptions opt;
  opt.lessons = lessons_in_repo();
  Deck deck;
  std::string error;
  REQUIRE(load_deck(RINGLAB_SOURCE_DIR "/slides/ringlab.md", opt, deck, &error));
  for (const auto& e : deck.errors) FAIL_CHECK("slides/ringlab.md: " << e);
  REQUIRE(deck.errors.empty());
  // The workshop's deck: 25-40 slides, every lesson with a demo slide, notes on most slides.
  CHECK(deck.slides.size() >= 25);
  CHECK(deck.slides.size() <= 40);
  std::set<int> demoed;
  int with_notes = 0;
  for (const auto& s : deck.slides) {
    if (s.has_demo) demoed.insert(s.demo.lesson);
    with_notes += !s.notes.empty();
  }
  for (int l : opt.lessons) {
    INFO("lesson " << l << " needs a demo slide");
    CHECK(demoed.count(l) == 1);
  }
  CHECK(with_notes * 2 >= static_cast<int>(deck.slides.size()));

  ImGui::CreateContext();
  ImageInfo image = [](const std::string& path, int* w, int* h, ImTextureID* tex) {
    int ch = 0;
    *tex = nullptr;
    return stbi_info(path.c_str(), w, h, &ch) != 0;
  };
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1280, 720}, {1920, 1080}}) {
    SlideFonts fonts;
    REQUIRE(build_slide_fonts(*ImGui::GetIO().Fonts, h, fonts, &error));  // the atlas built too
    // Unicode as typed (w₀, →, ×, −, ⌈log₂ N⌉, …): every character of every slide has a glyph in
    // the font, in every face it may be drawn with (none falls back to '?').
    for (const auto& slide : deck.slides)
      for (const auto& b : slide.blocks) {
        std::string text = b.text;
        for (const auto& sp : b.spans) text += sp.text;
        for (const auto& row : b.rows)
          for (const auto& cell : row)
            for (const auto& sp : cell) text += sp.text;
        for (const char* c = text.c_str(); *c;) {
          unsigned int cp = 0;
          c += ImTextCharFromUtf8(&cp, c, nullptr);
          if (cp < 0x20) continue;
          for (ImFont* font : {fonts.body, fonts.bold, fonts.italic, fonts.mono, fonts.h2}) {
            INFO("U+" << std::hex << cp << " in slide " << slide.title());
            CHECK(font->FindGlyphNoFallback(static_cast<ImWchar>(cp)) != nullptr);
          }
        }
      }
    for (std::size_t i = 0; i < deck.slides.size(); ++i) {
      const SlideLayout L =
          layout_slide(deck.slides[i], fonts, static_cast<float>(w), static_cast<float>(h), image);
      std::printf(
          "%dx%d slide %2zu: scale %.2f, content %4.0f..%4.0f x %4.0f..%4.0f in area %4.0f..%4.0f x "
          "%4.0f..%4.0f  %s\n",
          w, h, i + 1, L.scale, L.extent[0], L.extent[2], L.extent[1], L.extent[3], L.area[0], L.area[2],
          L.area[1], L.area[3], deck.slides[i].title().c_str());
      INFO(w << "x" << h << " slide " << i + 1 << " (" << deck.slides[i].title() << ")");
      CHECK(L.fits);
      // Every item (each word, code line, table cell, image) inside the slide's area, and no
      // text (a code block too wide, a crowded table) shrunk below 80 % of its size.
      for (const auto& it : L.items) {
        if (it.kind == SlideItem::Kind::text) CHECK(it.size >= 0.8f * it.font->FontSize);
        CHECK(it.x0 >= L.area[0] - 8);
        CHECK(it.x1 <= L.area[2] + 0.5f);
        CHECK(it.y1 <= L.area[3] + 0.5f);
      }
      // Shrinking to fit is allowed a little: below 80 % a slide holds too much for a room.
      CHECK(L.scale >= 0.8f);
      CHECK(L.title[3] > L.title[1]);  // every slide has a title
    }
  }
  ImGui::DestroyContext();
}
