#include "viz/launcher.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <thread>

namespace ringlab::viz {
namespace {
bool fail(std::string* error, const std::string& why) {
  if (error) *error = why;
  return false;
}
}  // namespace

bool lesson_command(const std::string& mpirun, const std::string& bin_dir, int lesson, int np,
                    const std::string& flags, const std::string& viz_address, std::vector<std::string>& argv,
                    std::string* error) {
  if (lesson < 1 || lesson > 99)
    return fail(error, "lesson " + std::to_string(lesson) + ": give a number 1..99");
  if (np < 1 || np > 64) return fail(error, "np " + std::to_string(np) + ": give 1..64 ranks");
  char name[16];
  std::snprintf(name, sizeof name, "lesson_%02d", lesson);
  const std::string bin = bin_dir + "/" + name;
  if (access(bin.c_str(), F_OK) != 0) return fail(error, bin + " is not built");
  argv = {mpirun, "-np", std::to_string(np), bin};
  std::istringstream words(flags);
  for (std::string w; words >> w;) argv.push_back(w);
  if (!viz_address.empty()) argv.insert(argv.end(), {"--viz", viz_address});
  return true;
}

Launcher::~Launcher() {
  stop();
  if (pid_ > 0) waitpid(pid_, nullptr, 0);
  if (fd_ >= 0) close(fd_);
}

bool Launcher::start(const std::vector<std::string>& argv, std::string* error) {
  if (running()) return fail(error, "a run is still going; stop it first");
  if (argv.empty()) return fail(error, "nothing to run");
  int pipefd[2];
  if (pipe(pipefd) != 0) return fail(error, std::string("pipe: ") + std::strerror(errno));
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(pipefd[0]);
    close(pipefd[1]);
    return fail(error, std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {  // the child: own process group (so stop() reaches mpirun's ranks), output to the pipe
    setpgid(0, 0);
    dup2(pipefd[1], STDOUT_FILENO);
    dup2(pipefd[1], STDERR_FILENO);
    close(pipefd[0]);
    close(pipefd[1]);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(pipefd[1]);
  fd_ = pipefd[0];
  fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL, 0) | O_NONBLOCK);
  pid_ = pid;
  exit_code_ = -1;
  output_.clear();
  for (const auto& a : argv) output_ += (output_.empty() ? "$ " : " ") + a;
  output_ += "\n";
  return true;
}

void Launcher::poll() {
  if (fd_ >= 0) {
    char buf[4096];
    ssize_t n;
    while ((n = read(fd_, buf, sizeof buf)) > 0) output_.append(buf, static_cast<std::size_t>(n));
    if (n == 0) {  // the run closed its end: nothing more will come
      close(fd_);
      fd_ = -1;
    }
    if (output_.size() > (1 << 20)) output_.erase(0, output_.size() - (1 << 19));  // keep the tail
  }
  if (pid_ > 0) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      pid_ = -1;
      output_ += "[exited with code " + std::to_string(exit_code_) + "]\n";
    }
  }
}

bool Launcher::wait(double timeout_s) {
  const auto t0 = std::chrono::steady_clock::now();
  while (running() && std::chrono::steady_clock::now() - t0 < std::chrono::duration<double>(timeout_s)) {
    poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  poll();
  return !running();
}

void Launcher::stop() {
  if (pid_ > 0) kill(-pid_, SIGTERM);
}

}  // namespace ringlab::viz
