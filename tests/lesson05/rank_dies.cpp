// A job in which rank 1 is killed (SIGKILL, as the out-of-memory killer would) while every
// other rank waits to receive from it. The launcher must notice and end the whole job, with a
// non-zero exit, within seconds: the test's TIMEOUT turns a hang into a failure.
#include <chrono>
#include <csignal>
#include <thread>
#include <vector>

#include "ringlab/ringlab.hpp"

int main(int argc, char** argv) {
  ringlab::Runtime rt(argc, argv);
  auto& comm = rt.comm();
  if (comm.rank() == 1) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // let the others block first
    std::raise(SIGKILL);
  }
  std::vector<float> buf(4);
  comm.recv(ringlab::View<float>(buf), 1);  // never satisfied
  return 0;
}
