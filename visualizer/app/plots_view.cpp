// Charts drawn with ImGui's draw lists (ImPlot is not packaged in Debian): loss per worker
// with a learning-rate axis, bytes per rank, and the pipeline's compute blocks over time.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "text_boxes.hpp"
#include "theme.hpp"
#include "views.hpp"

namespace ringlab::viz {
namespace {

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v == 0 ? 0.0 : v);  // never "-0"
  return b;
}
std::string bytes_text(double v) {
  char b[32];
  if (v >= 1e9) std::snprintf(b, sizeof b, "%.1f GB", v / 1e9);
  else if (v >= 1e6) std::snprintf(b, sizeof b, "%.1f MB", v / 1e6);
  else if (v >= 1e3) std::snprintf(b, sizeof b, "%.1f kB", v / 1e3);
  else std::snprintf(b, sizeof b, "%.0f B", v);
  return b;
}

// A value axis: maps values to pixels, linear or log10.
struct Axis {
  double lo, hi;
  bool log;
  float p0, p1;  // pixel of lo, pixel of hi
  float at(double v) const {
    double a = lo, b = hi, x = v;
    if (log) a = std::log10(lo), b = std::log10(hi), x = std::log10(std::max(v, 1e-300));
    return p0 + static_cast<float>((x - a) / (b - a)) * (p1 - p0);
  }
};

void y_ticks(ImDrawList* dl, const Axis& y, float x_left, float x_right, bool right_side) {
  std::vector<double> ticks;
  if (y.log) {
    for (double d = std::pow(10, std::floor(std::log10(y.lo))); d <= y.hi * 1.0001; d *= 10)
      if (d >= y.lo * 0.9999) ticks.push_back(d);
  } else {
    const double step = nice_step(y.hi - y.lo, 4);
    for (double i = std::ceil(y.lo / step - 1e-9); i * step <= y.hi + step * 1e-6; ++i)
      ticks.push_back(std::fabs(i * step) < step * 1e-6 ? 0.0 : i * step);  // 0, not -1e-17
  }
  const float f = em();
  float last_y = 1e30f;  // ticks closer than a text line are skipped, not drawn over each other
  for (double v : ticks) {
    const float py = y.at(v);
    if (!right_side) dl->AddLine(ImVec2(x_left, py), ImVec2(x_right, py), palette().grid);
    if (std::fabs(py - last_y) < f * 1.1f) continue;
    last_y = py;
    const std::string s = fmt(v);
    const float tw = ImGui::CalcTextSize(s.c_str()).x;
    label(dl, ImVec2(right_side ? x_right + f * 0.3f : x_left - tw - f * 0.3f, py - f / 2), palette().text, s);
  }
}

// The widest of the tick labels a linear or log axis over [lo, hi] will print.
float widest_tick(double lo, double hi) {
  float w = 0;
  for (double v : {lo, hi, (lo + hi) / 2, -std::fabs(hi)}) w = std::max(w, ImGui::CalcTextSize(fmt(v).c_str()).x);
  return w;
}

// The frame the scrubber is on (the run has at least one).
const Frame& frame_on_screen(const App& app, Run& run) {
  const auto& frames = run.timeline.frames();
  return frames[app.playback.time_mode
                    ? run.timeline.frame_at_time(app.playback.t)
                    : std::clamp(static_cast<int>(app.playback.pos), 0, static_cast<int>(frames.size()) - 1)];
}

// The bars of one collective's traffic: sent and received per rank.
void draw_traffic(App& app, const Traffic& t, int n) {
  double top = 1;
  for (int r = 0; r < n; ++r) top = std::max({top, double(t.sent[r]), double(t.received[r])});
  begin_view("bytes", app.background);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  const float f = em();
  // The legend on its own line; the values sit inside the plot, below it.
  const Rgb sent = phase_colour("reduce-scatter"), recv = phase_colour("allgather");
  const float sent_w = legend_entry(dl, p, sent.abgr(), "sent");
  legend_entry(dl, ImVec2(p.x + f * 1.8f + sent_w, p.y), recv.abgr(), "received");
  const float x0 = p.x + ImGui::CalcTextSize(bytes_text(top).c_str()).x + f * 0.6f, x1 = p.x + avail.x - f * 0.5f;
  const float y0 = p.y + f * 2.6f, y1 = p.y + avail.y - f * 1.4f;
  // As many ticks as there are text lines to spare (a short chart at 720p has room for two).
  const double step = nice_step(top, std::clamp(static_cast<int>((y1 - y0) / (f * 1.6f)), 1, 4));
  for (double v = 0; v <= top * 1.0001; v += step) {
    const float py = y1 - static_cast<float>(v / top) * (y1 - y0);
    dl->AddLine(ImVec2(x0, py), ImVec2(x1, py), palette().grid);
    const std::string s = bytes_text(v);
    label(dl, ImVec2(x0 - ImGui::CalcTextSize(s.c_str()).x - f * 0.3f, py - f / 2), palette().text, s);
  }
  const float slot = (x1 - x0) / static_cast<float>(n), bar = std::clamp(slot * 0.4f, 1.0f, f * 6);
  float next_rank_x = -1e30f;
  for (int r = 0; r < n; ++r) {
    const float sx = x0 + r * slot + slot * 0.1f;
    const float hs = static_cast<float>(t.sent[r] / top) * (y1 - y0);
    const float hr = static_cast<float>(t.received[r] / top) * (y1 - y0);
    dl->AddRectFilled(ImVec2(sx, y1 - hs), ImVec2(sx + bar, y1), sent.abgr());
    dl->AddRectFilled(ImVec2(sx + bar, y1 - hr), ImVec2(sx + 2 * bar, y1), recv.abgr());
    const std::string rank = (n <= 16 ? "rank " : "") + std::to_string(r);
    if (sx >= next_rank_x) {  // rank names where they fit, never over each other
      label(dl, ImVec2(sx, y1 + f * 0.2f), palette().text, rank);
      next_rank_x = sx + ImGui::CalcTextSize(rank.c_str()).x + f * 0.5f;
    }
    // Each bar's value above it, where it fits the bar's width; else the tooltip has it.
    for (const auto& [x, h, v] : {std::tuple{sx, hs, t.sent[r]}, std::tuple{sx + bar, hr, t.received[r]}}) {
      const std::string s = bytes_text(double(v));
      if (ImGui::CalcTextSize(s.c_str()).x <= bar - f * 0.2f)
        label(dl, ImVec2(x, std::max(y0 - f * 1.2f, y1 - h - f * 1.1f)), palette().text, s);
    }
    if (ImGui::IsMouseHoveringRect(ImVec2(sx, y0), ImVec2(sx + 2 * bar, y1)))
      ImGui::SetTooltip("rank %d\nsent %s\nreceived %s", r, bytes_text(double(t.sent[r])).c_str(),
                        bytes_text(double(t.received[r])).c_str());
  }
  dl->AddLine(ImVec2(x0, y1), ImVec2(x1, y1), palette().axis);
  ImGui::Dummy(avail);
}
}  // namespace

void draw_loss_plot(App& app) {
  ImGui::Checkbox("log scale", &app.log_scale);
  ImGui::SameLine();
  ImGui::Checkbox("learning rate (right axis)", &app.show_lr);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em() * 10);
  ImGui::SliderInt("smooth (steps)", &app.smooth, 1, 100);
  // Every run's loss series, one line per rank; several runs overlay (np 1, 2, 4).
  struct Line {
    const std::vector<Point>* pts;
    std::string label;
    Rgb colour;
  };
  std::vector<Line> loss, lr;
  int k = 0;
  auto& runs = app.session.runs();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& run = *runs[i];
    const std::string prefix =
        runs.size() > 1 ? "run " + std::to_string(i) + " (np " + std::to_string(run.header.ranks) + ") " : "";
    for (int r = 0; r < run.header.ranks; ++r) {
      if (auto* s = run.plots.metric("loss", r); s && !s->empty())
        loss.push_back({s, prefix + "rank " + std::to_string(r), rank_colour(k++)});
      if (auto* s = run.plots.metric("lr", r); s && !s->empty() && r == 0)
        lr.push_back({s, prefix + "lr", {200, 200, 200}});
    }
  }
  if (loss.empty()) {
    ImGui::TextDisabled(
        "no loss metrics in the open runs (the training lessons record them with trace::metric)");
    return;
  }
  begin_view("loss", app.background);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  const float f = em();
  const bool show_lr = app.show_lr && !lr.empty();
  // Room measured from what will be written there: the legend's longest entry, the ticks.
  float legend_w = 0;
  for (const auto& l : loss) legend_w = std::max(legend_w, ImGui::CalcTextSize(l.label.c_str()).x);
  if (show_lr) legend_w = std::max(legend_w, ImGui::CalcTextSize("lr (right axis)").x);
  legend_w += f * 2.8f;
  double xmax = 1;
  std::vector<const std::vector<Point>*> ys, lrs;
  for (const auto& l : loss) {
    ys.push_back(l.pts);
    for (const auto& pt : *l.pts) xmax = std::max(xmax, pt.x);
  }
  for (const auto& l : lr) lrs.push_back(l.pts);
  const Range yr = value_range(ys, app.log_scale);
  const Range lr_range = show_lr ? value_range(lrs, false) : Range{0, 1};
  const float x0 = p.x + widest_tick(yr.lo, yr.hi) + f * 0.6f;
  const float x1 = p.x + avail.x - legend_w - (show_lr ? widest_tick(0, lr_range.hi) + f * 0.6f : f * 0.5f);
  const float y0 = p.y + f * 0.5f, y1 = p.y + avail.y - f * 1.4f;
  const Axis y{yr.lo, yr.hi, app.log_scale, y1, y0};
  const Axis x{0, xmax, false, x0, x1};
  dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), palette().axis);
  y_ticks(dl, y, x0, x1, false);
  // The x axis: its title at the right end, tick labels wherever they leave a gap.
  const float title_x = x1 - ImGui::CalcTextSize("step").x;
  label(dl, ImVec2(title_x, y1 + f * 0.2f), palette().text, "step");
  const double xs = nice_step(xmax, 6);
  float next_free = x0 - f;
  for (double v = 0; v <= xmax + 1e-9; v += xs) {
    const std::string s = fmt(v);
    const float w = ImGui::CalcTextSize(s.c_str()).x, lx = x.at(v) - w / 2;
    if (lx < next_free || lx + w > title_x - f * 0.5f) continue;
    label(dl, ImVec2(lx, y1 + f * 0.2f), palette().text, s);
    next_free = lx + w + f * 0.6f;
  }
  dl->PushClipRect(ImVec2(x0, y0), ImVec2(x1, y1), true);
  std::vector<ImVec2> pts;
  auto polyline = [&](const std::vector<Point>& s, const Axis& ya, ImU32 col, float thick) {
    pts.clear();
    for (const auto& pt : s)
      if (std::isfinite(pt.y) && (!ya.log || pt.y > 0)) pts.push_back(ImVec2(x.at(pt.x), ya.at(pt.y)));
    if (pts.size() == 1) dl->AddCircleFilled(pts[0], 2.5f, col);
    if (pts.size() > 1) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), col, 0, thick);
  };
  // Per-step losses are noisy: optionally a trailing moving average over `smooth` steps.
  std::vector<Point> smoothed;
  for (const auto& l : loss) {
    const std::vector<Point>* s = l.pts;
    if (app.smooth > 1) {
      smoothed.clear();
      double sum = 0;
      for (std::size_t i = 0; i < l.pts->size(); ++i) {
        sum += (*l.pts)[i].y;
        if (i >= static_cast<std::size_t>(app.smooth)) sum -= (*l.pts)[i - app.smooth].y;
        const double k = static_cast<double>(std::min<std::size_t>(i + 1, app.smooth));
        smoothed.push_back({(*l.pts)[i].x, sum / k});
      }
      s = &smoothed;
    }
    polyline(*s, y, l.colour.abgr(), 2.0f);
  }
  const Axis ylr{std::min(0.0, lr_range.lo), lr_range.hi, false, y1, y0};
  const ImU32 lr_colour = palette().lr_line;
  if (show_lr)
    for (const auto& l : lr) polyline(*l.pts, ylr, lr_colour, 1.0f);
  dl->PopClipRect();
  if (show_lr) y_ticks(dl, ylr, x0, x1, true);
  // Legend: one entry per line, as many as fit; the lr axis is named here, not under it.
  const float lx = p.x + avail.x - legend_w + f * 0.4f;
  float ly = y0;
  auto entry = [&](ImU32 colour, float thick, const std::string& text) {
    if (ly + f > y1 + f * 1.4f) return;
    dl->AddLine(ImVec2(lx, ly + f * 0.55f), ImVec2(lx + f * 1.5f, ly + f * 0.55f), colour, thick);
    label(dl, ImVec2(lx + f * 2, ly), palette().text, text);
    ly += f * 1.2f;
  };
  if (show_lr) entry(lr_colour, 1.5f, "lr (right axis)");
  for (const auto& l : loss) entry(l.colour.abgr(), 3, l.label);
  ImGui::Dummy(avail);
}

void draw_bytes_chart(App& app, const std::string& pinned) {
  Run* run = app.session.current();
  if (!run || run->plots.traffic().empty()) {
    ImGui::TextDisabled("no transfers in this run");
    return;
  }
  if (!pinned.empty()) {
    const auto it = run->plots.traffic().find(pinned);
    if (it == run->plots.traffic().end()) {
      ImGui::TextDisabled("no %s in this run (yet)", pinned.c_str());
      return;
    }
    ImGui::Text("%s", pinned.c_str());
    draw_traffic(app, it->second, run->header.ranks);
    return;
  }
  // Which collective: all of them, or one (server vs ring in lesson 04/05).
  std::vector<std::string> names;
  for (const auto& [name, t] : run->plots.traffic()) names.push_back(name);
  if (app.bytes_follow && !run->timeline.frames().empty()) {
    const auto on_screen = std::find(names.begin(), names.end(), frame_on_screen(app, *run).coll);
    if (on_screen != names.end()) app.bytes_coll = static_cast<int>(on_screen - names.begin());
  }
  app.bytes_coll = std::clamp(app.bytes_coll, 0, static_cast<int>(names.size()) - 1);
  ImGui::SetNextItemWidth(em() * 16);
  if (ImGui::BeginCombo("collective",
                        names[app.bytes_coll].empty() ? "all" : names[app.bytes_coll].c_str())) {
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      if (ImGui::Selectable(names[i].empty() ? "all" : names[i].c_str(), i == app.bytes_coll)) {
        app.bytes_coll = i;
        app.bytes_follow = false;
      }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::Checkbox("follow the step's collective", &app.bytes_follow);
  draw_traffic(app, run->plots.traffic().at(names[app.bytes_coll]), run->header.ranks);
}

void draw_pipeline_chart(App& app) {
  Run* run = app.session.current();
  if (!run || run->plots.blocks().empty()) {
    ImGui::TextDisabled("no compute blocks in this run (pipeline lessons record them with trace::Compute)");
    return;
  }
  // The blocks of the call on screen (one pipelined step, its bubble visible), or all of them.
  ImGui::Checkbox("only the call on screen", &app.pipeline_follow);
  std::int64_t call = -2;
  if (app.pipeline_follow && !run->timeline.frames().empty()) call = frame_on_screen(app, *run).call;
  std::vector<Block> blocks;
  for (const auto& b : run->plots.blocks())
    if (call == -2 || b.call == call) blocks.push_back(b);
  if (blocks.empty()) blocks = run->plots.blocks();
  double t0 = blocks.front().t0, t1 = blocks.front().t1;
  for (const auto& b : blocks) t0 = std::min(t0, b.t0), t1 = std::max(t1, b.t1);
  t1 = std::max(t1, t0 + 1);
  const int n = run->header.ranks;
  begin_view("pipeline", app.background);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  const float f = em();
  // Room for the longest rank name on the left and the idle share on the right, measured.
  const std::string widest_rank = "rank " + std::to_string(n - 1);
  const float x0 = p.x + ImGui::CalcTextSize(widest_rank.c_str()).x + f * 0.5f;
  const float x1 = p.x + avail.x - ImGui::CalcTextSize("idle 100%").x - f * 0.8f;
  const float y0 = p.y, y1 = p.y + avail.y - f * 1.4f;
  const float row = std::max(3.0f, (y1 - y0) / static_cast<float>(n));
  const bool row_labels = row >= f;  // one text line per row, or none
  auto px = [&](double t) { return x0 + static_cast<float>((t - t0) / (t1 - t0)) * (x1 - x0); };
  std::vector<double> busy(static_cast<std::size_t>(n), 0);
  for (int r = 0; r < n; ++r) {
    dl->AddRectFilled(ImVec2(x0, y0 + r * row + 1), ImVec2(x1, y0 + (r + 1) * row - 1),
                      palette().row_bg);
    if (row_labels) label(dl, ImVec2(p.x, y0 + r * row + (row - f) / 2), palette().text, "rank " + std::to_string(r));
  }
  for (const auto& b : blocks) {
    if (b.rank < 0 || b.rank >= n) continue;
    busy[b.rank] += b.t1 - b.t0;
    const ImVec2 a(px(b.t0), y0 + b.rank * row + 2),
        z(std::max(px(b.t1), px(b.t0) + 1), y0 + (b.rank + 1) * row - 2);
    const ImU32 fill = phase_colour(b.name).abgr();
    dl->AddRectFilled(a, z, fill);
    if (z.x - a.x > 3) dl->AddRect(a, z, palette().outline);
    const std::string s = std::to_string(b.chunk);
    if (b.chunk >= 0 && z.x - a.x > ImGui::CalcTextSize(s.c_str()).x + 2 && row >= f + 4)
      label_on(dl, fill, ImVec2(a.x + 2, a.y + (z.y - a.y - f) / 2), ink_on(fill), s);
  }
  // Under each rank's compute blocks, a thin bar per collective in the same time window (lesson
  // 08: a bucket's allreduce running while the backward pass computes shows as overlap).
  for (const auto& c : run->plots.collectives()) {
    if (c.rank < 0 || c.rank >= n || c.t1 < t0 || c.t0 > t1) continue;
    const float bottom = y0 + (c.rank + 1) * row - 2, h = std::max(2.0f, row * 0.25f);
    dl->AddRectFilled(ImVec2(std::max(x0, px(c.t0)), bottom - h),
                      ImVec2(std::min(x1, std::max(px(c.t1), px(c.t0) + 1)), bottom),
                      phase_colour("reduce").abgr());
  }
  // The bubble, as a number: the share of the run each rank spent not computing.
  for (int r = 0; r < n; ++r) {
    char s[32];
    std::snprintf(s, sizeof s, "idle %2.0f%%", 100 * (1 - std::min(1.0, busy[r] / (t1 - t0))));
    if (row_labels) label(dl, ImVec2(x1 + f * 0.4f, y0 + r * row + (row - f) / 2), palette().text, s);
  }
  const std::string span =
      "time: " + fmt((t1 - t0) / 1000) + " ms" +
      (run->plots.collectives().empty() ? "" : "   (orange bars: a collective in progress)");
  label(dl, ImVec2(x0, y1 + f * 0.2f), palette().text, span);
  ImGui::Dummy(avail);
}

}  // namespace ringlab::viz
