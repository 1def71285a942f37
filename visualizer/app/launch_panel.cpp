// The launch panel: pick a lesson, a number of ranks and its flags; the visualizer starts it
// under scripts/ringlab-mpirun (an argument vector, no shell) with --viz pointing at itself,
// shows its output, and the run streams in live.
#include <unistd.h>

#include "views.hpp"

namespace ringlab::viz {

void find_kit(App& app, const char* argv0) {
  app.mpirun = std::string(RINGLAB_SOURCE_DIR) + "/scripts/ringlab-mpirun";
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  const std::string exe = n > 0 ? std::string(self, static_cast<std::size_t>(n)) : std::string(argv0);
  app.bin_dir = exe.substr(0, exe.find_last_of('/'));
}

bool start_lesson(App& app, bool stream) {
  LaunchForm& f = app.form;
  f.error.clear();
  if (!app.server) {
    f.error = "not listening: start ringlab-viz with --listen to see the run live";
    return false;
  }
  std::vector<std::string> argv;
  const std::string viz = stream ? app.server->lesson_address() : "";  // a TCP token: RINGLAB_VIZ_TOKEN
  if (!lesson_command(app.mpirun, app.bin_dir, f.lesson, f.np, f.flags, viz, argv, &f.error)) return false;
  app.playback.follow_live = true;
  return app.launcher.start(argv, &f.error);
}

void draw_launch_panel(App& app) {
  LaunchForm& f = app.form;
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("lesson", &f.lesson);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("np", &f.np);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(360);
  ImGui::InputText("flags", f.flags, sizeof f.flags);
  ImGui::SameLine();
  if (app.launcher.running()) {
    if (ImGui::Button("stop")) app.launcher.stop();
  } else if (ImGui::Button("start")) {
    start_lesson(app);
  }
  if (!f.error.empty()) ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", f.error.c_str());
  ImGui::BeginChild("output", ImVec2(0, 0), true);
  ImGui::TextUnformatted(app.launcher.output().c_str());
  if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
  ImGui::EndChild();
}

}  // namespace ringlab::viz
