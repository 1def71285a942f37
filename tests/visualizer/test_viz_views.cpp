// The window's views run with Dear ImGui alone, no window and no renderer (example_null):
// every pane draws a real lesson-05 run, keys move the scrubber, nothing needs a display.
#include <imgui.h>

#include <cstdlib>

#include "catch.hpp"
#include "views.hpp"

using namespace ringlab::viz;

namespace {
// One frame of the whole UI; returns how many vertices it produced.
int frame(App& app, float w = 1280, float h = 720) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(w, h);
  io.DeltaTime = 1.0f / 60;
  ImGui::NewFrame();
  handle_keys(app);
  draw_app(app, w, h);
  ImGui::Render();
  return ImGui::GetDrawData()->TotalVtxCount;
}
}  // namespace

TEST_CASE("every pane draws a real ring trace with no window, at any step and size") {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.Fonts->Build();  // the font atlas, as a renderer would build it

  App app;
  CHECK(frame(app) > 0);  // nothing open: still draws, says so
  const char* path = std::getenv("RINGLAB_VIZ_RING_TRACE");
  REQUIRE(path != nullptr);
  REQUIRE(app.session.open_file(path));
  const int frames = static_cast<int>(app.session.current()->timeline.frames().size());
  for (int f = 0; f < frames; ++f) {
    app.playback.pos = f + 0.5;
    CHECK(frame(app) > 1000);
    CHECK(app.ring.ranks.size() == 4);
  }
  // The ring sits inside the ring pane (the left half, below the playback bar).
  CHECK(app.ring_rect[0] >= 0);
  CHECK(app.ring_rect[2] <= 640.5f);
  for (float w : {640.0f, 1920.0f}) CHECK(frame(app, w, w * 9 / 16) > 0);
  for (bool time_mode : {true, false}) {
    app.playback.time_mode = time_mode;
    app.playback.playing = true;
    for (int i = 0; i < 10; ++i) {
      app.playback.update(0.1, frames, app.session.current()->timeline.t_min(),
                          app.session.current()->timeline.t_max());
      CHECK(frame(app) > 0);
    }
  }
  // Instructor keys arrive as ImGui input: '+' doubles the speed.
  const double speed = app.playback.speed;
  io.AddInputCharacter('+');
  frame(app);
  CHECK(app.playback.speed == speed * 2);
  ImGui::DestroyContext();
}
