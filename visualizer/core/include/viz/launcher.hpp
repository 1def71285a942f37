// The launch panel's engine: starts a lesson under scripts/ringlab-mpirun from an argument
// vector (fork + execvp, no shell, so nothing in the flags is ever interpreted), collects
// its output without blocking, and reports how it ended.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace ringlab::viz {

// argv for lesson `lesson` on `np` ranks: MPIRUN -np NP BIN_DIR/lesson_NN FLAGS... --viz ADDR.
// ADDR is what Server::lesson_address() says ("unix:PATH", or "HOST:PORT" with the token in
// RINGLAB_VIZ_TOKEN, which ringlab-viz --listen exports for every child it starts).
// `flags` is split on spaces (no quoting: lesson flags never need it). False with a reason
// when the lesson or np is out of range or the lesson binary is missing.
bool lesson_command(const std::string& mpirun, const std::string& bin_dir, int lesson, int np,
                    const std::string& flags, const std::string& viz_address, std::vector<std::string>& argv,
                    std::string* error);

class Launcher {
 public:
  ~Launcher();
  bool start(const std::vector<std::string>& argv, std::string* error);
  void poll();  // read output that is waiting; notice the end of the process
  // Polls until the run ends or `timeout_s` seconds pass; true when it ended.
  bool wait(double timeout_s);
  bool running() const { return pid_ > 0; }
  int exit_code() const { return exit_code_; }  // -1 while running or never started
  const std::string& output() const { return output_; }
  void stop();  // SIGTERM to the run (its process group)

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  int exit_code_ = -1;
  std::string output_;
};

}  // namespace ringlab::viz
