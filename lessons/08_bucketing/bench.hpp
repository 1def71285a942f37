// Lesson 08's --bench: the three strategies side by side, each against the np 1 reference
// measured alongside, and against the bound (no averaging at all). Per strategy: allreduces and
// messages per step, what lesson 05's α-β model says they cost, the communication measured, how
// much of it the training thread waited for (exposed) and how much ran behind backward (hidden),
// the step time, the throughput. --format csv: the same rows as CSV, the bound's two rows named
// no-averaging and lockstep.
#pragma once
#include <time.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ringlab/ringlab.hpp"
#include "shared/alpha_beta.hpp"  // the α-β model of a message (lesson 05)
#include "shared/training.hpp"
#include "step.hpp"

namespace lesson08 {
using namespace ringlab;
using lessons::seconds_now;

// The kit's ring sends each chunk in segments of FastRingOptions::segment_bytes: the messages
// one rank sends for an allreduce of `count` floats on n ranks, and the bytes of each.
struct Messages {
  double count = 0, bytes_each = 0;
};
inline Messages ring_messages(std::size_t count, int n) {
  if (n < 2) return {};
  const std::size_t chunk = chunk_of(count, n, 0).count;
  const std::size_t seg = FastRingOptions{}.segment_bytes / sizeof(float);
  const double segments = std::max<std::size_t>(1, (chunk + seg - 1) / seg);
  return {2.0 * (n - 1) * segments, chunk * sizeof(float) / segments};
}

// CPU seconds used so far by every thread of this process (the training and progress threads,
// and MPI's own): set against the wall time, it says whether the rank's core was ever idle.
inline double cpu_seconds_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// `one_strategy`: --strategy was given, so only that one is timed (with the reference).
inline int run_bench(Communicator& comm, const CommonOptions& opt, Stepper& st, Strategy strategy, bool one_strategy,
                     bool shared, const std::string& shape, std::uint64_t seed) {
  const int n = comm.size(), batch = st.batch;
  const int steps_per_epoch = st.train.count / batch;
  // The α-β model from a ping-pong (lesson 05): what the messages of each strategy cost.
  lessons::AlphaBeta model;
  if (n > 1) model = lessons::fit_alpha_beta(lessons::ping_pong(comm, {64, 4096, 65536, 262144}));
  st.begin_epoch(lessons::epoch_order(st.train.count, seed, 0));

  // What is timed, each a kind of step: the np 1 reference (one process computing the whole
  // global batch and stepping, no communication: what -np 1 does, measured now on every rank
  // at once, under the same load), the three strategies, and the bound (the same steps with
  // no averaging at all: each rank steps with its own gradient, so this is not data-parallel
  // training, only its compute and SGD: no strategy can beat it), and the bound in lockstep
  // (the same, but every rank waits for the slowest at each step, as data-parallel training
  // must: what the step would cost if averaging were free).
  enum Kind { reference, after, per_layer, bucket, bound, lockstep };
  std::vector<Kind> kinds{reference, after, per_layer, bucket};
  if (one_strategy)
    kinds = {reference, strategy == Strategy::after       ? after
                        : strategy == Strategy::per_layer ? per_layer
                                                          : bucket};
  else
    kinds.insert(kinds.end(), {bound, lockstep});
  auto strategy_of = [](Kind k) {
    return k == after ? Strategy::after : k == per_layer ? Strategy::per_layer : Strategy::bucket;
  };
  std::vector<lesson08::BucketScheduler> schedulers;
  for (Kind k : kinds) schedulers.push_back(st.scheduler(k <= bucket && k != reference ? strategy_of(k)
                                                                                         : Strategy::after));
  auto one_step = [&](std::size_t i, int b) {
    b %= steps_per_epoch;
    if (kinds[i] == reference) {
      st.mlp.loss_and_gradient(st.params.data(), st.train_set, b * batch, batch, st.grad.data());
    } else if (kinds[i] == bound || kinds[i] == lockstep) {
      st.mlp.loss_and_gradient(st.params.data(), st.train_set, b * batch + st.part.offset, st.part.count,
                               st.grad.data());
      if (kinds[i] == lockstep) comm.barrier();
    } else {
      st.step(strategy_of(kinds[i]), schedulers[i], b);
    }
    st.mlp.take_loss_sum();  // (the bench prints no loss)
    st.update();
  };

  // Per kind: wall time (the slowest rank's), time the training thread waited for the
  // averaging, communication time, and CPU time of all threads of a rank (rank averages).
  struct Tally {
    double seconds = 0, exposed = 0, busy = 0, hidden = -1, cpu = 0;
  };
  std::vector<Tally> tally(kinds.size());
  for (std::size_t i = 0; i < kinds.size(); ++i)
    for (int w = 0; w < opt.warmup; ++w) one_step(i, w);
  // The kinds take turns, a round of iters / rounds steps each at a time: a machine whose
  // speed drifts (other programs, a VM's neighbours) then slows every kind alike, and the
  // ratios between them stay fair.
  const int rounds = std::max(1, std::min(opt.iters, 10));
  for (int round = 0; round < rounds; ++round) {
    const int first = opt.iters * round / rounds, last = opt.iters * (round + 1) / rounds;
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      comm.barrier();
      st.exposed_seconds = 0;
      const double busy0 = st.averaging.busy_seconds(), hidden0 = st.averaging.hidden_seconds();
      const double cpu0 = cpu_seconds_now(), t0 = seconds_now();
      for (int s = first; s < last; ++s) one_step(i, opt.warmup + s);
      Tally& t = tally[i];
      t.seconds += comm.max(seconds_now() - t0);
      t.cpu += comm.sum(cpu_seconds_now() - cpu0) / n;
      t.exposed += comm.sum(st.exposed_seconds) / n;
      // The communication itself: on the progress thread or in the shared-memory averaging,
      // hidden or not (for `after` all of it is exposed).
      t.busy += kinds[i] == after && !shared ? comm.sum(st.exposed_seconds) / n
                                             : comm.sum(st.averaging.busy_seconds() - busy0) / n;
      if (hidden0 >= 0) t.hidden = std::max(0.0, t.hidden) + comm.sum(st.averaging.hidden_seconds() - hidden0) / n;
      if (kinds[i] >= bound) lesson06::broadcast<float>(comm, View<float>(st.params));  // replicas equal again
    }
  }
  const double one_process = tally[0].seconds / opt.iters;

  const bool csv = opt.format == Format::csv;
  if (csv)
    print_once(
        comm,
        "strategy,ranks,global_batch,allreduces,messages,model_alpha_ms,model_comm_ms,comm_ms,exposed_ms,"
        "hidden_pct,step_ms,samples_per_s,speedup_vs_np1\n");
  else
    print_once(
        comm, lessons::format(
                  "bench: %s, MLP %s, global batch %d, %d timed steps per strategy, taking turns in "
                  "%d rounds\n"
                  "  α-β model (ping-pong%s): α = %.2f us per message, β = %.3e us per byte%s\n"
                  "  np 1 reference (whole batch, one process, measured alongside): %.2f ms/step, %.0f "
                  "samples/s\n"
                  "  strategy   allreduces messages  model α   model comm    comm  exposed  hidden    step  "
                  "samples/s  vs np 1\n"
                  "             per step   per step    (ms)       (ms)       (ms)    (ms)             (ms)\n",
                  ringlab::plural(n, "rank").c_str(), shape.c_str(), batch, opt.iters, rounds,
                  n > 1 ? "" : "; one rank sends no messages",
                  model.alpha_us, model.beta_us_per_byte,
                  shared ? "\n  (the model columns: what lesson 05's ring would send; --allreduce shared "
                           "sends no messages)"
                         : "",
                  1e3 * one_process, batch / one_process));
  // Per kind, a rank's CPU time per step and its share of the step: below 100%, the core was
  // idle part of the time (waiting for the other rank), and only that part can be hidden.
  std::string cpu_line;
  for (std::size_t i = 1; i < kinds.size(); ++i) {
    const Tally& t = tally[i];
    const double step = t.seconds / opt.iters, rate = batch / step;
    cpu_line += lessons::format("%s%s %.3f ms (%.0f%%)", cpu_line.empty() ? "" : ", ",
                                kinds[i] == bound      ? "no averaging"
                                : kinds[i] == lockstep ? "in lockstep"
                                                       : strategy_name(strategy_of(kinds[i])),
                                1e3 * t.cpu / opt.iters, 100 * t.cpu / t.seconds);
    if (kinds[i] >= bound) {  // no communication: CSV zeros, by name
      print_once(comm,
                 csv ? lessons::format("%s,%d,%d,0,0,0.000,0.000,0.000,0.000,0,%.3f,%.0f,%.2f\n",
                                       kinds[i] == bound ? "no-averaging" : "lockstep", n, batch, 1e3 * step,
                                       rate, one_process / step)
                     : lessons::format("  %-46s %38.3f %9.0f %7.2fx\n",
                                       kinds[i] == bound ? "no averaging (the bound: compute and SGD only)"
                                                         : "  the same in lockstep (a barrier every step)",
                                       1e3 * step, rate, one_process / step));
      continue;
    }
    // What the model predicts: per allreduce, 2(n-1) x segments messages of α + β·bytes.
    const Strategy s = strategy_of(kinds[i]);
    std::vector<std::size_t> counts;
    if (s == Strategy::after) counts.push_back(st.mlp.parameter_count());
    else
      for (const auto& b : schedulers[i].buckets()) counts.push_back(b.count);
    double messages = 0, alpha_us = 0, model_us = 0;
    for (std::size_t c : counts) {
      const Messages m = ring_messages(c, n);
      messages += m.count;
      alpha_us += m.count * model.alpha_us;
      model_us += m.count * model.predict_us(m.bytes_each);
    }
    const double busy = t.busy / opt.iters, exposed = t.exposed / opt.iters;
    // The share of the communication that ran behind a backward pass: measured by the shared
    // averaging itself (work done while another rank computed), else what was not waited for.
    const double hidden = busy <= 0     ? 0
                          : t.hidden >= 0 ? t.hidden / opt.iters / busy
                                          : std::max(0.0, 1 - exposed / busy);
    // The same numbers in both formats; CSV adds the ranks and the batch after the name.
    print_once(comm,
               (csv ? lessons::format("%s,%d,%d,", strategy_name(s), n, batch)
                    : lessons::format("  %-10s ", strategy_name(s))) +
                   lessons::format(csv ? "%zu,%.0f,%.3f,%.3f,%.3f,%.3f,%.0f,%.3f,%.0f,%.2f\n"
                                       : "%6zu %9.0f %10.3f %10.3f %9.3f %8.3f %6.0f%% %8.3f %9.0f %7.2fx\n",
                                   counts.size(), messages, alpha_us / 1e3, model_us / 1e3, 1e3 * busy,
                                   1e3 * exposed, 100 * hidden, 1e3 * step, rate, one_process / step));
  }
  if (!csv) print_once(comm, "  CPU time per step, all threads of a rank: " + cpu_line + "\n");
  return 0;
}

}  // namespace lesson08
