// Presenter mode: lays a slide out (measured before it is drawn, so a test can check that
// nothing leaves the slide), draws it, and runs its demo with the visualizer's own views.
#include "presenter.hpp"

#include "fonts.hpp"
#include "text_boxes.hpp"
#include "theme.hpp"

#include <GLFW/glfw3.h>  // key codes only: Dear ImGui's GLFW backend fills io.KeysDown with them

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>

namespace ringlab::viz {
namespace {

// Lays text out into items; `scale` multiplies every size (shrink to fit).
struct Flow {
  const SlideFonts& f;
  float scale;
  std::vector<SlideItem>& items;

  float size_of(const ImFont* font) const { return font->FontSize * scale; }
  ImFont* font_for(const Span& s, ImFont* regular) const {
    if (s.code) return f.mono;
    if (regular != f.body) return regular;  // headings have their own face
    if (s.bold) return s.italic ? f.bold_italic : f.bold;
    return s.italic ? f.italic : f.body;
  }
  static float width(ImFont* font, float size, const std::string& s) {
    return font->CalcTextSizeA(size, FLT_MAX, 0, s.c_str(), s.c_str() + s.size()).x;
  }
  // Spans into lines between x_left and x_right from y; returns the new y (below the text).
  float spans(const std::vector<Span>& spans, ImFont* regular, ImU32 colour, float x_left, float x_right,
              float y, float line_gap = 1.28f) {
    const float size = size_of(regular), lh = size * line_gap;
    float x = x_left;
    bool line_used = false;
    auto newline = [&] {
      y += lh;
      x = x_left;
      line_used = false;
    };
    for (const Span& s : spans) {
      ImFont* font = font_for(s, regular);
      const float fs = s.code ? size * 0.88f : size;
      const float dy = (size - fs) * 0.7f;
      const ImU32 col = s.code ? palette().code : (s.bold && regular == f.body ? palette().bright : colour);
      std::size_t i = 0;
      while (i < s.text.size()) {
        if (s.text[i] == ' ') {  // a space: advance, unless at the start of a line
          if (line_used) x += width(font, fs, " ");
          ++i;
          continue;
        }
        // A word; inline code is one piece (one shaded box, never broken at its spaces).
        std::size_t j = s.code ? s.text.size() : s.text.find(' ', i);
        if (j == std::string::npos) j = s.text.size();
        std::string word = s.text.substr(i, j - i);
        i = j;
        float w = width(font, fs, word);
        if (line_used && x + w > x_right) newline();
        // Wider than a whole line: cut it where it stops fitting (on a UTF-8 boundary).
        while (w > x_right - x_left && word.size() > 1) {
          std::size_t cut = word.size();
          while (cut > 1 && width(font, fs, word.substr(0, cut)) > x_right - x) {
            --cut;
            while (cut > 1 && (static_cast<unsigned char>(word[cut]) & 0xC0) == 0x80) --cut;
          }
          add_text(font, fs, x, y + dy, col, word.substr(0, cut), s.code);
          newline();
          word = word.substr(cut);
          w = width(font, fs, word);
        }
        add_text(font, fs, x, y + dy, col, word, s.code);
        x += w;
        line_used = true;
      }
    }
    return y + (line_used || x != x_left ? lh : 0);
  }
  void add_text(ImFont* font, float size, float x, float y, ImU32 col, const std::string& t, bool code_bg) {
    const float w = width(font, size, t);
    if (code_bg) rect(x - 3 * scale, y, x + w + 3 * scale, y + size * 1.12f, palette().code_bg);
    items.push_back({.font = font, .size = size, .x0 = x, .y0 = y, .x1 = x + w, .y1 = y + size,
                     .colour = col, .text = t});
  }
  void rect(float x0, float y0, float x1, float y1, ImU32 c) {
    items.push_back({.kind = SlideItem::Kind::rect, .x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1, .colour = c});
  }
};

float spans_width(const Flow& fl, const std::vector<Span>& spans, ImFont* regular) {
  float w = 0;
  for (const Span& s : spans) {
    const float fs = s.code ? fl.size_of(regular) * 0.88f : fl.size_of(regular);
    w += Flow::width(fl.font_for(s, regular), fs, s.text);
  }
  return w;
}

// One try at laying the slide out at `scale`: returns the y where the content ends.
float layout_at(const Slide& slide, const SlideFonts& f, float scale, float x0, float y0, float x1, float y1,
                const ImageInfo& image, SlideLayout& out) {
  out.items.clear();
  Flow fl{f, scale, out.items};
  float y = y0;
  bool first_heading = true;
  const float body = fl.size_of(f.body);
  for (std::size_t k = 0; k < slide.blocks.size(); ++k) {
    const SlideBlock& b = slide.blocks[k];
    // A list ends: a little air before what follows it.
    if (k > 0 && slide.blocks[k - 1].kind == SlideBlock::Kind::item && b.kind != SlideBlock::Kind::item)
      y += body * 0.3f;
    switch (b.kind) {
      case SlideBlock::Kind::heading: {
        ImFont* font = b.level == 1 ? f.h1 : b.level == 2 ? f.h2 : f.bold;
        const std::size_t before = out.items.size();
        const float top = y;
        y = fl.spans(b.spans, font, b.level == 3 ? palette().text : palette().accent, x0, x1, y, 1.2f);
        if (first_heading) {
          out.title[0] = x1, out.title[1] = top, out.title[2] = x0, out.title[3] = y;
          for (std::size_t k = before; k < out.items.size(); ++k) {
            out.title[0] = std::min(out.title[0], out.items[k].x0);
            out.title[2] = std::max(out.title[2], out.items[k].x1);
          }
          first_heading = false;
        }
        if (b.level == 2) {  // a rule under slide titles
          fl.rect(x0, y + body * 0.1f, x0 + std::min(x1 - x0, body * 3.5f), y + body * 0.1f + 4 * scale,
                  palette().accent);
          y += body * 0.55f;
        }
        y += body * 0.35f;
        break;
      }
      case SlideBlock::Kind::paragraph:
        y = fl.spans(b.spans, f.body, palette().text, x0, x1, y) + body * 0.45f;
        break;
      case SlideBlock::Kind::item: {
        const float indent = b.level * body * 1.4f;
        const std::string mark =
            b.number > 0 ? std::to_string(b.number) + "." : (b.level == 0 ? "\u2022" : "\u2013");
        const float mark_w = Flow::width(f.bold, body, mark);
        fl.add_text(f.bold, body, x0 + indent, y, palette().accent, mark, false);
        const float text_x = x0 + indent + std::max(mark_w + body * 0.45f, body * 1.15f);
        y = fl.spans(b.spans, f.body, palette().text, text_x, x1, y) + body * 0.22f;
        break;
      }
      case SlideBlock::Kind::code: {
        // Monospace lines, shaded; a block too wide for the slide gets a smaller size (its
        // lines are commands: wrapping them would change what a reader types).
        float fs = fl.size_of(f.mono);
        const float pad = fs * 0.55f;
        std::vector<std::string> lines;
        std::istringstream text(b.text + '\n');  // a last empty line counts too
        for (std::string line; std::getline(text, line);) lines.push_back(line);
        float widest = 0;
        for (const auto& l : lines) widest = std::max(widest, Flow::width(f.mono, fs, l));
        if (widest > x1 - x0 - 2 * pad) fs *= std::max(0.55f, (x1 - x0 - 2 * pad) / widest);
        const float lh = fs * 1.3f;
        fl.rect(x0, y, x1, y + lines.size() * lh + 2 * pad, palette().code_bg);
        for (std::size_t k = 0; k < lines.size(); ++k)
          if (!lines[k].empty())
            fl.add_text(f.mono, fs, x0 + pad, y + pad + k * lh + (lh - fs) / 2, palette().code, lines[k], false);
        y += lines.size() * lh + 2 * pad + body * 0.5f;
        break;
      }
      case SlideBlock::Kind::table: {
        const std::size_t cols = b.rows.front().size();
        float fs_scale = 0.92f;
        std::vector<float> w(cols, 0);
        const float pad = body * 0.45f;
        for (int attempt = 0; attempt < 8; ++attempt) {
          std::fill(w.begin(), w.end(), 0.0f);
          Flow probe{f, scale * fs_scale, out.items};
          for (std::size_t r = 0; r < b.rows.size(); ++r)
            for (std::size_t c = 0; c < cols && c < b.rows[r].size(); ++c)
              w[c] = std::max(w[c], spans_width(probe, b.rows[r][c], r == 0 ? f.bold : f.body) + 2 * pad + 2);
          if (std::accumulate(w.begin(), w.end(), 0.0f) <= x1 - x0) break;
          fs_scale *= 0.9f;
        }
        Flow tf{f, scale * fs_scale, out.items};
        const float lh = tf.size_of(f.body) * 1.45f, total = std::accumulate(w.begin(), w.end(), 0.0f);
        for (std::size_t r = 0; r < b.rows.size(); ++r) {
          if (r == 0) tf.rect(x0, y, x0 + total, y + lh, palette().table_head);
          float x = x0;
          float row_bottom = y + lh;
          for (std::size_t c = 0; c < cols && c < b.rows[r].size(); ++c) {
            row_bottom =
                std::max(row_bottom, tf.spans(b.rows[r][c], r == 0 ? f.bold : f.body,
                                              r == 0 ? palette().bright : palette().text, x + pad,
                                              x + w[c] - pad, y + (lh - tf.size_of(f.body) * 1.28f) / 2));
            x += w[c];
          }
          y = row_bottom;
          tf.rect(x0, y, x0 + total, y + std::max(1.0f, scale), palette().rule);
        }
        y += body * 0.6f;
        break;
      }
      case SlideBlock::Kind::image: {
        int iw = 0, ih = 0;
        ImTextureID tex = nullptr;
        if (image && image(b.path, &iw, &ih, &tex) && iw > 0 && ih > 0) {
          const float room_h = std::max((y1 - y) - body * 0.6f, (y1 - y0) * 0.3f);  // best last on a slide
          const float k = std::min((x1 - x0) / iw, room_h / ih);
          const float w = iw * k, h = ih * k, left = x0 + (x1 - x0 - w) / 2;
          out.items.push_back({.kind = SlideItem::Kind::image, .x0 = left, .y0 = y, .x1 = left + w,
                               .y1 = y + h, .text = b.path, .tex = tex});
          y += h + body * 0.5f;
        } else {
          y = fl.spans({Span{"[image " + b.text + " could not be read]"}}, f.italic, palette().dim, x0, x1, y);
        }
        break;
      }
    }
  }
  return y;
}

}  // namespace

const ImWchar* slide_glyph_ranges() {
  static ImVector<ImWchar> ranges;  // must outlive the atlas build
  if (ranges.empty()) {
    ImFontGlyphRangesBuilder b;
    b.AddRanges(ImGui::GetIO().Fonts->GetGlyphRangesDefault());  // Basic Latin, Latin-1
    static const ImWchar extra[] = {0x0370, 0x03FF,  // Greek (α β Σ)
                                    0x2010, 0x205E,  // dashes, quotes, bullets, …, ′
                                    0x2070, 0x209F,  // superscripts and subscripts (x₀ w₁ N²)
                                    0x2190, 0x21FF,  // arrows (→ ← ⇒)
                                    0x2200, 0x22FF,  // math operators (− × ≈ ≤ √ ∑ ⌈)
                                    0x2308, 0x230B,  // ⌈ ⌉ ⌊ ⌋
                                    0x25A0, 0x25FF,  // geometric shapes (■ ▶ ●)
                                    0x2713, 0x2717,  // ✓ ✗
                                    0};
    b.AddRanges(extra);
    b.BuildRanges(&ranges);
  }
  return ranges.Data;
}

bool build_slide_fonts(ImFontAtlas& atlas, int height, SlideFonts& fonts, std::string* error) {
  const ImWchar* ranges = slide_glyph_ranges();
  const float h = static_cast<float>(height);
  auto add = [&](const char* pattern, float px) -> ImFont* {
    const std::string path = find_font(pattern, error);
    if (path.empty()) return nullptr;
    ImFontConfig cfg;
    cfg.OversampleH = px < 24 ? 2 : 1;  // big glyphs need no sub-pixel copies
    cfg.PixelSnapH = px >= 24;
    return atlas.AddFontFromFileTTF(path.c_str(), std::round(px), &cfg, ranges);
  };
  atlas.Clear();
  fonts = SlideFonts{};
  fonts.height = height;
  // The UI font first: it is the default for the views on demo slides.
  fonts.ui = add("DejaVu Sans", std::max(14.0f, h / 36));  // demo panes: 1/36 of the height
  fonts.body = add("DejaVu Sans", h / 26);
  fonts.bold = add("DejaVu Sans:bold", h / 26);
  fonts.italic = add("DejaVu Sans:italic", h / 26);
  fonts.bold_italic = add("DejaVu Sans:bold:italic", h / 26);
  fonts.mono = add("DejaVu Sans Mono", h / 31);
  fonts.h1 = add("DejaVu Sans:bold", h / 13);
  fonts.h2 = add("DejaVu Sans:bold", h / 18);
  const bool ok = fonts.ui && fonts.body && fonts.bold && fonts.italic && fonts.bold_italic && fonts.mono &&
                  fonts.h1 && fonts.h2;
  return ok && atlas.Build();
}

SlideLayout layout_slide(const Slide& slide, const SlideFonts& f, float width, float height,
                         const ImageInfo& image) {
  SlideLayout out;
  const float footer = f.ui->FontSize * 1.8f;
  float x0 = width * 0.055f, x1 = width * 0.945f;
  const float y0 = height * 0.065f, y1 = height - footer - height * 0.025f;
  if (slide.has_demo) {  // text on the left, the live view on the right
    out.demo[0] = width * 0.43f, out.demo[1] = y0, out.demo[2] = width - width * 0.03f, out.demo[3] = y1;
    x0 = width * 0.045f;
    x1 = width * 0.405f;
  }
  out.area[0] = x0, out.area[1] = y0, out.area[2] = x1, out.area[3] = y1;
  // Largest scale at which everything fits (1, then 5 % smaller each try, down to 55 %).
  float end_y = 0;
  for (float s = 1.0f;; s *= 0.95f) {
    out.scale = s;
    end_y = layout_at(slide, f, s, x0, y0, x1, y1, image, out);
    bool inside = end_y <= y1 + 0.5f;
    for (const auto& it : out.items) inside = inside && it.x1 <= x1 + 0.5f && it.y1 <= y1 + 0.5f;
    if (inside || s < 0.56f) break;
  }
  // A title slide (it opens with a # heading, no demo): centred vertically.
  if (!slide.blocks.empty() && slide.blocks.front().kind == SlideBlock::Kind::heading &&
      slide.blocks.front().level == 1 && !slide.has_demo && end_y < y1) {
    const float dy = (y1 - end_y) * 0.45f;
    for (auto& it : out.items) it.y0 += dy, it.y1 += dy;
    out.title[1] += dy, out.title[3] += dy;
  }
  out.extent[0] = x0, out.extent[1] = y0, out.extent[2] = x0, out.extent[3] = y0;
  for (const auto& it : out.items) {
    out.extent[0] = std::min(out.extent[0], it.x0), out.extent[1] = std::min(out.extent[1], it.y0);
    out.extent[2] = std::max(out.extent[2], it.x1), out.extent[3] = std::max(out.extent[3], it.y1);
  }
  out.fits = out.extent[0] >= x0 - 4 * out.scale && out.extent[2] <= x1 + 0.5f &&
             out.extent[3] <= y1 + 0.5f && out.extent[1] >= y0 - 0.5f;
  return out;
}

std::string Presenter::clock() const {
  const long long s =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

namespace {
// A clean slate for this slide's demo: the run still going stopped, no events, playback at 0.
void fresh_demo(App& app, Presenter& p, bool live) {
  app.launcher.stop();
  app.launcher.wait(3);  // for mpirun to go
  app.session = Session();
  app.playback = Playback();
  p.demo_slide = p.current;
  p.demo_live = live;
}
}  // namespace

void go_to(App& app, Presenter& p, int index) {
  if (p.deck.slides.empty()) return;
  p.current = std::clamp(index, 0, static_cast<int>(p.deck.slides.size()) - 1);
  const Slide& s = p.deck.slides[p.current];
  if (!s.has_demo || p.demo_slide == p.current) return;
  fresh_demo(app, p, false);
  app.form.error.clear();
  if (!s.demo.trace.empty() && app.session.open_file(s.demo.trace)) show_demo_step(app, p);
}

void show_demo_step(App& app, const Presenter& p) {
  const Slide* s = p.slide();
  Run* run = app.session.current();
  if (!s || !run) return;
  const int frames = static_cast<int>(run->timeline.frames().size());
  app.playback.pos = (s->demo.at >= 0 ? std::min(s->demo.at, frames - 1) : frames / 2) + 0.5;
}

bool demo_finished(const App& app, const Presenter& p) {
  const Slide* s = p.slide();
  if (app.launcher.running()) return false;
  if (!s || !s->has_demo || s->demo.output_only() || app.launcher.exit_code() != 0) return true;
  return app.session.live_run_finished();
}

bool run_demo(App& app, Presenter& p) {
  const Slide* s = p.slide();
  if (!s || !s->has_demo) return false;
  if (s->demo.lesson == 0) {  // a recorded trace: replay it from the start
    app.playback.pos = 0;
    app.playback.speed = p.demo_speed;
    app.playback.playing = true;
    return app.session.current() != nullptr;
  }
  fresh_demo(app, p, true);
  app.form.lesson = s->demo.lesson;
  app.form.np = s->demo.np;
  std::snprintf(app.form.flags, sizeof app.form.flags, "%s", s->demo.flags.c_str());
  // The launch panel's path: --viz pointing at this window (an output-only demo streams nothing).
  const bool ok = start_lesson(app, !s->demo.output_only());
  app.playback.follow_live = false;  // the presenter paces the frames itself (presenter_tick)
  return ok;
}

void presenter_tick(App& app, Presenter& p, double dt) {
  Run* run = app.session.current();
  if (!run) return;
  const int frames = static_cast<int>(run->timeline.frames().size());
  if (p.demo_live) {  // frames as they arrive, at a pace the room can follow
    // A long run (training: thousands of steps) is followed live instead: its view is the loss.
    const double last = frames > 0 ? frames - 0.5 : 0;
    if (last - app.playback.pos > 30) app.playback.pos = last;
    else if (app.playback.pos < last) app.playback.pos = std::min(last, app.playback.pos + dt * p.demo_speed);
  } else {
    app.playback.update(dt, frames, run->timeline.t_min(), run->timeline.t_max());
  }
}

void presenter_keys(App& app, Presenter& p) {
  ImGuiIO& io = ImGui::GetIO();
  // GLFW key codes, the backend's legacy key indices. ImGui 1.86 takes an int here, 1.90
  // (Debian 13) an ImGuiKey: the cast compiles with both (ImGuiKey is an int in 1.86).
  auto pressed = [](int key) { return ImGui::IsKeyPressed(static_cast<ImGuiKey>(key), true); };
  if (p.jumping) {  // G 1 2 Enter: slide 12
    for (ImWchar c : io.InputQueueCharacters)
      if (c >= '0' && c <= '9' && p.jump_digits.size() < 4) p.jump_digits += static_cast<char>(c);
    if (pressed(GLFW_KEY_BACKSPACE) && !p.jump_digits.empty()) p.jump_digits.pop_back();
    if (pressed(GLFW_KEY_ENTER) || pressed(GLFW_KEY_KP_ENTER)) {
      if (!p.jump_digits.empty()) go_to(app, p, std::stoi(p.jump_digits) - 1);
      p.jumping = false;
    }
    if (pressed(GLFW_KEY_ESCAPE)) p.jumping = false;
    return;
  }
  const int n = static_cast<int>(p.deck.slides.size());
  if (pressed(GLFW_KEY_RIGHT) || pressed(GLFW_KEY_SPACE) || pressed(GLFW_KEY_PAGE_DOWN) ||
      pressed(GLFW_KEY_DOWN) || pressed(GLFW_KEY_N))
    go_to(app, p, p.current + 1);
  if (pressed(GLFW_KEY_LEFT) || pressed(GLFW_KEY_PAGE_UP) || pressed(GLFW_KEY_UP) || pressed(GLFW_KEY_P) ||
      pressed(GLFW_KEY_BACKSPACE))
    go_to(app, p, p.current - 1);
  if (pressed(GLFW_KEY_HOME)) go_to(app, p, 0);
  if (pressed(GLFW_KEY_END)) go_to(app, p, n - 1);
  if (pressed(GLFW_KEY_B) || pressed(GLFW_KEY_PERIOD)) p.black = !p.black;
  if (pressed(GLFW_KEY_F)) p.want_fullscreen_toggle = true;
  if (pressed(GLFW_KEY_G)) p.jumping = true, p.jump_digits.clear();
  if (pressed(GLFW_KEY_R)) run_demo(app, p);
}

namespace {
void draw_items(ImDrawList* dl, const SlideLayout& L) {
  for (const auto& it : L.items) {
    const ImVec2 a(it.x0, it.y0), b(it.x1, it.y1);
    if (it.kind == SlideItem::Kind::text)
      dl->AddText(it.font, it.size, a, it.colour, it.text.c_str(), it.text.c_str() + it.text.size());
    if (it.kind == SlideItem::Kind::rect) dl->AddRectFilled(a, b, it.colour, 4.0f);
    if (it.kind == SlideItem::Kind::image) dl->AddImage(it.tex, a, b);
  }
}

// Text wrapped at `width` (at spaces where it can, anywhere where it must), from `y` down: the
// lines' first and last characters, so a caller can count them before drawing the last ones.
std::vector<std::pair<const char*, const char*>> wrap_lines(ImFont* font, float size, const std::string& text,
                                                             float width) {
  std::vector<std::pair<const char*, const char*>> out;
  const char* p = text.c_str();
  const char* end = p + text.size();
  while (p < end) {
    const char* nl = std::find(p, end, '\n');
    const char* line = p;
    do {  // one source line: as many screen lines as it needs
      const char* cut = font->CalcWordWrapPositionA(size / font->FontSize, line, nl, width);
      if (cut == line) ++cut;  // a glyph wider than the pane: still make progress
      out.emplace_back(line, cut);
      line = cut;
      while (line < nl && *line == ' ') ++line;
    } while (line < nl);
    p = nl + 1;
  }
  return out;
}

// The demo's half of the slide: what runs, the view(s), and the run's output.
void draw_demo(App& app, Presenter& p, const Slide& s, const float* r) {
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  ImFont* ui = p.fonts.ui;
  const float fs = ui->FontSize, pad = fs * 0.5f, inner = r[2] - r[0] - 2 * pad;
  const ImU32 pane = palette().pane;
  dl->AddRectFilled(ImVec2(r[0], r[1]), ImVec2(r[2], r[3]), pane, 8.0f);
  app.background = pane;  // the views' labels are measured against this
  begin_view("demo-header", pane);
  // Header: the command as the attendee would type it (wrapped, never cut), then what R does.
  const std::string what = "$ " + demo_command(s.demo);
  float top = r[1] + pad;
  for (const auto& [b, e] : wrap_lines(p.fonts.mono, fs, what, inner)) {
    label(dl, p.fonts.mono, fs, ImVec2(r[0] + pad, top), palette().code, b, e);
    top += fs * 1.25f;
  }
  std::string status;
  const bool ours = p.demo_slide == p.current;
  if (ours && p.demo_live && app.launcher.running()) status = "running \u2026";
  else if (ours && p.demo_live && app.launcher.exit_code() >= 0)
    status = "exit " + std::to_string(app.launcher.exit_code()) + " \u00b7 R: run again";
  else status = s.demo.lesson > 0 ? "R: run it live" : "R: replay";
  const float sw = ui->CalcTextSizeA(fs, FLT_MAX, 0, status.c_str()).x;
  label(dl, ui, fs, ImVec2(r[0] + pad, top), palette().accent, status.c_str());
  // The status is a button too: a click does what R does.
  if (ImGui::IsMouseClicked(0) &&
      ImGui::IsMouseHoveringRect(ImVec2(r[0] + pad, top), ImVec2(r[0] + pad + sw, top + fs * 1.2f), false))
    run_demo(app, p);
  Run* run = ours ? app.session.current() : nullptr;
  if (run && !run->timeline.frames().empty()) {  // beside the status, where it fits; else below
    const int frames = static_cast<int>(run->timeline.frames().size());
    const int f = std::clamp(static_cast<int>(app.playback.pos), 0, frames - 1);
    const std::string step_text = "step " + std::to_string(f) + "/" + std::to_string(frames - 1) + ": " +
                              run->timeline.frames()[f].label();
    float x = r[0] + pad + sw + fs;
    if (x + ui->CalcTextSizeA(fs, FLT_MAX, 0, step_text.c_str()).x > r[2] - pad) x = r[0] + pad, top += fs * 1.25f;
    for (const auto& [b, e] : wrap_lines(ui, fs, step_text, r[2] - pad - x)) {
      label(dl, ui, fs, ImVec2(x, top), palette().dim, b, e);
      top += fs * 1.25f;
    }
  } else {
    top += fs * 1.25f;
  }
  top += pad * 0.5f;
  // Output pane at the bottom: the run's last lines (live runs only).
  const float out_h = s.demo.output_only() ? r[3] - top : s.demo.lesson > 0 ? (r[3] - r[1]) * 0.24f : 0;
  const float views_bottom = r[3] - out_h - pad;
  const std::size_t nv = s.demo.output_only() ? 0 : s.demo.views.size();
  if (p.show_views && nv > 0 && !run) {  // nothing to show yet: say what R does, large
    const std::string hint = app.launcher.running() ? "starting the ranks \u2026"
                             : s.demo.lesson > 0    ? "press R: lesson " + std::to_string(s.demo.lesson) +
                                                       " runs on " + std::to_string(s.demo.np) + " ranks"
                                                 : "press R to replay";
    ImFont* big = p.fonts.body;
    const ImVec2 ts = big->CalcTextSizeA(big->FontSize, FLT_MAX, 0, hint.c_str());
    label(dl, big, big->FontSize, ImVec2((r[0] + r[2] - ts.x) / 2, (top + views_bottom - ts.y) / 2), palette().dim,
          hint.c_str());
  } else if (p.show_views) {
    ImGui::PushFont(ui);
    // One view, or two stacked: the first gets 58 % (a ring wants height; a buffer's rows stop
    // at 40 px). Side by side, the views' legends would not fit their width.
    const float vw = r[2] - r[0] - 2 * pad, vh = views_bottom - top;
    for (std::size_t v = 0; v < nv; ++v) {
      const float share = nv == 1 ? 1.0f : v == 0 ? 0.58f : 0.42f;
      ImGui::SetNextWindowPos(ImVec2(r[0] + pad, top + (v == 0 ? 0 : vh * 0.58f)));
      ImGui::SetNextWindowSize(ImVec2(vw, vh * share - pad * 0.5f));
      const std::string name = "##demo_view" + std::to_string(v);
      ImGui::Begin(name.c_str(), nullptr,
                   kPane | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar |
                       ImGuiWindowFlags_NoBringToFrontOnFocus);
      const std::string& view = s.demo.views[v];
      if (!ours) ImGui::TextDisabled("(demo not ready)");
      else if (view == "ring") draw_ring_view(app);
      else if (view == "buffers") draw_buffer_view(app);
      else if (view == "loss") draw_loss_plot(app);
      else if (view == "bytes") draw_bytes_chart(app);
      else if (view.rfind("bytes:", 0) == 0) draw_bytes_chart(app, view.substr(6));
      else if (view == "pipeline") draw_pipeline_chart(app);
      ImGui::End();
    }
    ImGui::PopFont();
  }
  if (out_h > 0) {
    const float oy = r[3] - out_h;
    dl->AddRectFilled(ImVec2(r[0] + pad, oy), ImVec2(r[2] - pad, r[3] - pad), palette().output_bg,
                      4.0f);
    std::string text = ours && p.demo_live ? app.launcher.output() : "";
    // The launcher's first line is the full command line (absolute paths); the header already
    // shows it as the attendee types it.
    if (text.rfind("$ ", 0) == 0) text.erase(0, std::min(text.size(), text.find('\n') + 1));
    if (ours && !app.form.error.empty()) text += "error: " + app.form.error + "\n";
    if (text.empty()) text = "press R: the lesson runs on real MPI ranks, its output appears here";
    // The last screen lines that fit, long lines wrapped (never cut: "rel diff 1.2e-16" keeps
    // its exponent).
    const float lh = fs * 1.2f, w = r[2] - r[0] - 3 * pad;
    const int max_lines = std::max(1, static_cast<int>((out_h - 2 * pad) / lh));
    const auto lines = wrap_lines(p.fonts.mono, fs, text, w);
    const std::size_t first =
        lines.size() > static_cast<std::size_t>(max_lines) ? lines.size() - max_lines : 0;
    begin_view("demo-output", palette().output_bg);
    for (std::size_t k = first; k < lines.size(); ++k)
      label(dl, p.fonts.mono, fs, ImVec2(r[0] + 1.5f * pad, oy + pad * 0.6f + (k - first) * lh), palette().text,
            lines[k].first, lines[k].second);
  }
}
}  // namespace

void draw_presenter(App& app, Presenter& p, float width, float height) {
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const Slide* s = p.slide();
  if (p.black) {
    ImGui::GetForegroundDrawList()->AddRectFilled(ImVec2(0, 0), ImVec2(width, height),
                                                  IM_COL32(0, 0, 0, 255));
    return;
  }
  if (!s) return;
  p.last = layout_slide(*s, p.fonts, width, height, p.image);
  draw_items(dl, p.last);
  if (s->has_demo) draw_demo(app, p, *s, p.last.demo);
  // Footer: the deck's title, the slide counter and the clock.
  ImFont* ui = p.fonts.ui;
  const float fs = ui->FontSize, y = height - fs * 1.6f;
  dl->AddText(ui, fs, ImVec2(width * 0.03f, y), palette().dim, p.deck.title.c_str());
  const std::string right = std::to_string(p.current + 1) + " / " + std::to_string(p.deck.slides.size()) +
                            (p.show_clock ? "    " + p.clock() : "");
  const float rw = ui->CalcTextSizeA(fs, FLT_MAX, 0, right.c_str()).x;
  dl->AddText(ui, fs, ImVec2(width * 0.97f - rw, y), palette().dim, right.c_str());
  if (p.jumping) {  // G: the slide number being typed
    const std::string t = "go to slide: " + p.jump_digits + "_";
    ImFont* f = p.fonts.h2;
    const ImVec2 ts = f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, t.c_str());
    const ImVec2 c(width / 2, height / 2);
    ImDrawList* fg = ImGui::GetForegroundDrawList();
    fg->AddRectFilled(ImVec2(c.x - ts.x / 2 - 30, c.y - ts.y / 2 - 20),
                      ImVec2(c.x + ts.x / 2 + 30, c.y + ts.y / 2 + 20), palette().pane, 10);
    fg->AddText(f, f->FontSize, ImVec2(c.x - ts.x / 2, c.y - ts.y / 2), palette().accent, t.c_str());
  }
}

void draw_presenter_notes(const Presenter& p, float width, float height) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  ImGui::Begin("Notes", nullptr, kPane | ImGuiWindowFlags_NoTitleBar);
  const int n = static_cast<int>(p.deck.slides.size());
  ImGui::TextColored(ImVec4(0.41f, 0.73f, 0.94f, 1), "slide %d / %d     %s", p.current + 1, n,
                     p.clock().c_str());
  if (const Slide* s = p.slide()) ImGui::Text("now: %s", s->title().c_str());
  ImGui::TextDisabled("next: %s",
                      p.current + 1 < n ? p.deck.slides[p.current + 1].title().c_str() : "(end of deck)");
  ImGui::Separator();
  if (const Slide* s = p.slide()) {
    if (s->has_demo) ImGui::TextColored(ImVec4(0.94f, 0.78f, 0.51f, 1), "demo slide: R runs it");
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(s->notes.empty() ? "(no notes)" : s->notes.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace ringlab::viz
