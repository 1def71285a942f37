// Lesson 04 — parameter server (synchronous and asynchronous) against the ring allreduce.
//   ./ringlab run 04 -np 4                      bytes per rank per step, time per step, sync vs async
//   ./ringlab run 04 -np 4 -- --check           both against the same training in one process
//   ./ringlab run 04 -np 5 -- --straggler-ms 20 one slow worker: who waits, how stale
//
// The server and worker steps are in parameter_server.hpp (solutions/04_parameter_server); the
// ring is lesson 05's ring_allreduce. The model: S parameters p, loss 0.5 * mean_i a_i (p_i - t_i)^2,
// every worker's gradient a (p - t) plus noise of its own (a stand-in for a minibatch's).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "ring_allreduce.hpp"  // lesson 05 (solutions/05_ring_allreduce)
#include "parameter_server.hpp"
#include "ringlab/check/diagnose_training.hpp"
#include "ringlab/ringlab.hpp"

using namespace ringlab;

namespace {

// A fast, reproducible random number in [0, 1) for element i of stream `seed`.
float hash01(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + i + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<float>((z ^ (z >> 31)) >> 40) / static_cast<float>(1ull << 24);
}

struct Problem {
  std::size_t size = 0;
  std::vector<float> a, target;  // curvature in [0.1, 1], optimum
  float noise = 0.5f;
  int straggler = -1;  // the worker that sleeps straggler_ms per gradient
  int straggler_ms = 0;

  explicit Problem(std::size_t n) : size(n), a(n), target(n) {
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = 0.1f + 0.9f * hash01(1, i);
      target[i] = 2.0f * hash01(2, i) - 1.0f;
    }
  }
  // Worker `worker`'s gradient for its `k`-th step at `p`.
  void gradient(int worker, int k, const float* p, float* g) const {
    const std::uint64_t seed = 1000 + 7919ull * worker + 104729ull * k;
    for (std::size_t i = 0; i < size; ++i)
      g[i] = a[i] * (p[i] - target[i]) + noise * (2.0f * hash01(seed, i) - 1.0f);
    if (worker == straggler && straggler_ms > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(straggler_ms));
  }
  double loss(const float* p) const {
    double l = 0;
    for (std::size_t i = 0; i < size; ++i)
      l += 0.5 * a[i] * double(p[i] - target[i]) * double(p[i] - target[i]);
    return l / static_cast<double>(size);
  }
};

// Bytes each rank sent and received, per collective name, counted from the trace's own
// send/recv events (so the table shows what really crossed the wire).
struct ByteCounter {
  std::map<std::string, std::pair<double, double>> by_coll;  // sent, received
  void attach() {
    trace::add_sink([this](const trace::Event& e) {
      if (e.op == trace::Op::send) by_coll[e.coll].first += static_cast<double>(e.bytes);
      if (e.op == trace::Op::recv) by_coll[e.coll].second += static_cast<double>(e.bytes);
    });
  }
};

// --- three ways to train the same model ----------------------------------------------------
struct Run {
  std::vector<float> params;
  std::vector<double> losses;  // after each step (sync) or each round of N-1 updates (async)
  double seconds = 0;
  std::vector<std::vector<double>> after_step;  // the parameters after each step (sync, --check only)
};

// Synchronous parameter server: rank 0 serves, ranks 1..N-1 work.
Run train_sync_ps(Communicator& comm, const Problem& pb, int steps, float lr, bool keep_steps) {
  Run run;
  run.params.assign(pb.size, 0.0f);
  std::vector<float> grad(pb.size), sum(pb.size), incoming(pb.size);
  comm.barrier();
  const double t0 = MPI_Wtime();
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
  }
  comm.barrier();
  run.seconds = MPI_Wtime() - t0;
  return run;
}

// Ring allreduce: every rank works, gradients averaged by lesson 05's ring, every rank steps.
Run train_ring(Communicator& comm, const Problem& pb, int steps, float lr) {
  Run run;
  run.params.assign(pb.size, 0.0f);
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
struct AsyncStats {
  std::vector<int> staleness;  // per update
  std::vector<int> worker;     // who sent it
};
Run train_async_ps(Communicator& comm, const Problem& pb, int steps, float lr, AsyncStats& stats) {
  Run run;
  run.params.assign(pb.size, 0.0f);
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

// The references, in one process: the same averaged gradients, the same order of additions.
// `after_step`, if given, gets the parameters after each step.
std::vector<float> serial_sync(const Problem& pb, int steps, float lr, int first_worker, int workers,
                               std::vector<std::vector<double>>* after_step = nullptr) {
  std::vector<float> p(pb.size, 0.0f), g(pb.size), sum(pb.size);
  for (int k = 0; k < steps; ++k) {
    std::fill(sum.begin(), sum.end(), 0.0f);
    for (int w = first_worker; w < first_worker + workers; ++w) {
      pb.gradient(w, k, p.data(), g.data());
      for (std::size_t i = 0; i < pb.size; ++i) sum[i] += g[i];
    }
    for (std::size_t i = 0; i < pb.size; ++i) p[i] -= lr * (sum[i] / static_cast<float>(workers));
    if (after_step) after_step->emplace_back(p.begin(), p.end());
  }
  return p;
}

long long compare_params(Communicator& comm, const std::vector<float>& ref, const std::vector<float>& got,
                         int terms, const char* what) {
  const auto r = compare<float>(View<const float>(ref), View<const float>(got), terms);
  if (r.wrong) log(Level::error) << what << ": " << describe(r);
  return comm.sum(r.wrong);
}

std::string fmt(const char* f, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
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
  app.add_option("--steps", steps, "Training steps (each worker pushes this many gradients)")
      ->capture_default_str()
      ->transform(whole_number_in(1, 100000));
  app.add_option("--lr", lr, "Learning rate")->capture_default_str()->transform(finite_number_in(1e-12, 100));
  app.add_option("--noise", noise, "Gradient noise amplitude (each worker's own)")
      ->capture_default_str()
      ->transform(finite_number_in(0, 1e6));
  app.add_option("--straggler-ms", straggler_ms, "Extra milliseconds the last rank takes per gradient")
      ->capture_default_str()
      ->transform(whole_number_in(0, 60000));
  if (auto exit_code = rt.start(app, opt, argc, argv, 6)) return *exit_code;
  // --format csv promises CSV only; this lesson's output is a table with its explanation.
  if (auto e = rt.refuse_unused(app, {"--format"}, "its output is a table with its explanation, not CSV")) return *e;
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
  ByteCounter bytes;
  bytes.attach();

  const Run ps = train_sync_ps(comm, pb, steps, flr, opt.check);
  const Run ring = train_ring(comm, pb, steps, flr);
  AsyncStats stats;
  const Run async = train_async_ps(comm, pb, steps, flr, stats);

  // --- bytes per rank per step ---------------------------------------------------------------
  const double S = static_cast<double>(pb.size * sizeof(float));
  auto per_step = [&](const char* coll) {
    auto it = bytes.by_coll.find(coll);
    const auto v = it == bytes.by_coll.end() ? std::pair<double, double>{0, 0} : it->second;
    return std::pair<double, double>{v.first / steps, v.second / steps};
  };
  const auto mine_ps = per_step("parameter_server"), mine_ring = per_step("ring_allreduce");
  print_once(
      comm, fmt("bytes per step, N = %.0f ranks, S = %.0f bytes of parameters (%.0f floats)\n", N, S, S / 4));
  {
    char head[200];
    std::snprintf(head, sizeof head, "%-4s %-7s %14s %14s   %14s %14s\n", "", "", "parameter server", "",
                  "ring allreduce", "");
    print_once(comm, head);
    std::snprintf(head, sizeof head, "%-4s %-7s %14s %14s   %14s %14s\n", "rank", "role", "sent", "received",
                  "sent", "received");
    print_once(comm, head);
  }
  char line[200];
  std::snprintf(line, sizeof line, "%-4d %-7s %14.0f %14.0f   %14.0f %14.0f", comm.rank(),
                comm.rank() == lesson04::kServer ? "server" : "worker", mine_ps.first, mine_ps.second,
                mine_ring.first, mine_ring.second);
  print_in_rank_order(comm, line);
  const double server_total = comm.rank() == 0 ? mine_ps.first + mine_ps.second : 0;
  const double server_moved = comm.sum(server_total);
  const double ring_sent_max = comm.max(mine_ring.first), ring_recv_max = comm.max(mine_ring.second);
  const double ps_theory = 2.0 * (N - 1) * S, ring_theory = 2.0 * (N - 1) / N * S;
  print_once(comm, fmt("server: sent + received %.0f B per step = %.3f x 2(N-1)*S\n", server_moved,
                       server_moved / ps_theory));
  print_once(
      comm,
      fmt("ring: the busiest rank sent %.0f B = %.3f x 2(N-1)/N*S, received %.0f B = %.3f x 2(N-1)/N*S\n",
          ring_sent_max, ring_sent_max / ring_theory, ring_recv_max, ring_recv_max / ring_theory));
  print_once(comm, fmt("busiest rank moves %.1fx more with the server than with the ring\n",
                       server_moved / (ring_sent_max + ring_recv_max)));

  // --- time per step, same run ----------------------------------------------------------------
  print_once(
      comm,
      fmt("\ntime per step: parameter server %.2f ms (%.0f workers), ring allreduce %.2f ms (%.0f workers)\n",
          ps.seconds / steps * 1e3, N - 1, ring.seconds / steps * 1e3, N));
  print_once(comm, fmt("async parameter server: %.2f ms per round of N-1 = %.0f updates\n",
                       async.seconds / steps * 1e3, N - 1));

  // --- sync vs async: staleness and loss (all on the server) ---------------------------------
  long long wrong = 0;
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

  if (opt.check) {
    // Sync PS and ring against the same training in one process; bytes against the formulas;
    // async: every worker's every push was applied once, staleness never negative.
    std::vector<std::vector<double>> ps_reference;
    const long long w_ps = compare_params(comm, serial_sync(pb, steps, flr, 1, N - 1, &ps_reference),
                                          ps.params, N, "parameter server");
    // Why, from the server's parameters step by step: the first wrong step, and how far it moved.
    if (w_ps && comm.rank() == lesson04::kServer) {
      const std::string why =
          diagnose_training(std::vector<double>(pb.size, 0.0), ps_reference, ps.after_step, N - 1,
                            "the number of workers (comm.size() - 1)");
      if (!why.empty()) std::printf("diagnosis: the parameter server: %s\n", why.c_str());
    }
    const long long w_ring = compare_params(comm, serial_sync(pb, steps, flr, 0, N), ring.params, N, "ring");
    long long w_bytes = 0, w_async = 0;
    if (std::fabs(server_moved / ps_theory - 1) > 1e-3) ++w_bytes;
    if (std::fabs(ring_sent_max / ring_theory - 1) > 1e-3 ||
        std::fabs(ring_recv_max / ring_theory - 1) > 1e-3)
      ++w_bytes;
    if (comm.rank() == 0) {
      if (static_cast<int>(stats.staleness.size()) != steps * (N - 1)) ++w_async;
      for (int s : stats.staleness) w_async += s < 0;
      if (!std::isfinite(async.losses.back())) ++w_async;
    }
    w_async = comm.sum(w_async);
    print_once(
        comm,
        fmt("\ncheck: sync PS vs one process #wrong %.0f, ring vs one process #wrong %.0f, bytes vs formulas "
            "#wrong %.0f, async bookkeeping #wrong %.0f\n",
            double(w_ps), double(w_ring), double(w_bytes), double(w_async)));
    wrong = w_ps + w_ring + w_bytes + w_async;
  }
  if (wrong) print_once(comm, "FAILED: " + std::to_string(wrong) + " wrong\n");
  return wrong ? 1 : 0;
}
