// The window's setup, frame and shutdown, in the order of Dear ImGui's example_glfw_opengl3;
// write_png: the back buffer, flipped (GL's first row is the bottom one), through stb.
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <vector>

#include "shell.hpp"

namespace ringlab::viz {

Window open_window(int width, int height, const std::string& title, bool visible, GLFWwindow* share,
                   bool callbacks) {
  Window w;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  w.glfw = glfwCreateWindow(width, height, title.c_str(), nullptr, share);
  if (!w.glfw) return w;
  glfwMakeContextCurrent(w.glfw);
  glfwSwapInterval(0);  // the loops pace themselves, so Xvfb does not spin
  IMGUI_CHECKVERSION();
  w.imgui = ImGui::CreateContext();
  ImGui::SetCurrentContext(w.imgui);
  ImGui::GetIO().IniFilename = nullptr;  // same layout every start
  ImGui_ImplGlfw_InitForOpenGL(w.glfw, callbacks);
  ImGui_ImplOpenGL3_Init("#version 130");
  return w;
}

void make_current(const Window& w) {
  glfwMakeContextCurrent(w.glfw);
  ImGui::SetCurrentContext(w.imgui);
}

void begin_frame(const Window& w) {
  make_current(w);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void draw_frame(int width, int height, ImU32 clear) {
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(clear);
  glViewport(0, 0, width, height);
  glClearColor(c.x, c.y, c.z, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void upload_fonts() {
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void close_window(Window& w) {
  make_current(w);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext(w.imgui);
  glfwDestroyWindow(w.glfw);
  w = Window{};
}

bool write_png(const std::string& path, int w, int h) {
  std::vector<unsigned char> px(static_cast<std::size_t>(w) * h * 3);
  glFinish();
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, px.data());
  stbi_flip_vertically_on_write(1);  // GL's first row is the bottom one
  return stbi_write_png(path.c_str(), w, h, 3, px.data(), w * 3) != 0;
}

}  // namespace ringlab::viz
