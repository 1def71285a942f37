// A slide deck: plain markdown, one `---` line between slides (as reveal.js reads it), parsed
// into blocks the presenter lays out. No window and no font here, so the parser is
// unit-tested (and fuzzed) on strings alone; docs/presenting.md lists what it understands.
//
//   # Title                      heading (#, ##, ###)
//   Text with **bold**, *italic*, `code` and [links](url)      paragraph
//   - item / 1. item             lists, nested by indenting two spaces
//   | a | b |  +  |---|---|      a simple table (the second line is the separator)
//   ```sh ... ```                code block (monospace, shaded)
//   ![alt](docs/img/x.png)       a PNG image, path relative to the deck's folder
//   ```demo ... ```              a live demo: lesson, np, flags, view (or trace: to replay)
//   Note: ...                    presenter notes: the rest of the slide, never on the slide
#pragma once
#include <string>
#include <vector>

namespace ringlab::viz {

// A run of text with one style: what **, * and ` mark.
struct Span {
  std::string text;
  bool bold = false, italic = false, code = false;
};

struct SlideBlock {
  enum class Kind { heading, paragraph, item, code, table, image };
  Kind kind = Kind::paragraph;
  int level = 0;                                       // heading: 1..3; item: nesting depth 0..
  int number = 0;                                      // item: its number in a numbered list, 0 for a bullet
  std::vector<Span> spans{};                           // heading, paragraph, item
  std::string text{};                                  // code: the lines; image: the path as written
  std::string path{};                                  // image: resolved against the deck's folder
  std::vector<std::vector<std::vector<Span>>> rows{};  // table: rows of cells (row 0 the header)
};

// A ```demo block: what the slide runs (lesson through the launcher) or replays (trace).
struct Demo {
  int lesson = 0;  // 0: none (replay only)
  int np = 4;
  std::string flags;
  // ring, buffers, loss, bytes, pipeline (one or two), or output: the run's lines alone (for
  // a lesson that streams nothing, it runs without --viz)
  std::vector<std::string> views{"ring"};
  bool output_only() const { return views.size() == 1 && views[0] == "output"; }
  std::string trace;  // a recorded trace to replay instead of running
  int at = -1;        // the step the handout shows (-1: the middle one)
  int line = 0;
};

struct Slide {
  std::vector<SlideBlock> blocks;
  std::string notes;  // after a `Note:` line
  bool has_demo = false;
  Demo demo;
  std::string title() const;  // its first heading's text ("" when it has none)
  // What an attendee would type from this slide: every line of its code blocks, then its demo
  // as a command (the handout prints these as text that can be copied).
  std::vector<std::string> commands() const;
};

// A demo as the attendee would type it: "./ringlab run 05 -np 4 -- --schedule", or
// "./ringlab viz ring.trace" for a replay.
std::string demo_command(const Demo& demo);

struct Deck {
  std::string title;  // front matter `title:`, or the first slide's heading
  std::vector<Slide> slides;
  // Problems, one line each ("line 12: image docs/img/x.png not found"). A deck with errors
  // still parses: the presenter refuses it, a test can look at what did parse.
  std::vector<std::string> errors;
};

struct DeckOptions {
  std::string base_dir = ".";  // images and traces are relative to this folder
  std::vector<int> lessons{};  // lessons that exist (empty: any 1..99)
  bool check_files = true;     // report images and traces that are missing
};

// Parses markdown text into a deck. Never throws; anything it cannot use is an error line.
Deck parse_deck(const std::string& text, const DeckOptions& options = {});
// Reads FILE and parses it, base_dir = the file's folder. False (and *error) when unreadable.
bool load_deck(const std::string& path, DeckOptions options, Deck& deck, std::string* error);
// **bold**, *italic* / _italic_, `code`, [text](url) -> spans. Unclosed markers stay literal.
std::vector<Span> parse_inline(const std::string& text);

}  // namespace ringlab::viz
