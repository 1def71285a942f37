// Playback bar, ring view, buffer view, status line and the window layout.
#include "views.hpp"

#include "fonts.hpp"
#include "text_boxes.hpp"
#include "theme.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ringlab::viz {
namespace {
const Rgb kCopyColour{95, 165, 205};

int frame_count(App& app) {
  Run* run = app.session.current();
  return run ? static_cast<int>(run->timeline.frames().size()) : 0;
}

// The chart tabs; app.open_tab, when set, is the one selected on this frame.
void draw_charts(App& app) {
  if (!ImGui::BeginTabBar("charts")) return;
  struct Tab {
    const char* key;
    const char* title;
    void (*draw)(App&);
  };
  static const Tab tabs[] = {{"loss", "Loss per worker", draw_loss_plot},
                             {"bytes", "Bytes per rank", [](App& a) { draw_bytes_chart(a); }},
                             {"pipeline", "Pipeline", draw_pipeline_chart},
                             {"launch", "Launch", draw_launch_panel},
                             {"notes", "Notes", [](App& a) {
                                for (const auto& note : a.session.notes())
                                  ImGui::TextUnformatted(note.c_str());
                              }}};
  for (const Tab& t : tabs) {
    const ImGuiTabItemFlags flags = app.open_tab == t.key ? ImGuiTabItemFlags_SetSelected : 0;
    if (ImGui::BeginTabItem(t.title, nullptr, flags)) {
      t.draw(app);
      ImGui::EndTabItem();
    }
  }
  app.open_tab.clear();
  ImGui::EndTabBar();
}

std::string short_number(double v) {
  char buf[32];
  if (std::fabs(v) >= 1e6 || (std::fabs(v) < 1e-2 && v != 0)) std::snprintf(buf, sizeof buf, "%.3g", v);
  else if (v == std::floor(v)) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

void draw_playback_bar(App& app) {
  Playback& p = app.playback;
  Run* run = app.session.current();
  const int frames = frame_count(app);
  auto next_button = [](const char* text) {  // on the same line as the widget before
    ImGui::SameLine();
    return ImGui::Button(text);
  };
  if (ImGui::Button("|<")) p.step(-frames, frames);
  if (next_button("<")) p.step(-1, frames);
  if (next_button(p.playing ? "pause" : "play ")) p.toggle();
  if (next_button(">")) p.step(+1, frames);
  if (next_button(">|")) p.step(frames, frames);
  ImGui::SameLine();
  ImGui::Text("speed %gx", p.speed);
  if (next_button("-")) p.slower();
  if (next_button("+")) p.faster();
  ImGui::SameLine();
  ImGui::Checkbox("time", &p.time_mode);
  ImGui::SameLine();
  ImGui::Checkbox("follow live", &p.follow_live);
  if (!app.session.runs().empty()) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::max(em() * 9, ImGui::GetContentRegionAvail().x));
    const std::string label = run ? run->name : "";
    if (ImGui::BeginCombo("##run", label.c_str())) {
      for (int i = 0; i < static_cast<int>(app.session.runs().size()); ++i)
        if (ImGui::Selectable(app.session.runs()[i]->name.c_str(), i == app.session.current_index())) {
          app.session.select(i);
          p.pos = 0;
        }
      ImGui::EndCombo();
    }
  }
  if (!run || frames == 0) {
    ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.6f, 1),
                       "no steps yet: open a trace, or start a lesson with --viz");
    return;
  }
  ImGui::SetNextItemWidth(-1);
  if (p.time_mode) {
    float t = static_cast<float>(p.t);
    const float t0 = static_cast<float>(run->timeline.t_min()),
                t1 = static_cast<float>(run->timeline.t_max());
    if (ImGui::SliderFloat("##time", &t, t0, std::max(t1, t0 + 1), "t = %.1f us")) {
      p.t = t;
      p.follow_live = false;
    }
  } else {
    float pos = static_cast<float>(p.pos);
    const int f = std::clamp(static_cast<int>(pos), 0, frames - 1);
    const std::string label = "step " + std::to_string(f) + "/" + std::to_string(frames - 1) + ": " +
                              run->timeline.frames()[f].label();
    if (ImGui::SliderFloat("##step", &pos, 0, static_cast<float>(frames) - 0.001f, label.c_str())) {
      p.pos = pos;
      p.follow_live = false;
    }
  }
}

void draw_status_line(App& app) {
  Run* run = app.session.current();
  const std::string last = app.session.notes().empty() ? "" : app.session.notes().back();
  begin_view("status", app.background);
  ImGui::Text("source: %s | ranks connected: %d | events: %zu | frame %.1f ms (timeline %.1f ms)%s%s",
              app.source.c_str(), app.session.connected(), run ? run->timeline.event_count() : std::size_t{0},
              app.frame_ms, run ? run->timeline.last_rebuild_ms() : 0.0, last.empty() ? "" : " | ",
              last.c_str());
  record_item(palette().text);
}
}  // namespace

float legend_entry(ImDrawList* dl, ImVec2 p, ImU32 colour, const char* text) {
  const float f = em();
  dl->AddRectFilled(ImVec2(p.x, p.y + f * 0.2f), ImVec2(p.x + f * 0.75f, p.y + f * 0.95f), colour);
  label(dl, ImVec2(p.x + f, p.y), palette().text, text);
  return ImGui::CalcTextSize(text).x;
}

void handle_keys(App& app) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  Playback& p = app.playback;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) p.toggle();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) p.step(+1, frame_count(app));
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) p.step(-1, frame_count(app));
  for (ImWchar c : io.InputQueueCharacters) {
    if (c == '+' || c == '=') p.faster();
    if (c == '-' || c == '_') p.slower();
    // Text size, live: the window rebuilds its font before the next frame (main.cpp).
    if (c == ']') app.font_scale = std::min(4.0f, app.font_scale * 1.15f);
    if (c == '[') app.font_scale = std::max(0.5f, app.font_scale / 1.15f);
  }
}

void draw_ring_view(App& app) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  Run* run = app.session.current();
  if (!run) {
    ImGui::TextDisabled("no run open");
    return;
  }
  const int n = run->header.ranks;
  begin_view("ring", app.background);
  const float f = em();
  const float legend_h = ImGui::GetTextLineHeightWithSpacing();
  const float margin = n > 32 ? f * 1.2f : 0.0f;  // room for rank numbers outside the circle
  const float x0 = p0.x + margin, y0 = p0.y + legend_h + margin, x1 = p0.x + avail.x - margin,
              y1 = p0.y + avail.y - margin;
  app.ring = ring_layout(n, x0, y0, x1, y1, f);
  app.ring_rect[0] = x0, app.ring_rect[1] = y0, app.ring_rect[2] = x1, app.ring_rect[3] = y1;
  const RingLayout& L = app.ring;

  // Legend: what the colours mean.
  float lx = p0.x;
  for (const char* phase : {"reduce-scatter", "allgather", "forward", "backward"})
    lx += f * 1.6f + legend_entry(dl, ImVec2(lx, p0.y), phase_colour(phase).abgr(), phase);

  // The ring's edges, faint: the path every ring step uses.
  if (n > 1)
    for (int r = 0; r < n; ++r) {
      const Vec2 a = L.ranks[r], b = L.ranks[(r + 1) % n];
      dl->AddLine(ImVec2(a.x, a.y), ImVec2(b.x, b.y), palette().ring_edge, 1.0f);
    }
  std::vector<MoveAt> moves = app.playback.time_mode ? run->timeline.moves_at_time(app.playback.t)
                                                     : run->timeline.moves_at(app.playback.pos);
  // The edges in use at this step, in their phase's colour.
  for (const auto& m : moves) {
    const Vec2 a = L.ranks[m.move->src], b = L.ranks[m.move->dst];
    dl->AddLine(ImVec2(a.x, a.y), ImVec2(b.x, b.y), phase_colour(m.move->phase).abgr(110), 2.0f);
  }
  // Ranks.
  for (int r = 0; r < n; ++r) {
    const Vec2 c = L.ranks[r];
    dl->AddCircleFilled(ImVec2(c.x, c.y), L.node_radius, palette().node_fill, 24);
    dl->AddCircle(ImVec2(c.x, c.y), L.node_radius, palette().node_line, 24, 1.5f);
    const std::string number = std::to_string(r);
    const ImVec2 ts = ImGui::CalcTextSize(number.c_str());
    if (ImGui::CalcTextSize(std::to_string(n - 1).c_str()).x <= 2 * L.node_radius) {
      label_on(dl, palette().node_fill, ImVec2(c.x - ts.x / 2, c.y - ts.y / 2), palette().text, number);
    } else if (r % 4 == 0) {  // many ranks: every 4th number, outside the circle
      const float dx = c.x - L.center.x, dy = c.y - L.center.y,
                  k = (L.radius + L.node_radius + f * 0.8f) / L.radius;
      label(dl, ImVec2(L.center.x + dx * k - ts.x / 2, L.center.y + dy * k - ts.y / 2), palette().text,
            number);
    }
  }
  // Chunks on the move: a box in the phase's colour, labelled with the chunk index. Edges that
  // cross (a tree's chords through the centre) would stack their boxes: a box that would land
  // on one already drawn slides a little along its own edge instead.
  std::vector<ImVec4> placed;
  auto free_at = [&](Vec2 c) {
    for (const ImVec4& o : placed)
      if (std::fabs(c.x - o.x) < L.box.x + 2 && std::fabs(c.y - o.y) < L.box.y + 2) return false;
    return true;
  };
  for (const auto& m : moves) {
    Vec2 c = move_point(L, m.move->src, m.move->dst, m.frac);
    for (float shift : {0.18f, -0.18f, 0.3f, -0.3f}) {
      if (free_at(c)) break;
      c = move_point(L, m.move->src, m.move->dst, std::clamp(m.frac + shift, 0.1f, 0.9f));
    }
    placed.push_back(ImVec4(c.x, c.y, 0, 0));
    const ImVec2 a(c.x - L.box.x / 2, c.y - L.box.y / 2), b(c.x + L.box.x / 2, c.y + L.box.y / 2);
    const ImU32 fill = phase_colour(m.move->phase).abgr();
    dl->AddRectFilled(a, b, fill, 3.0f);
    dl->AddRect(a, b, palette().outline, 3.0f);
    const std::string text = m.move->chunk >= 0 ? std::to_string(m.move->chunk) : "all";
    const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
    if (ts.x + 2 <= L.box.x && ts.y <= L.box.y + 2)  // the chunk's number, where it fits
      label_on(dl, fill, ImVec2(c.x - ts.x / 2, c.y - ts.y / 2), ink_on(fill), text);
  }
  ImGui::Dummy(avail);
}

void draw_buffer_view(App& app) {
  Run* run = app.session.current();
  if (!run || run->timeline.frames().empty()) {
    ImGui::TextDisabled("no buffers yet");
    return;
  }
  const double pos =
      app.playback.time_mode ? run->timeline.frame_at_time(app.playback.t) + 0.5 : app.playback.pos;
  Buffers b = run->timeline.buffers_at(pos);
  const int n = run->header.ranks;
  begin_view("buffers", app.background);
  const float f = em();
  ImGui::Text("%s, %llu elements per rank", b.coll.empty() ? "(no collective)" : b.coll.c_str(),
              static_cast<unsigned long long>(b.count));
  record_item(palette().text);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  {  // Legend: entries left to right, on a new line where the next would leave the pane.
    ImVec2 p = ImGui::GetCursorScreenPos();
    const float left = p.x, right = p.x + ImGui::GetContentRegionAvail().x;
    int lines = 1;
    auto entry = [&](ImU32 colour, const char* text) {
      const float w = f * 1.8f + ImGui::CalcTextSize(text).x;
      if (p.x > left && p.x + w - f * 0.8f > right) p.x = left, p.y += f * 1.25f, ++lines;
      legend_entry(dl, p, colour, text);
      p.x += w;
    };
    entry(cell_colour(1, n).abgr(), "own data");
    if (n >= 3) entry(cell_colour(std::max(2, n / 2), n).abgr(), "partial sum (darker: more ranks)");
    entry(cell_colour(n, n).abgr(), "fully reduced");
    entry(kCopyColour.abgr(), "copy of one other rank");
    ImGui::Dummy(ImVec2(1, f * 1.25f * static_cast<float>(lines)));
  }
  if (b.rows.empty() || b.rows[0].empty()) {
    ImGui::TextDisabled("nothing to show at this step (empty buffer)");
    return;
  }
  const std::size_t cells = b.rows[0].size();
  const float label_w = ImGui::CalcTextSize("r00 ").x;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float cell_w = std::max(3.0f, (avail.x - label_w - 4) / static_cast<float>(cells));
  const float row_h = std::clamp((avail.y - 4) / static_cast<float>(n), 3.0f, f * 3);
  const float gap = cell_w > 5 && row_h > 5 ? 1.0f : 0.0f;
  ImVec2 p = ImGui::GetCursorScreenPos();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int r = 0; r < n; ++r) {
    const float y = p.y + r * row_h;
    char name[16];
    std::snprintf(name, sizeof name, "r%d", r);
    if (row_h >= ImGui::GetTextLineHeight() || r % 8 == 0)
      label(dl, ImVec2(p.x, y + (row_h - f) / 2), palette().dim, name);
    for (std::size_t c = 0; c < cells; ++c) {
      const Cell& cell = b.rows[r][c];
      const float x = p.x + label_w + c * cell_w;
      const ImVec2 a(x + gap, y + gap), z(x + cell_w - gap, y + row_h - gap);
      // One rank's data that is not this rank's own: a copy (broadcast, allgather of one).
      const bool copy = cell.contributions() == 1 && r < 64 && cell.ranks != (std::uint64_t{1} << r);
      const ImU32 fill = (copy ? kCopyColour : cell_colour(cell.contributions(), n)).abgr();
      dl->AddRectFilled(a, z, fill);
      // A thicker line where a new chunk starts.
      if (b.per_element && c > 0 && b.rows[r][c - 1].chunk != cell.chunk)
        dl->AddLine(ImVec2(x, y), ImVec2(x, y + row_h), palette().text, 2);
      if (b.per_element && cell.has_value) {
        const std::string v = short_number(cell.value);
        const ImVec2 ts = ImGui::CalcTextSize(v.c_str());
        if (ts.x + 2 < cell_w && ts.y <= row_h)
          label_on(dl, fill, ImVec2(x + (cell_w - ts.x) / 2, y + (row_h - ts.y) / 2), ink_on(fill), v);
      }
      if (mouse.x >= a.x && mouse.x < z.x && mouse.y >= a.y && mouse.y < z.y) {
        std::string who;
        for (int k = 0; k < n && k < 64; ++k)
          if (cell.ranks >> k & 1) who.append(who.empty() ? "" : " ").append(std::to_string(k));
        ImGui::SetTooltip("rank %d, %s %zu (chunk %d)\nholds data of ranks: %s%s%s", r,
                          b.per_element ? "element" : "chunk", c, cell.chunk, who.c_str(),
                          cell.has_value ? "\nvalue " : "",
                          cell.has_value ? short_number(cell.value).c_str() : "");
      }
    }
  }
  ImGui::Dummy(ImVec2(avail.x, row_h * n));
}

void draw_app(App& app, float width, float height) {
  // Two rows of widgets in the bar, one line of status: heights in text lines, so a bigger
  // font gets bigger bars rather than clipped ones.
  const float line = ImGui::GetFrameHeightWithSpacing();
  const float bar_h = 2 * line + ImGui::GetStyle().WindowPadding.y * 2, status_h = em() + 2 * ImGui::GetStyle().WindowPadding.y;
  const float bottom_h = std::clamp(height * 0.32f, em() * 10, height * 0.45f);
  const float mid_h = std::max(em() * 6, height - bar_h - bottom_h - status_h);
  auto pane = [&](const char* name, float x, float y, float w, float h, ImGuiWindowFlags extra,
                  void (*draw)(App&)) {
    ImGui::SetNextWindowPos(ImVec2(x, y));
    ImGui::SetNextWindowSize(ImVec2(w, h));
    if (ImGui::Begin(name, nullptr, kPane | extra)) draw(app);
    ImGui::End();
  };
  pane("Playback", 0, 0, width, bar_h, ImGuiWindowFlags_NoTitleBar, draw_playback_bar);
  pane("Ring", 0, bar_h, width * 0.5f, mid_h, ImGuiWindowFlags_NoScrollbar, draw_ring_view);
  pane("Buffers", width * 0.5f, bar_h, width * 0.5f, mid_h, 0, draw_buffer_view);
  pane("Charts", 0, bar_h + mid_h, width, bottom_h, ImGuiWindowFlags_NoTitleBar, draw_charts);
  pane("Status", 0, height - status_h, width, status_h, ImGuiWindowFlags_NoTitleBar, draw_status_line);
}

// Drawn by Dear ImGui alone, as the unit tests draw: each chart tab in turn (one shows at a time),
// three frames each, since ImGui settles window sizes over the first frames.
bool measure_views(App& app, int width, int height, std::string* error) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  if (!use_viewer_font(static_cast<float>(height), app.font_scale, error)) return false;  // builds the atlas
  io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
  io.DeltaTime = 1.0f / 60;
  std::vector<ViewMeasure> all;
  for (const char* tab : {"loss", "bytes", "pipeline"}) {
    for (int frame = 0; frame < 3; ++frame) {
      if (frame == 0) app.open_tab = tab;
      clear_labels();
      ImGui::NewFrame();
      draw_app(app, io.DisplaySize.x, io.DisplaySize.y);
      ImGui::Render();
    }
    for (const auto& m : measure_labels())  // the panes other than the charts: measured once
      if (m.view == tab || std::none_of(all.begin(), all.end(), [&](const ViewMeasure& a) { return a.view == m.view; }))
        all.push_back(m);
  }
  for (const auto& m : all)
    std::printf("view=%s width=%d height=%d text_px=%.0f min_contrast=%.1f overlaps=%d labels=%d\n",
                m.view.c_str(), width, height, m.text_px, m.min_contrast, m.overlaps, m.labels);
  ImGui::DestroyContext();
  return true;
}

}  // namespace ringlab::viz
