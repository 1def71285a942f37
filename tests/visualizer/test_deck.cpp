// The deck parser (visualizer/core, no window): every element a slide may hold, and every kind
// of bad deck — each parses to what was written, or to one clear error line; never a crash.
#include <algorithm>
#include <chrono>
#include <random>
#include <string>

#include "catch.hpp"
#include "viz/deck.hpp"

using namespace ringlab::viz;
using Kind = SlideBlock::Kind;

namespace {
std::string text_of(const std::vector<Span>& spans) {
  std::string s;
  for (const auto& sp : spans) s += sp.text;
  return s;
}
const DeckOptions kNoFiles{.check_files = false};
bool has_error(const Deck& d, const std::string& part) {
  return std::ranges::any_of(d.errors,
                             [&](const std::string& e) { return e.find(part) != std::string::npos; });
}
}  // namespace

TEST_CASE("inline markup: bold, italic, code, links; unclosed markers stay literal") {
  auto s = parse_inline("a **bold** and *it* and `x = y*2` and [link](http://x) end");
  REQUIRE(text_of(s) == "a bold and it and x = y*2 and link end");
  bool bold = false, italic = false, code = false;
  for (const auto& sp : s) {
    if (sp.text == "bold") bold = sp.bold;
    if (sp.text == "it") italic = sp.italic;
    if (sp.text == "x = y*2") code = sp.code;
  }
  CHECK(bold);
  CHECK(italic);
  CHECK(code);
  CHECK(text_of(parse_inline("2 * 3 and **open")) == "2 * 3 and **open");
  CHECK(text_of(parse_inline("a `open code")) == "a `open code");
  CHECK(text_of(parse_inline("snake_case_name stays")) == "snake_case_name stays");
  CHECK(text_of(parse_inline("y = w₀·x₀ → 2(N−1)/N × S")) == "y = w₀·x₀ → 2(N−1)/N × S");
}

TEST_CASE("every element of a slide parses to its block") {
  const std::string md =
      "---\ntitle: The title\n---\n"
      "# Heading one\n\nA paragraph\ncontinued on a second line.\n\n"
      "---\n"
      "## Heading two\n### Heading three\n"
      "- bullet **one**\n  - nested\n    - deeper\n- bullet two\n  continued\n"
      "1. first\n2. second\n\n"
      "```sh\n./ringlab run 05 -np 4\n  indented\n```\n"
      "| a | b |\n|---|:-:|\n| 1 | `2` |\n| 3 | 4 |\n\n"
      "![the ring](img/ring.png)\n"
      "<!-- a comment\n over lines -->\n"
      "```demo\nlesson: 5\nnp: 4\nflags: --schedule --count 8\nview: ring buffers\nat: 3\n```\n"
      "Note: say this\nand this.\n";
  const Deck d = parse_deck(md, kNoFiles);
  INFO((d.errors.empty() ? "" : d.errors.front()));
  REQUIRE(d.errors.empty());
  CHECK(d.title == "The title");
  REQUIRE(d.slides.size() == 2);
  const Slide& a = d.slides[0];
  REQUIRE(a.blocks.size() == 2);
  CHECK(a.blocks[0].kind == Kind::heading);
  CHECK(a.blocks[0].level == 1);
  CHECK(text_of(a.blocks[1].spans) == "A paragraph continued on a second line.");
  const Slide& b = d.slides[1];
  CHECK(b.title() == "Heading two");
  std::vector<Kind> kinds;
  for (const auto& bl : b.blocks) kinds.push_back(bl.kind);
  const std::vector<Kind> want = {Kind::heading, Kind::heading, Kind::item, Kind::item,
                                  Kind::item,    Kind::item,    Kind::item, Kind::item,
                                  Kind::code,    Kind::table,   Kind::image};
  REQUIRE(kinds == want);
  CHECK(b.blocks[1].level == 3);
  CHECK(b.blocks[3].level == 1);
  CHECK(b.blocks[4].level == 2);
  CHECK(text_of(b.blocks[5].spans) == "bullet two continued");
  CHECK(b.blocks[6].number == 1);
  CHECK(b.blocks[7].number == 2);
  CHECK(b.blocks[8].text == "./ringlab run 05 -np 4\n  indented");
  REQUIRE(b.blocks[9].rows.size() == 3);
  CHECK(b.blocks[9].rows[1][1].front().code);
  CHECK(b.blocks[10].text == "img/ring.png");
  REQUIRE(b.has_demo);
  CHECK(b.demo.lesson == 5);
  CHECK(b.demo.np == 4);
  CHECK(b.demo.flags == "--schedule --count 8");
  CHECK(b.demo.views == std::vector<std::string>{"ring", "buffers"});
  CHECK(b.demo.at == 3);
  CHECK(b.notes == "say this\nand this.");
}

TEST_CASE("--- inside a code block does not split the slide") {
  const Deck d = parse_deck("# a\n```\n---\n```\n---\n# b\n", kNoFiles);
  REQUIRE(d.errors.empty());
  REQUIRE(d.slides.size() == 2);
  CHECK(d.slides[0].blocks[1].text == "---");
}

TEST_CASE("bad decks: one clear line each, naming the line") {
  const DeckOptions opt{.base_dir = "/nonexistent-dir", .lessons = {1, 2, 3, 4, 5, 6, 7}};
  SECTION("unknown demo lesson, missing image, empty deck: exactly one line") {
    const std::string no_slides = "the deck has no slides (nothing but blank lines and comments)";
    const std::pair<const char*, std::string> decks_and_errors[] = {
        {"# x\n```demo\nlesson: 42\n```\n", "line 3: demo: there is no lesson 42 (lessons: 1 2 3 4 5 6 7)"},
        {"# x\n\n![a](missing.png)\n", "line 3: image missing.png not found"},
        {"", no_slides},
        {"\n\n", no_slides},
        {"---\n---\n", no_slides},
        {"<!-- nothing -->\n---\n", no_slides}};
    for (const auto& [md, error] : decks_and_errors) {
      const Deck d = parse_deck(md, opt);
      CHECK(d.slides.empty() == (error == no_slides));
      REQUIRE(d.errors.size() == 1);
      CHECK(d.errors[0] == error);
    }
  }
  SECTION("malformed markdown, an image from the web") {
    const std::pair<const char*, const char*> decks_and_errors[] = {
        {"# x\n```sh\nnever closed\n", "line 2: a code block ``` that is never closed"},
        {"# x\n<!-- open\n", "line 2: a comment <!-- that is never closed"},
        {"| a | b |\n|---|---|\n| 1 |\n", "line 3: table row has 1 cells, the header 2"},
        {"```demo\nnp: many\n```\n", "line 2: demo: np 'many' is not a number 1..64"},
        {"```demo\nlesson: 5\nview: pie\n```\n", "line 3: demo: unknown view 'pie'"},
        {"```demo\nlesson: 5\nview: bytes:\n```\n", "line 3: demo: unknown view 'bytes:'"},
        {"```demo\ncolour: red\n```\n", "demo: unknown key 'colour'"},
        {"```demo\nnp: 2\n```\n", "line 1: demo: give a lesson to run or a trace"},
        {"```demo\ntrace: gone.trace\n```\n", "demo: trace gone.trace not found"},
        {"![a](https://example.com/a.png)\n", "only local PNG files"}};
    for (const auto& [md, error] : decks_and_errors) {
      INFO(md);
      CHECK(has_error(parse_deck(md, opt), error));
    }
    {  // bytes:NAME pins a bytes chart to one collective; two of them compare
      const Deck pinned = parse_deck("```demo\nlesson: 4\nview: bytes:parameter_server bytes:ring_allreduce\n```\n", opt);
      CHECK(pinned.errors.empty());
      REQUIRE(pinned.slides.size() == 1);
      CHECK(pinned.slides[0].demo.views == std::vector<std::string>{"bytes:parameter_server", "bytes:ring_allreduce"});
    }
    // Not errors: stray markup is text.
    const Deck d = parse_deck("# **unclosed\n\n|not a table|\n\n1.5 is a number\n", opt);
    CHECK(d.errors.empty());
    REQUIRE(d.slides.size() == 1);
    CHECK(text_of(d.slides[0].blocks[0].spans) == "**unclosed");
    CHECK(d.slides[0].blocks.size() == 3);
  }
}

TEST_CASE("a 1 MB deck parses in well under a second") {
  std::string md;
  int n = 0;
  while (md.size() < (1 << 20)) {
    md += "## Slide " + std::to_string(++n) + "\n\n- a **bullet** with `code` and *style*\n  - nested\n\n";
    md += "```sh\n./ringlab run 05\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nNote: notes " +
          std::to_string(n) + "\n---\n";
  }
  const auto t0 = std::chrono::steady_clock::now();
  const Deck d = parse_deck(md, kNoFiles);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(d.errors.empty());
  CHECK(static_cast<int>(d.slides.size()) == n);
  CHECK(d.slides.back().notes == "notes " + std::to_string(n));
  CHECK(s < 5.0);  // generous: the point is linear time, not speed
}

TEST_CASE("random markdown-ish bytes never crash the parser") {
  std::mt19937 rng(11);
  const std::string alphabet = "#*_`[]()!|-:\n \t1.>~\\abc<>-\xe2\x86\x92```demo\nlesson: 5\n";
  for (int i = 0; i < 2000; ++i) {
    std::string s;
    const int len = static_cast<int>(rng() % 400);
    for (int k = 0; k < len; ++k) s += alphabet[rng() % alphabet.size()];
    const Deck d = parse_deck(s, kNoFiles);
    CHECK((!d.slides.empty() || !d.errors.empty()));
  }
}
