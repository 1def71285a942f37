// The notes window: set up like the slides' window, its keys sent on to the slides' ImGui.
#include "notes_window.hpp"

#include <imgui_impl_glfw.h>

#include <cstdio>

#include "fonts.hpp"
#include "screenshot.hpp"

namespace ringlab::viz {
namespace {
Window g_slides;  // where the notes window's keys go

void notes_key(GLFWwindow*, int key, int scancode, int action, int mods) {
  ImGuiContext* was = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(g_slides.imgui);
  ImGui_ImplGlfw_KeyCallback(g_slides.glfw, key, scancode, action, mods);
  ImGui::SetCurrentContext(was);
}
void notes_char(GLFWwindow*, unsigned int c) {
  ImGuiContext* was = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(g_slides.imgui);
  ImGui_ImplGlfw_CharCallback(g_slides.glfw, c);
  ImGui::SetCurrentContext(was);
}

void make_current(const Window& w) {
  glfwMakeContextCurrent(w.glfw);
  ImGui::SetCurrentContext(w.imgui);
}
}  // namespace

Window open_notes_window(const Window& slides, bool visible) {
  Window notes = open_window(900, 600, "ringlab — presenter notes", visible, slides.glfw, false);
  if (notes.glfw) {
    ImGui::StyleColorsDark();
    // The notes are read from a laptop screen at arm's length: one size, the body face.
    std::string error;
    const std::string font = find_font("DejaVu Sans", &error);
    if (!font.empty()) ImGui::GetIO().Fonts->AddFontFromFileTTF(font.c_str(), 28, nullptr, slide_glyph_ranges());
    g_slides = slides;
    glfwSetKeyCallback(notes.glfw, notes_key);
    glfwSetCharCallback(notes.glfw, notes_char);
  }
  make_current(slides);
  return notes;
}

bool draw_notes_window(const Window& notes, const Window& slides, const Presenter& p, const std::string& save_to) {
  begin_frame(notes);
  int w, h;
  glfwGetFramebufferSize(notes.glfw, &w, &h);
  draw_presenter_notes(p, static_cast<float>(w), static_cast<float>(h));
  ImGui::Render();
  const float clear[3] = {0.08f, 0.08f, 0.1f};
  draw_frame(w, h, clear);
  bool saved = true;
  if (!save_to.empty()) {
    saved = write_png(save_to, w, h);
    if (saved) std::printf("notes screenshot: %s (%dx%d)\n", save_to.c_str(), w, h);
    else std::fprintf(stderr, "ringlab-present: error: cannot write %s\n", save_to.c_str());
  }
  glfwSwapBuffers(notes.glfw);
  if (glfwWindowShouldClose(notes.glfw)) glfwSetWindowShouldClose(slides.glfw, 1);
  make_current(slides);
  return saved;
}

}  // namespace ringlab::viz
