// Lesson 04 — parameter server (synchronous and asynchronous) against the ring allreduce.
//   ./ringlab run 04 -np 4                      bytes per rank per step, time per step, sync vs async
//   ./ringlab run 04 -np 4 -- --check           both against the same training in one process
//   ./ringlab run 04 -np 5 -- --straggler-ms 20 one slow worker: who waits, how stale
//
// The server and worker steps are in parameter_server.hpp (solutions/04_parameter_server); the
// ring is lesson 05's ring_allreduce. The model (model.hpp beside this file): S parameters p, loss
// 0.5 * mean_i a_i (p_i - t_i)^2, every worker's gradient a (p - t) plus noise of its own (a
// stand-in for a minibatch's). This file trains it three ways and measures them; beside it,
// byte_counter.hpp (the bytes, counted from the trace) and check.hpp (--check).
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "byte_counter.hpp"
#include "check.hpp"
#include "model.hpp"
#include "parameter_server.hpp"
#include "ring_allreduce.hpp"  // lesson 05 (solutions/05_ring_allreduce)
#include "ringlab/ringlab.hpp"
#include "shared/format.hpp"

using namespace ringlab;
using lesson04::AsyncStats;
using lesson04::Problem;
using lesson04::Run;

namespace {

// --- three ways to train the same model ----------------------------------------------------
// Synchronous parameter server: rank 0 serves, ranks 1..N-1 work.
Run train_sync_ps(Communicator& comm, const Problem& pb, int steps, float lr, bool keep_steps) {
  Run run;
  run.params = pb.start;
  std::vector<float> grad(pb.size), sum(pb.size), incoming(pb.size);
  comm.barrier();
  const double t0 = MPI_Wtime();
  WatchSchedule watch(parameter_server_schedule(comm.size(), steps));  // a hang is compared with it
  const long long any_before = any_source_receives();
  std::optional<trace::Capture> capture;  // --check: its transfers, against the schedule (check.hpp)
  if (keep_steps) capture.emplace();
  for (int k = 0; k < steps; ++k) {
    if (comm.rank() == lesson04::kServer) {
      lesson04::server_step<float>(comm, View<float>(run.params), View<float>(sum), View<float>(incoming), lr,
                                   k);
      run.losses.push_back(pb.loss(run.params.data()));
      trace::metric("loss", run.losses.back(), k);
    } else {
      pb.gradient(comm.rank(), k, run.params.data(), grad.data());
      lesson04::worker_step<float>(comm, View<const float>(grad), View<float>(run.params), k);
    }
    if (keep_steps) run.after_step.emplace_back(run.params.begin(), run.params.end());
    if (keep_steps && k == 0 && comm.rank() == lesson04::kServer) run.server_sum.assign(sum.begin(), sum.end());
  }
  run.any_source = any_source_receives() - any_before;
  if (capture)
    run.departure = harness::schedule_departure(comm, parameter_server_schedule(comm.size(), steps), capture->take());
  comm.barrier();
  run.seconds = MPI_Wtime() - t0;
  return run;
}

// Ring allreduce: every rank works, gradients averaged by lesson 05's ring, every rank steps.
Run train_ring(Communicator& comm, const Problem& pb, int steps, float lr) {
  Run run;
  run.params = pb.start;
  std::vector<float> grad(pb.size);
  const float n = static_cast<float>(comm.size());
  comm.barrier();
  const double t0 = MPI_Wtime();
  for (int k = 0; k < steps; ++k) {
    pb.gradient(comm.rank(), k, run.params.data(), grad.data());
    lesson05::ring_allreduce<float>(comm, View<float>(grad), View<float>(grad));
    for (std::size_t i = 0; i < pb.size; ++i) run.params[i] -= lr * (grad[i] / n);
    if (comm.rank() == 0) run.losses.push_back(pb.loss(run.params.data()));
  }
  comm.barrier();
  run.seconds = MPI_Wtime() - t0;
  return run;
}

// Asynchronous parameter server: `steps` pushes per worker, each gradient applied with
// lr / (N-1), so that one round of N-1 updates moves as far as one synchronous step.
Run train_async_ps(Communicator& comm, const Problem& pb, int steps, float lr, AsyncStats& stats) {
  Run run;
  run.params = pb.start;
  const int workers = comm.size() - 1;
  comm.barrier();
  const double t0 = MPI_Wtime();
  if (comm.rank() == lesson04::kServer) {
    lesson04::async_server<float>(comm, View<float>(run.params), steps * workers, lr / workers,
                                  [&](int u, int worker, int staleness, View<float> p) {
                                    stats.staleness.push_back(staleness);
                                    stats.worker.push_back(worker);
                                    trace::metric("staleness", staleness, u);
                                    if ((u + 1) % workers == 0) run.losses.push_back(pb.loss(p.data()));
                                  });
  } else {
    std::vector<float> msg(pb.size + 1);
    lesson04::async_worker<float>(comm, View<float>(msg), steps,
                                  [&](const std::vector<float>& p, std::vector<float>& g, int k) {
                                    pb.gradient(comm.rank(), k, p.data(), g.data());
                                  });
  }
  comm.barrier();
  run.seconds = MPI_Wtime() - t0;
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{"Lesson 04 — parameter server, synchronous and asynchronous, against the ring allreduce"};
  CommonOptions opt;
  opt.count = 1 << 20;
  add_common_options(app, opt);
  int steps = 10, straggler_ms = 0;
  double lr = 0.5, noise = 0.5;
  add_number(app, "--steps", steps, "Training steps (each worker pushes this many gradients)", 1, 100000);
  add_number(app, "--lr", lr, "Learning rate", 1e-12, 100);
  add_number(app, "--noise", noise, "Gradient noise amplitude (each worker's own)", 0, 1e6);
  add_number(app, "--straggler-ms", straggler_ms, "Extra milliseconds the last rank takes per gradient",
             0, 60000);
  if (auto exit_code = rt.start(app, opt, argc, argv, 6)) return *exit_code;
  // --format csv promises CSV only; this lesson's output is a table with its explanation.
  if (auto e = rt.refuse_unused(app, {"--format"}, "its output is a table with its explanation, not CSV"))
    return *e;
  auto& comm = rt.comm();
  const int N = comm.size();
  if (auto e = rt.fail_if(
          N < 2, "lesson 04 needs -np 2 or more (rank 0 is the server, the others are workers), got -np " +
                     std::to_string(N)))
    return *e;
  if (auto e = rt.fail_if(
          opt.type != DType::f32,
          std::string("lesson 04 trains float parameters: --type float, got --type ") + dtype_name(opt.type)))
    return *e;
  if (auto e =
          rt.fail_if(opt.count < 1, "--count must be 1 or more parameters, got " + std::to_string(opt.count)))
    return *e;
  Problem pb(static_cast<std::size_t>(opt.count));
  pb.noise = static_cast<float>(noise);
  pb.straggler = N - 1;
  pb.straggler_ms = straggler_ms;
  const float flr = static_cast<float>(lr);
  lesson04::ByteCounter bytes;  // what each rank sends and receives, from the trace (byte_counter.hpp)
  bytes.attach();

  const Run ps = train_sync_ps(comm, pb, steps, flr, opt.check);
  const Run ring = train_ring(comm, pb, steps, flr);
  AsyncStats stats;
  const Run async = train_async_ps(comm, pb, steps, flr, stats);

  // --- bytes per rank per step ---------------------------------------------------------------
  const double S = static_cast<double>(pb.size * sizeof(float));
  const auto mine_ps = bytes.per_step("parameter_server", steps),
             mine_ring = bytes.per_step("ring_allreduce", steps);
  print_once(comm,
             lessons::format("bytes per step, N = %d ranks, S = %.0f bytes of parameters (%.0f floats)\n", N,
                             S, S / 4));
  const char* head = "%-4s %-7s %14s %14s   %14s %14s\n";
  print_once(comm, lessons::format(head, "", "", "parameter server", "", "ring allreduce", "") +
                       lessons::format(head, "rank", "role", "sent", "received", "sent", "received"));
  print_in_rank_order(comm,
                      lessons::format("%-4d %-7s %14.0f %14.0f   %14.0f %14.0f", comm.rank(),
                                      comm.rank() == lesson04::kServer ? "server" : "worker", mine_ps.first,
                                      mine_ps.second, mine_ring.first, mine_ring.second));
  const double server_total = comm.rank() == 0 ? mine_ps.first + mine_ps.second : 0;
  const double server_moved = comm.sum(server_total);
  const double ring_sent_max = comm.max(mine_ring.first), ring_recv_max = comm.max(mine_ring.second);
  const double ps_theory = 2.0 * (N - 1) * S, ring_theory = 2.0 * (N - 1) / N * S;
  print_once(comm, lessons::format("server: sent + received %.0f B per step = %.3f x 2(N-1)*S\n",
                                   server_moved, server_moved / ps_theory));
  print_once(
      comm,
      lessons::format(
          "ring: the busiest rank sent %.0f B = %.3f x 2(N-1)/N*S, received %.0f B = %.3f x 2(N-1)/N*S\n",
          ring_sent_max, ring_sent_max / ring_theory, ring_recv_max, ring_recv_max / ring_theory));
  print_once(comm, lessons::format("busiest rank moves %.1fx more with the server than with the ring\n",
                                   server_moved / (ring_sent_max + ring_recv_max)));

  // --- time per step, same run ----------------------------------------------------------------
  print_once(
      comm,
      lessons::format(
          "\ntime per step: parameter server %.2f ms (%d workers), ring allreduce %.2f ms (%d workers)\n",
          ps.seconds / steps * 1e3, N - 1, ring.seconds / steps * 1e3, N));
  print_once(comm, lessons::format("async parameter server: %.2f ms per round of N-1 = %d updates\n",
                                   async.seconds / steps * 1e3, N - 1));

  // --- sync vs async: staleness and loss (all on the server) ---------------------------------
  if (comm.rank() == 0) {
    const int workers = N - 1;
    std::printf("\n%5s %14s %14s %16s %14s\n", "step", "sync PS loss", "async PS loss", "async staleness",
                "(max)");
    for (int k = 0; k < steps; ++k) {
      double mean = 0;
      int mx = 0;
      for (int u = k * workers; u < (k + 1) * workers; ++u) {
        mean += stats.staleness[u];
        mx = std::max(mx, stats.staleness[u]);
      }
      std::printf("%5d %14.6f %14.6f %16.2f %14d\n", k, ps.losses[k], async.losses[k], mean / workers, mx);
    }
    std::vector<double> per_worker(N, 0), count(N, 0);
    for (std::size_t u = 0; u < stats.staleness.size(); ++u) {
      per_worker[stats.worker[u]] += stats.staleness[u];
      count[stats.worker[u]] += 1;
    }
    std::printf("mean staleness per worker:");
    for (int w = 1; w < N; ++w) std::printf("  rank %d: %.2f", w, count[w] ? per_worker[w] / count[w] : 0.0);
    std::printf("\nfinal loss: sync %.6f, async %.6f (%+.1f%%)\n", ps.losses.back(), async.losses.back(),
                100.0 * (async.losses.back() / ps.losses.back() - 1.0));
    std::fflush(stdout);
  }

  long long wrong = 0;
  if (opt.check)  // against one process, the formulas and the async bookkeeping (check.hpp)
    wrong = lesson04::check_training(comm, pb, steps, flr, ps, ring, async, stats, server_moved / ps_theory,
                                     ring_sent_max / ring_theory, ring_recv_max / ring_theory);
  if (wrong) print_once(comm, "FAILED: " + std::to_string(wrong) + " wrong\n");
  return wrong ? 1 : 0;
}
