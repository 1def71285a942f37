#include "viz/deck.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace ringlab::viz {
namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  const auto b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}
int indent_of(const std::string& s) {
  int n = 0;
  for (char c : s) {
    if (c == ' ') ++n;
    else if (c == '\t') n += 4;
    else break;
  }
  return n;
}
bool file_exists(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
std::string join_path(const std::string& dir, const std::string& p) {
  if (p.empty() || p[0] == '/' || dir.empty() || dir == ".") return p;
  return dir + "/" + p;
}

// A list marker at the start of `t` (already trimmed on the left): "- ", "* ", "+ " or "12. ".
// Returns the marker's length (0: not an item) and the item's number (0 for bullets).
std::size_t list_marker(const std::string& t, int* number) {
  *number = 0;
  if (t.size() >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ') return 2;
  std::size_t i = 0;
  while (i < t.size() && i < 9 && t[i] >= '0' && t[i] <= '9') ++i;
  if (i > 0 && i + 1 < t.size() && (t[i] == '.' || t[i] == ')') && t[i + 1] == ' ') {
    *number = std::stoi(t.substr(0, i));
    return i + 2;
  }
  return 0;
}

// "|---|:-:|": bars, dashes, colons and spaces only, at least one dash.
bool is_table_separator(const std::string& t) {
  return t.starts_with('|') && t.find('-') != std::string::npos &&
         t.find_first_not_of("|:- \t") == std::string::npos;
}
std::vector<std::vector<Span>> table_cells(const std::string& t) {
  std::string s = t;
  if (!s.empty() && s.front() == '|') s.erase(0, 1);
  if (!s.empty() && s.back() == '|') s.pop_back();
  std::vector<std::vector<Span>> cells;
  std::string cell;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || (s[i] == '|' && (i == 0 || s[i - 1] != '\\'))) {
      cells.push_back(parse_inline(trim(cell)));
      cell.clear();
    } else if (!(s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '|')) {
      cell += s[i];
    }
  }
  return cells;
}

// The parser's state for one slide's lines.
struct SlideParser {
  const DeckOptions& opt;
  Deck& deck;
  Slide slide;
  std::string para;  // a paragraph being collected

  void error(int line, const std::string& what) {
    deck.errors.push_back("line " + std::to_string(line) + ": " + what);
  }
  void flush_para() {
    if (!trim(para).empty())
      slide.blocks.push_back({.kind = SlideBlock::Kind::paragraph, .spans = parse_inline(trim(para))});
    para.clear();
  }
  // Ends the paragraph being collected, and starts a block of `kind`.
  SlideBlock& begin_block(SlideBlock::Kind kind) {
    flush_para();
    return slide.blocks.emplace_back(SlideBlock{.kind = kind});
  }

  void parse_demo(const std::vector<std::string>& body, int line) {
    if (slide.has_demo) error(line, "demo: one demo per slide (this slide already has one)");
    Demo d;
    d.line = line;
    for (std::size_t k = 0; k < body.size(); ++k) {
      const std::string t = trim(body[k]);
      if (t.empty() || t[0] == '#') continue;
      const auto colon = t.find(':');
      const int at_line = line + 1 + static_cast<int>(k);
      if (colon == std::string::npos) {
        error(at_line, "demo: expected KEY: VALUE (lesson, np, flags, view, trace, at), got '" + t + "'");
        continue;
      }
      const std::string key = trim(t.substr(0, colon)), value = trim(t.substr(colon + 1));
      auto number = [&](int lo, int hi, int* out) {
        try {
          std::size_t used = 0;
          const int v = std::stoi(value, &used);
          if (used != value.size() || v < lo || v > hi) throw std::out_of_range(value);
          *out = v;
        } catch (const std::exception&) {
          error(at_line, "demo: " + key + " '" + value + "' is not a number " + std::to_string(lo) + ".." +
                             std::to_string(hi));
        }
      };
      if (key == "lesson") {
        number(1, 99, &d.lesson);
        if (d.lesson > 0 && !opt.lessons.empty() &&
            std::find(opt.lessons.begin(), opt.lessons.end(), d.lesson) == opt.lessons.end()) {
          std::ostringstream known;
          for (int l : opt.lessons) known << ' ' << l;
          error(at_line, "demo: there is no lesson " + value + " (lessons:" + known.str() + ")");
        }
      } else if (key == "np") {
        number(1, 64, &d.np);
      } else if (key == "flags") {
        d.flags = value;
      } else if (key == "at") {
        number(0, 1000000, &d.at);
      } else if (key == "trace") {
        d.trace = join_path(opt.base_dir, value);
        if (opt.check_files && !file_exists(d.trace)) error(at_line, "demo: trace " + value + " not found");
      } else if (key == "view") {
        d.views.clear();
        std::string v = value;
        std::replace(v.begin(), v.end(), ',', ' ');
        std::istringstream words(v);
        for (std::string w; words >> w;) {
          // bytes:NAME pins the bytes chart to one collective (two of them compare, e.g. the
          // parameter server's bytes above the ring's).
          const std::string base = w.rfind("bytes:", 0) == 0 && w.size() > 6 ? "bytes" : w;
          static const std::set<std::string> known = {"ring",  "buffers",  "loss",
                                                      "bytes", "pipeline", "output"};
          if (!known.count(base))
            error(at_line, "demo: unknown view '" + w +
                               "' (ring, buffers, loss, bytes, bytes:COLLECTIVE, pipeline, output)");
          else d.views.push_back(w);
        }
        if (d.views.size() > 2) error(at_line, "demo: at most two views, one above the other");
        if (d.views.empty()) d.views.push_back("ring");
      } else {
        error(at_line, "demo: unknown key '" + key + "' (lesson, np, flags, view, trace, at)");
      }
    }
    if (d.lesson == 0 && d.trace.empty()) error(line, "demo: give a lesson to run or a trace to replay");
    slide.has_demo = true;
    slide.demo = d;
  }

  // Parses lines [begin, end) of `lines`: one slide (the deck's line numbers are index + 1).
  void parse(const std::vector<std::string>& lines, std::size_t begin, std::size_t end) {
    bool in_notes = false;
    for (std::size_t i = begin; i < end; ++i) {
      const std::string& raw = lines[i];
      const int line_no = static_cast<int>(i) + 1;
      std::string t = trim(raw);
      if (in_notes) {
        slide.notes += (slide.notes.empty() ? "" : "\n") + t;
        continue;
      }
      if (t.starts_with("Note:") || t.starts_with("Notes:")) {
        flush_para();
        in_notes = true;
        slide.notes = trim(t.substr(t.find(':') + 1));
        continue;
      }
      if (t.starts_with("<!--")) {  // an HTML comment: skipped, however many lines it takes
        flush_para();
        while (i < end && lines[i].find("-->") == std::string::npos) ++i;
        if (i == end) error(line_no, "a comment <!-- that is never closed with -->");
        continue;
      }
      if (t.starts_with("```")) {
        flush_para();
        const std::string lang = trim(t.substr(3));
        std::vector<std::string> body;
        std::size_t j = i + 1;
        while (j < end && !trim(lines[j]).starts_with("```")) body.push_back(lines[j++]);
        if (j == end) error(line_no, "a code block ``` that is never closed");
        if (lang == "demo") {
          parse_demo(body, line_no);
        } else {
          SlideBlock& b = begin_block(SlideBlock::Kind::code);
          const std::size_t cut = static_cast<std::size_t>(indent_of(raw));  // the fence's indent
          for (std::size_t k = 0; k < body.size(); ++k) {
            const std::string& s = body[k];  // its leading spaces dropped, up to the fence's indent
            if (k) b.text += '\n';
            b.text.append(s, std::min({cut, s.size(), s.find_first_not_of(' ')}), std::string::npos);
          }
        }
        i = j;
        continue;
      }
      if (t.empty()) {
        flush_para();
        continue;
      }
      if (t[0] == '#') {
        const std::size_t n = std::min(t.find_first_not_of('#'), t.size());
        if (n <= 6 && (n == t.size() || t[n] == ' ')) {
          SlideBlock& b = begin_block(SlideBlock::Kind::heading);
          b.level = static_cast<int>(std::min<std::size_t>(n, 3));
          b.spans = parse_inline(trim(t.substr(n)));
          continue;
        }
      }
      if (t.starts_with("![")) {  // an image on a line of its own
        const auto close = t.find("](");
        const auto end_paren = t.find(')', close == std::string::npos ? 0 : close);
        if (close != std::string::npos && end_paren != std::string::npos) {
          SlideBlock& b = begin_block(SlideBlock::Kind::image);
          b.spans = parse_inline(t.substr(2, close - 2));
          b.text = trim(t.substr(close + 2, end_paren - close - 2));
          b.path = join_path(opt.base_dir, b.text);
          if (b.text.find("://") != std::string::npos)
            error(line_no, "image " + b.text + ": only local PNG files");
          else if (opt.check_files && !file_exists(b.path)) error(line_no, "image " + b.text + " not found");
          continue;
        }
      }
      if (t[0] == '|' && i + 1 < end && is_table_separator(trim(lines[i + 1]))) {
        SlideBlock& b = begin_block(SlideBlock::Kind::table);
        b.rows.push_back(table_cells(t));
        std::size_t j = i + 2;
        for (; j < end && trim(lines[j]).starts_with("|"); ++j) b.rows.push_back(table_cells(trim(lines[j])));
        const std::size_t cols = b.rows.front().size();
        for (std::size_t r = 1; r < b.rows.size(); ++r)
          if (b.rows[r].size() != cols) {
            error(line_no + static_cast<int>(r) + 1, "table row has " + std::to_string(b.rows[r].size()) +
                                                         " cells, the header " + std::to_string(cols));
            b.rows[r].resize(cols);
          }
        i = j - 1;
        continue;
      }
      int number = 0;
      if (const std::size_t m = list_marker(t, &number)) {
        SlideBlock& b = begin_block(SlideBlock::Kind::item);
        b.level = std::min(indent_of(raw) / 2, 4);
        b.number = number;
        b.text = t.substr(m);  // continuation lines are added below, then parsed
        while (i + 1 < end) {
          const std::string next = trim(lines[i + 1]);
          int dummy = 0;
          if (next.empty() || indent_of(lines[i + 1]) == 0 || list_marker(next, &dummy) || next[0] == '#' ||
              next.starts_with("```") || next[0] == '|')
            break;
          b.text += " " + next;
          ++i;
        }
        b.spans = parse_inline(b.text);
        b.text.clear();
        continue;
      }
      para += (para.empty() ? "" : " ") + t;
    }
    flush_para();
  }
};

}  // namespace

std::string demo_command(const Demo& d) {
  if (d.lesson <= 0) return "./ringlab viz " + d.trace.substr(d.trace.find_last_of('/') + 1);
  char nn[12];  // room for any int: the compiler cannot know a lesson has two digits
  std::snprintf(nn, sizeof nn, "%02d", d.lesson);
  return std::string("./ringlab run ") + nn + " -np " + std::to_string(d.np) + (d.flags.empty() ? "" : " -- " + d.flags);
}

std::vector<std::string> Slide::commands() const {
  std::vector<std::string> out;
  for (const auto& b : blocks) {
    if (b.kind != SlideBlock::Kind::code) continue;
    std::istringstream lines(b.text);
    for (std::string line; std::getline(lines, line);)
      if (!trim(line).empty()) out.push_back(line);
  }
  if (has_demo) out.push_back(demo_command(demo));
  return out;
}

std::string Slide::title() const {
  for (const auto& b : blocks)
    if (b.kind == SlideBlock::Kind::heading) {
      std::string s;
      for (const auto& sp : b.spans) s += sp.text;
      return s;
    }
  return "";
}

std::vector<Span> parse_inline(const std::string& text) {
  std::vector<Span> out;
  Span cur;
  bool bold = false, italic = false;
  auto flush = [&] {  // ends the span being collected; the next one takes the current style
    if (!cur.text.empty()) out.push_back(cur);
    cur = Span{.text = {}, .bold = bold, .italic = italic};
  };
  // Is `marker` closed later in the text (so that opening it is not a stray character)?
  auto closes = [&](std::size_t from, const std::string& marker) {
    return text.find(marker, from) != std::string::npos;
  };
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && std::string("\\`*_[]|#").find(text[i + 1]) != std::string::npos) {
      cur.text += text[i + 1];
      i += 2;
      continue;
    }
    if (c == '`') {
      const auto close = text.find('`', i + 1);
      if (close != std::string::npos) {
        flush();
        cur.code = true;
        cur.text = text.substr(i + 1, close - i - 1);
        flush();
        i = close + 1;
        continue;
      }
    }
    if (c == '*' && i + 1 < text.size() && text[i + 1] == '*') {
      if (bold || closes(i + 2, "**")) {
        bold = !bold;
        flush();
      } else {
        cur.text += "**";  // ** that never closes: literal
      }
      i += 2;
      continue;
    }
    const bool word_start = i == 0 || text[i - 1] == ' ' || text[i - 1] == '(';
    const bool word_end =
        i + 1 == text.size() || std::string(" .,;:!?)").find(text[i + 1]) != std::string::npos;
    if ((c == '*' || c == '_') &&
        ((italic && word_end) || (!italic && word_start && i + 1 < text.size() && text[i + 1] != ' ' &&
                                  closes(i + 1, std::string(1, c))))) {
      italic = !italic;
      flush();
      ++i;
      continue;
    }
    if (c == '[') {  // [text](url) -> text
      const auto close = text.find("](", i);
      const auto paren = close == std::string::npos ? close : text.find(')', close);
      if (close != std::string::npos && paren != std::string::npos && text.find('\n', i) > paren) {
        const std::vector<Span> inner = parse_inline(text.substr(i + 1, close - i - 1));
        flush();
        for (Span s : inner) {
          s.bold = s.bold || bold;
          s.italic = s.italic || italic;
          out.push_back(s);
        }
        i = paren + 1;
        continue;
      }
    }
    cur.text += c;
    ++i;
  }
  flush();
  return out;
}

Deck parse_deck(const std::string& text, const DeckOptions& options) {
  Deck deck;
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
  }
  std::size_t i = 0;
  // Front matter (reveal.js tools read it too): ---, key: value lines, ---.
  if (!lines.empty() && trim(lines[0]) == "---") {
    std::size_t j = 1;
    while (j < lines.size() && trim(lines[j]) != "---" && lines[j].find(':') != std::string::npos) ++j;
    if (j < lines.size() && trim(lines[j]) == "---" && j > 1) {
      for (std::size_t k = 1; k < j; ++k)
        if (trim(lines[k]).starts_with("title:")) deck.title = trim(trim(lines[k]).substr(6));
      i = j + 1;
    }
  }
  // Slides: split on lines that are exactly ---, outside code blocks.
  std::size_t start = i;
  bool in_code = false;
  for (; i <= lines.size(); ++i) {
    if (i < lines.size() && trim(lines[i]).starts_with("```")) in_code = !in_code;
    if (i == lines.size() || (!in_code && trim(lines[i]) == "---")) {
      SlideParser p{options, deck, Slide{}, ""};
      p.parse(lines, start, i);
      if (!p.slide.blocks.empty() || p.slide.has_demo) deck.slides.push_back(std::move(p.slide));
      start = i + 1;
    }
  }
  if (deck.slides.empty())
    deck.errors.push_back("the deck has no slides (nothing but blank lines and comments)");
  if (deck.title.empty() && !deck.slides.empty()) deck.title = deck.slides.front().title();
  return deck;
}

bool load_deck(const std::string& path, DeckOptions options, Deck& deck, std::string* error) {
  auto refuse = [&](const std::string& why) {
    if (error) *error = path + ": " + why;
    return false;
  };
  std::ifstream in(path, std::ios::binary);
  struct stat st {};
  if (!in || stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return refuse("cannot read the deck");
  if (st.st_size > 16 * 1024 * 1024)
    return refuse(std::to_string(st.st_size) + " bytes: a deck is at most 16 MiB");
  std::stringstream ss;
  ss << in.rdbuf();
  const auto slash = path.find_last_of('/');
  options.base_dir = slash == std::string::npos ? "." : path.substr(0, slash);
  deck = parse_deck(ss.str(), options);
  return true;
}

}  // namespace ringlab::viz
