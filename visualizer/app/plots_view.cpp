// Charts drawn with ImGui's draw lists (ImPlot is not packaged in Debian): loss per worker
// with a learning-rate axis, bytes per rank, and the pipeline's compute blocks over time.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "views.hpp"

namespace ringlab::viz {
namespace {
const ImU32 kAxis = IM_COL32(150, 150, 160, 255);
const ImU32 kGrid = IM_COL32(60, 60, 70, 255);
const ImU32 kText = IM_COL32(220, 220, 228, 255);

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
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
      ticks.push_back(i * step);
  }
  for (double v : ticks) {
    const float py = y.at(v);
    if (!right_side) dl->AddLine(ImVec2(x_left, py), ImVec2(x_right, py), kGrid);
    const std::string s = fmt(v);
    const float tw = ImGui::CalcTextSize(s.c_str()).x;
    dl->AddText(ImVec2(right_side ? x_right + 4 : x_left - tw - 4, py - 7), kText, s.c_str());
  }
}
}  // namespace

void draw_loss_plot(App& app) {
  ImGui::Checkbox("log scale", &app.log_scale);
  ImGui::SameLine();
  ImGui::Checkbox("learning rate (right axis)", &app.show_lr);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(140);
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
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  const float legend_w = 170;
  const float x0 = p.x + 60, x1 = p.x + avail.x - legend_w - (app.show_lr && !lr.empty() ? 60 : 10);
  const float y0 = p.y + 6, y1 = p.y + avail.y - 22;
  double xmax = 1;
  std::vector<const std::vector<Point>*> ys, lrs;
  for (const auto& l : loss) {
    ys.push_back(l.pts);
    for (const auto& pt : *l.pts) xmax = std::max(xmax, pt.x);
  }
  for (const auto& l : lr) lrs.push_back(l.pts);
  const Range yr = value_range(ys, app.log_scale);
  const Axis y{yr.lo, yr.hi, app.log_scale, y1, y0};
  const Axis x{0, xmax, false, x0, x1};
  dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), kAxis);
  y_ticks(dl, y, x0, x1, false);
  const double xs = nice_step(xmax, 6);
  for (double v = 0; v <= xmax + 1e-9; v += xs) {
    const std::string s = fmt(v);
    dl->AddText(ImVec2(x.at(v) - 4, y1 + 3), kText, s.c_str());
  }
  dl->AddText(ImVec2(x1 - 30, y1 + 3), kText, "step");
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
    polyline(*s, y, im_colour(l.colour), 2.0f);
  }
  Axis ylr{0, 1, false, y1, y0};
  if (app.show_lr && !lr.empty()) {
    const Range r = value_range(lrs, false);
    ylr = Axis{std::min(0.0, r.lo), r.hi, false, y1, y0};
    for (const auto& l : lr) polyline(*l.pts, ylr, IM_COL32(200, 200, 200, 160), 1.0f);
  }
  dl->PopClipRect();
  if (app.show_lr && !lr.empty()) {
    y_ticks(dl, ylr, x0, x1, true);
    dl->AddText(ImVec2(x1 + 4, y1 + 3), kText, "lr");
  }
  // Legend.
  float ly = y0;
  for (const auto& l : loss) {
    if (ly > y1 - 12) break;
    dl->AddLine(ImVec2(p.x + avail.x - legend_w + 6, ly + 7), ImVec2(p.x + avail.x - legend_w + 24, ly + 7),
                im_colour(l.colour), 3);
    dl->AddText(ImVec2(p.x + avail.x - legend_w + 30, ly), kText, l.label.c_str());
    ly += 15;
  }
  ImGui::Dummy(avail);
}

void draw_bytes_chart(App& app) {
  Run* run = app.session.current();
  if (!run || run->plots.traffic().empty()) {
    ImGui::TextDisabled("no transfers in this run");
    return;
  }
  // Which collective: all of them, or one (server vs ring in lesson 04/05).
  std::vector<std::string> names;
  for (const auto& [name, t] : run->plots.traffic()) names.push_back(name);
  if (app.bytes_follow && !run->timeline.frames().empty()) {
    const auto& frames = run->timeline.frames();
    const int f = app.playback.time_mode
                      ? run->timeline.frame_at_time(app.playback.t)
                      : std::clamp(static_cast<int>(app.playback.pos), 0, int(frames.size()) - 1);
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      if (names[i] == frames[f].coll) app.bytes_coll = i;
  }
  app.bytes_coll = std::clamp(app.bytes_coll, 0, static_cast<int>(names.size()) - 1);
  ImGui::SetNextItemWidth(220);
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
  const Traffic& t = run->plots.traffic().at(names[app.bytes_coll]);
  const int n = run->header.ranks;
  double top = 1;
  for (int r = 0; r < n; ++r) top = std::max({top, double(t.sent[r]), double(t.received[r])});
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  const float x0 = p.x + 70, x1 = p.x + avail.x - 10, y0 = p.y + 40, y1 = p.y + avail.y - 20;
  const Rgb sent{235, 120, 40}, recv{50, 140, 235};
  dl->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + 12, p.y + 12), im_colour(sent));
  dl->AddText(ImVec2(p.x + 16, p.y), kText, "sent");
  dl->AddRectFilled(ImVec2(p.x + 60, p.y + 2), ImVec2(p.x + 72, p.y + 12), im_colour(recv));
  dl->AddText(ImVec2(p.x + 76, p.y), kText, "received");
  const double step = nice_step(top, 4);
  for (double v = 0; v <= top * 1.0001; v += step) {
    const float py = y1 - static_cast<float>(v / top) * (y1 - y0);
    dl->AddLine(ImVec2(x0, py), ImVec2(x1, py), kGrid);
    const std::string s = bytes_text(v);
    dl->AddText(ImVec2(x0 - ImGui::CalcTextSize(s.c_str()).x - 4, py - 7), kText, s.c_str());
  }
  const float slot = (x1 - x0) / static_cast<float>(n), bar = std::clamp(slot * 0.38f, 1.0f, 36.0f);
  for (int r = 0; r < n; ++r) {
    const float sx = x0 + r * slot + slot * 0.1f;
    const float hs = static_cast<float>(t.sent[r] / top) * (y1 - y0);
    const float hr = static_cast<float>(t.received[r] / top) * (y1 - y0);
    dl->AddRectFilled(ImVec2(sx, y1 - hs), ImVec2(sx + bar, y1), im_colour(sent));
    dl->AddRectFilled(ImVec2(sx + bar, y1 - hr), ImVec2(sx + 2 * bar, y1), im_colour(recv));
    if (n <= 32 || r % 4 == 0) dl->AddText(ImVec2(sx, y1 + 3), kText, ("rank " + std::to_string(r)).c_str());
    if (n <= 8) {
      dl->AddText(ImVec2(sx, y1 - hs - 15), kText, bytes_text(double(t.sent[r])).c_str());
      dl->AddText(ImVec2(sx + bar, y1 - hr - 28), kText, bytes_text(double(t.received[r])).c_str());
    }
    if (ImGui::IsMouseHoveringRect(ImVec2(sx, y0), ImVec2(sx + 2 * bar, y1)))
      ImGui::SetTooltip("rank %d\nsent %s\nreceived %s", r, bytes_text(double(t.sent[r])).c_str(),
                        bytes_text(double(t.received[r])).c_str());
  }
  dl->AddLine(ImVec2(x0, y1), ImVec2(x1, y1), kAxis);
  ImGui::Dummy(avail);
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
  if (app.pipeline_follow && !run->timeline.frames().empty()) {
    const auto& frames = run->timeline.frames();
    const int f = app.playback.time_mode
                      ? run->timeline.frame_at_time(app.playback.t)
                      : std::clamp(static_cast<int>(app.playback.pos), 0, int(frames.size()) - 1);
    call = frames[f].call;
  }
  std::vector<Block> blocks;
  for (const auto& b : run->plots.blocks())
    if (call == -2 || b.call == call) blocks.push_back(b);
  if (blocks.empty()) blocks = run->plots.blocks();
  double t0 = blocks.front().t0, t1 = blocks.front().t1;
  for (const auto& b : blocks) t0 = std::min(t0, b.t0), t1 = std::max(t1, b.t1);
  t1 = std::max(t1, t0 + 1);
  const int n = run->header.ranks;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  const float x0 = p.x + 50, x1 = p.x + avail.x - 90, y0 = p.y, y1 = p.y + avail.y - 20;
  const float row = std::max(3.0f, (y1 - y0) / static_cast<float>(n));
  auto px = [&](double t) { return x0 + static_cast<float>((t - t0) / (t1 - t0)) * (x1 - x0); };
  std::vector<double> busy(static_cast<std::size_t>(n), 0);
  for (int r = 0; r < n; ++r) {
    dl->AddRectFilled(ImVec2(x0, y0 + r * row + 1), ImVec2(x1, y0 + (r + 1) * row - 1),
                      IM_COL32(38, 38, 44, 255));
    dl->AddText(ImVec2(p.x, y0 + r * row + (row - 13) / 2), kText, ("rank " + std::to_string(r)).c_str());
  }
  for (const auto& b : blocks) {
    if (b.rank < 0 || b.rank >= n) continue;
    busy[b.rank] += b.t1 - b.t0;
    const ImVec2 a(px(b.t0), y0 + b.rank * row + 2),
        z(std::max(px(b.t1), px(b.t0) + 1), y0 + (b.rank + 1) * row - 2);
    dl->AddRectFilled(a, z, im_colour(phase_colour(b.name)));
    if (z.x - a.x > 3) dl->AddRect(a, z, IM_COL32(20, 20, 25, 255));
    const std::string s = std::to_string(b.chunk);
    if (b.chunk >= 0 && z.x - a.x > ImGui::CalcTextSize(s.c_str()).x + 2 && row > 14)
      dl->AddText(ImVec2(a.x + 2, a.y + (row - 17) / 2), IM_COL32(10, 10, 12, 255), s.c_str());
  }
  // Under each rank's compute blocks, a thin bar per collective in the same time window (lesson
  // 08: a bucket's allreduce running while the backward pass computes shows as overlap).
  for (const auto& c : run->plots.collectives()) {
    if (c.rank < 0 || c.rank >= n || c.t1 < t0 || c.t0 > t1) continue;
    const float bottom = y0 + (c.rank + 1) * row - 2, h = std::max(2.0f, row * 0.25f);
    dl->AddRectFilled(ImVec2(std::max(x0, px(c.t0)), bottom - h),
                      ImVec2(std::min(x1, std::max(px(c.t1), px(c.t0) + 1)), bottom),
                      IM_COL32(235, 120, 40, 255));
  }
  // The bubble, as a number: the share of the run each rank spent not computing.
  for (int r = 0; r < n; ++r) {
    char s[32];
    std::snprintf(s, sizeof s, "idle %2.0f%%", 100 * (1 - std::min(1.0, busy[r] / (t1 - t0))));
    dl->AddText(ImVec2(x1 + 6, y0 + r * row + (row - 13) / 2), kText, s);
  }
  const std::string span =
      "time: " + fmt((t1 - t0) / 1000) + " ms" +
      (run->plots.collectives().empty() ? "" : "   (orange bars: a collective in progress)");
  dl->AddText(ImVec2(x0, y1 + 3), kText, span.c_str());
  ImGui::Dummy(avail);
}

}  // namespace ringlab::viz
