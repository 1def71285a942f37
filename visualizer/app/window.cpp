// The window's setup, frame and shutdown, in the order of Dear ImGui's example_glfw_opengl3.
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image.h>

#include <cstdint>
#include <map>

#include "shell.hpp"

namespace ringlab::viz {
namespace {
struct Texture {
  GLuint id = 0;
  int w = 0, h = 0;
};
std::map<std::string, Texture> g_textures;

Window g_keys_to;  // forward_keys: ImGui's GLFW callbacks, run in this window's ImGui context
void key_to(GLFWwindow*, int key, int scancode, int action, int mods) {
  ImGuiContext* was = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(g_keys_to.imgui);
  ImGui_ImplGlfw_KeyCallback(g_keys_to.glfw, key, scancode, action, mods);
  ImGui::SetCurrentContext(was);
}
void char_to(GLFWwindow*, unsigned int c) {
  ImGuiContext* was = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(g_keys_to.imgui);
  ImGui_ImplGlfw_CharCallback(g_keys_to.glfw, c);
  ImGui::SetCurrentContext(was);
}
}  // namespace

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

void draw_frame(int width, int height, const float rgb[3]) {
  glViewport(0, 0, width, height);
  glClearColor(rgb[0], rgb[1], rgb[2], 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void upload_fonts() {
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void forward_keys(GLFWwindow* from, const Window& to) {
  g_keys_to = to;
  glfwSetKeyCallback(from, key_to);
  glfwSetCharCallback(from, char_to);
}

void toggle_fullscreen(GLFWwindow* w, int saved[4]) {
  if (glfwGetWindowMonitor(w)) {
    glfwSetWindowMonitor(w, nullptr, saved[0], saved[1], saved[2], saved[3], 0);
    return;
  }
  glfwGetWindowPos(w, &saved[0], &saved[1]);
  glfwGetWindowSize(w, &saved[2], &saved[3]);
  GLFWmonitor* m = glfwGetPrimaryMonitor();
  if (!m) return;
  const GLFWvidmode* mode = glfwGetVideoMode(m);
  glfwSetWindowMonitor(w, m, 0, 0, mode->width, mode->height, mode->refreshRate);
}

bool image_texture(const std::string& path, int* w, int* h, ImTextureID* tex) {
  auto it = g_textures.find(path);
  if (it == g_textures.end()) {
    Texture t;
    int ch = 0;
    if (unsigned char* px = stbi_load(path.c_str(), &t.w, &t.h, &ch, 4)) {
      glGenTextures(1, &t.id);
      glBindTexture(GL_TEXTURE_2D, t.id);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, t.w, t.h, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
      stbi_image_free(px);
    }
    it = g_textures.emplace(path, t).first;
  }
  if (!it->second.id) return false;
  *w = it->second.w, *h = it->second.h;
  *tex = reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(it->second.id));
  return true;
}

void free_image_textures() {
  for (auto& [path, t] : g_textures)
    if (t.id) glDeleteTextures(1, &t.id);
  g_textures.clear();
}

void close_window(Window& w) {
  make_current(w);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext(w.imgui);
  glfwDestroyWindow(w.glfw);
  w = Window{};
}

}  // namespace ringlab::viz
