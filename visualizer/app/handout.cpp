// The presenter with no one watching: what --measure, --screenshot and the handout (--export,
// ./ringlab slides) print and save beside each slide's picture. No GL here (presenter.hpp).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "presenter.hpp"

namespace ringlab::viz {

std::string layout_line(const Presenter& p, int i) {
  const SlideLayout& L = p.last;
  const Slide& s = p.deck.slides[i];
  char buf[512];
  std::snprintf(
      buf, sizeof buf,
      "slide %d/%zu fits %d scale %.2f extent %.0f %.0f %.0f %.0f area %.0f %.0f %.0f %.0f title %.0f "
      "%.0f %.0f %.0f demo %d | %s",
      i + 1, p.deck.slides.size(), L.fits ? 1 : 0, L.scale, L.extent[0], L.extent[1], L.extent[2],
      L.extent[3], L.area[0], L.area[1], L.area[2], L.area[3], L.title[0], L.title[1], L.title[2], L.title[3],
      !s.has_demo         ? 0
      : s.demo.lesson > 0 ? s.demo.lesson
                          : -1,
      s.title().c_str());
  return buf;
}

void lay_out_every_slide(Presenter& p, int w, int h, bool print) {
  for (int i = 0; i < static_cast<int>(p.deck.slides.size()); ++i) {
    p.last = layout_slide(p.deck.slides[i], p.fonts, static_cast<float>(w), static_cast<float>(h), p.image);
    if (print) std::printf("%s\n", layout_line(p, i).c_str());
    else if (!p.last.fits || p.last.scale < 0.8f)
      std::fprintf(stderr, "ringlab-present: note: slide %d (%s) holds too much for %dx%d: %s\n", i + 1,
                   p.deck.slides[i].title().c_str(), w, h,
                   p.last.fits ? "shrunk below 80 %" : "it does not fit");
  }
}

bool write_slide_text(const std::string& path, const Slide& slide, int index, int count) {
  const std::vector<std::string> commands = slide.commands();
  if (commands.empty() && slide.notes.empty()) return false;
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  std::fprintf(f, "Slide %d of %d: %s\n", index + 1, count, slide.title().c_str());
  if (!commands.empty()) {
    std::fprintf(f, "\nCommands:\n");
    for (const auto& c : commands) std::fprintf(f, "  %s%s\n", c.rfind("$ ", 0) == 0 ? "" : "$ ", c.c_str());
  }
  if (!slide.notes.empty()) {
    std::fprintf(f, "\nNotes:\n");
    std::istringstream words(slide.notes);
    std::string line;
    for (std::string w; words >> w;) {
      if (!line.empty() && line.size() + 1 + w.size() > 86)
        std::fprintf(f, "  %s\n", line.c_str()), line.clear();
      line += (line.empty() ? "" : " ") + w;
    }
    if (!line.empty()) std::fprintf(f, "  %s\n", line.c_str());
  }
  return std::fclose(f) == 0;
}

void show_handout_step(App& app, const Presenter& p) {
  const Slide* s = p.slide();
  Run* run = app.session.current();
  if (!run && !app.session.runs().empty()) app.session.select(0), run = app.session.current();
  if (!s || !run) return;
  const int frames = static_cast<int>(run->timeline.frames().size());
  app.playback.pos = (s->demo.at >= 0 ? std::min(s->demo.at, frames - 1) : frames / 2) + 0.5;
}

void finish_demo(App& app, Presenter& p, double max_s) {
  const Slide* s = p.slide();
  if (!s || !s->has_demo) return;
  if (s->demo.lesson > 0) {
    if (!run_demo(app, p)) {
      std::fprintf(stderr, "ringlab-present: slide %d: demo did not start: %s\n", p.current + 1,
                   app.form.error.c_str());
      return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    while (!demo_finished(app, p) &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < max_s) {
      if (app.server) app.session.take(app.server->poll(20));
      app.launcher.poll();
    }
    app.launcher.poll();
    if (app.server) app.session.take(app.server->poll(0));
  }
  show_handout_step(app, p);
  p.demo_live = true;  // the output pane shows the run's lines
}

}  // namespace ringlab::viz
