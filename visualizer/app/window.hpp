// The window both programs draw in, set up and torn down as Dear ImGui's example_glfw_opengl3
// does: a GLFW window, its OpenGL 3 context, and a Dear ImGui context with the GLFW and OpenGL 3
// backends. A frame, in each main: begin_frame, the views (views.hpp, presenter.hpp),
// ImGui::Render(), draw_frame, then a screenshot (screenshot.hpp) or glfwSwapBuffers.
#pragma once
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <string>

namespace ringlab::viz {

struct Window {
  GLFWwindow* glfw = nullptr;  // null: no OpenGL 3 window could be opened
  ImGuiContext* imgui = nullptr;
};

// After glfwInit(): the window and its contexts, left current. Hidden unless `visible`
// (screenshots, the handout). `share`: a window whose GL textures this one uses too.
// `callbacks` false: ImGui does not install its input callbacks (the caller routes the keys).
Window open_window(int width, int height, const std::string& title, bool visible,
                   GLFWwindow* share = nullptr, bool callbacks = true);
// Makes `w` current (GL and ImGui) and starts a Dear ImGui frame.
void begin_frame(const Window& w);
// After ImGui::Render(): clears a `width` x `height` framebuffer to `rgb` and draws the frame.
void draw_frame(int width, int height, const float rgb[3]);
// After the current context's fonts were rebuilt: their texture, uploaded again.
void upload_fonts();
// F in the presenter: full screen on the primary monitor and back to `saved` (x, y, w, h).
void toggle_fullscreen(GLFWwindow* w, int saved[4]);
// A picture file (PNG, or any format stb_image reads) as a texture of the current GL context,
// loaded once per path: the slides' images. False when it cannot be read.
bool image_texture(const std::string& path, int* w, int* h, ImTextureID* tex);
// Frees every image_texture, with their window's context current, before it closes.
void free_image_textures();
void close_window(Window& w);

}  // namespace ringlab::viz
