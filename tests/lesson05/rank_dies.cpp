// A job in which rank 1 is killed (SIGKILL, as the out-of-memory killer would) while the other
// ranks wait for it: in a receive from it (`rank_dies recv`) or in a collective it never joins
// (`rank_dies allreduce`). The launcher must end the whole job within seconds, non-zero, with
// one line naming the rank and the signal; the test's time limit turns a hang into a failure.
#include <chrono>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include "ringlab/ringlab.hpp"

int main(int argc, char** argv) {
  ringlab::Runtime rt(argc, argv);
  auto& comm = rt.comm();
  const std::string where = argc > 1 ? argv[1] : "recv";
  std::vector<float> buf(1 << 16, 1.0f);
  auto allreduce = [&] {
    MPI_Allreduce(MPI_IN_PLACE, buf.data(), static_cast<int>(buf.size()), MPI_FLOAT, MPI_SUM, comm.raw());
  };
  allreduce();  // everyone is up and talking before the kill
  if (comm.rank() == 1) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // let the others block first
    std::raise(SIGKILL);
  }
  if (where == "allreduce") allreduce();         // never completes: rank 1 is gone
  else comm.recv(ringlab::View<float>(buf), 1);  // never satisfied
  return 0;
}
