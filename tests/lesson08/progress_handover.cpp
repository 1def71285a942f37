// The progress thread's two ways of sharing a core (ringlab/progress_thread.hpp), checked on
// real ranks with a real allreduce:
//   handover  a queued job does not run until the owner lends its core or waits: after start()
//             and 50 ms of "computing" it has not begun; after lend_core() it has; after
//             wait_all() its allreduce holds the sum of every rank's values.
//   poll      a queued job runs on its own: it begins without lend_core().
// Prints one line per check and exits 1 on the first wrong one.
//   mpirun -np N progress_handover
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "ringlab/comm/allreduce.hpp"
#include "ringlab/comm/progress_thread.hpp"
#include "ringlab/ringlab.hpp"

using namespace ringlab;

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{"progress thread: handover and poll"};
  if (auto code = rt.parse(app, argc, argv)) return *code;
  Communicator& comm = rt.comm();
  const int n = comm.size();
  bool ok = true;
  auto expect = [&](bool good, const char* what) {
    const bool all = comm.all_ok(good);
    print_once(comm, std::string(all ? "ok: " : "WRONG: ") + what + "\n");
    ok = ok && all;
  };
  // 300 000 floats: a ring of several segments, so the job waits for the other ranks mid-way.
  std::vector<float> data(300000);
  for (auto sharing : {ProgressThread::Sharing::handover, ProgressThread::Sharing::poll}) {
    const bool handover = sharing == ProgressThread::Sharing::handover;
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>((i % 7) + comm.rank());
    std::atomic<bool> began{false};
    {
      ProgressThread progress(comm, sharing);
      progress.start([&] {
        began = true;
        ring_allreduce_fast<float>(comm, View<float>(data), View<float>(data));
      });
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the owner "computes"
      // (MPI_THREAD_SERIALIZED: the checks call MPI, so only while the thread is not in a call:
      // with handover before it runs and once it has given the core back, with poll at the end.)
      if (handover) {
        expect(!began, "handover: a queued job waits for the owner's core");
        progress.lend_core();
        expect(began, "handover: lend_core() lets it run");
      } else {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!began && std::chrono::steady_clock::now() < until) std::this_thread::yield();
      }
      const bool began_alone = began;
      progress.wait_all();
      if (!handover) expect(began_alone, "poll: a queued job runs on its own");
    }
    bool sums = true;  // rank r contributed (i % 7) + r: the sum is n (i % 7) + n (n - 1) / 2
    for (std::size_t i = 0; i < data.size(); ++i)
      sums = sums && data[i] == static_cast<float>(n * static_cast<int>(i % 7) + n * (n - 1) / 2);
    expect(sums, handover ? "handover: the allreduce's sum is right" : "poll: the allreduce's sum is right");
  }
  return ok ? 0 : 1;
}
