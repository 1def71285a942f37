// Lesson 06 — data-parallel training: an MLP learns Fashion-MNIST on every rank at once.
//   ./ringlab run 06 -np 2                          10 epochs on the real data set
//   ./ringlab run 06 -np 4 -- --check --data synthetic --epochs 2
//                                                   averaged gradient == one-process gradient,
//                                                   replicas bit-identical after every step
//   ./ringlab run 06 -np 2 -- --checkpoint run.ckpt   (later: --resume run.ckpt)
//   ./ringlab run 06 -np 2 -- --device cuda          each worker's model on its GPU (replica.hpp)
//
// The distribution is in distributed_optimizer.hpp (solutions/06_data_parallel): broadcast the
// initial state from rank 0, cut each global batch into per-rank parts, average the gradients
// with the ring allreduce, step. This file is the training loop around it.
#include <string>
#include <vector>

#include "bench.hpp"
#include "check.hpp"
#include "distributed_optimizer.hpp"
#include "ringlab/ml/mlp.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/checkpoint.hpp"
#include "shared/replica.hpp"
#include "shared/training.hpp"
#include "shared/training_flags.hpp"

using namespace ringlab;
using lessons::seconds_now;

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{"Lesson 06 — data-parallel training of an MLP on Fashion-MNIST with the ring allreduce"};
  CommonOptions opt;
  add_common_options(app, opt);
  lessons::TrainingFlags flags;  // --data --epochs --batch --lr --momentum --seed (training_flags.hpp)
  lessons::add_training_flags(app, flags);
  const auto& [data, epochs, batch, lr, momentum, seed] = flags;  // (names for its members)
  std::string checkpoint, resume;
  int stop_after = -1;
  app.add_option("--checkpoint", checkpoint,
                 "Save model + optimizer state to FILE after every epoch (rank 0)");
  app.add_option("--resume", resume, "Start from the state in FILE (read on rank 0, broadcast to all)");
  app.add_option("--stop-after", stop_after,
                 "Stop after this epoch, as if the job were killed (to test --resume)")
      ->transform(whole_number_in(1, 100000));
  opt.runs_on_gpu = true;  // --device cuda (or auto on a GPU node): the model and its gradients on the GPU
  opt.runs_on_sim = true;  // --device sim: the same on the simulated GPU (sim_device.hpp)
  if (auto exit_code = rt.start(app, opt, argc, argv, /*buffers=*/0)) return *exit_code;
  if (auto e = rt.refuse_unused(app, {"--count", "--type"}, "it trains a float MLP of fixed size")) return *e;
  // --format csv promises CSV only; this lesson's output is a table with its explanation.
  if (auto e = rt.refuse_unused(app, {"--format"}, "its output is a table with its explanation, not CSV")) return *e;
  auto& comm = rt.comm();
  const int n = comm.size(), rank = comm.rank();

  // Bad input: every rank checks the same thing and all exit 2 together.
  if (auto e = lessons::refuse_bad_training_flags(rt, flags, n)) return *e;
  std::string error;
  if (auto e = rt.fail_if(
          rank == 0 && !checkpoint.empty() && !lessons::checkpoint_writable(checkpoint, &error), error))
    return *e;

  TrainTest sets;
  if (auto e = lessons::load_training_data(rt, flags, &sets)) return *e;
  const Dataset& train = sets.train;

  // The model. Every rank builds its own replica, each from a DIFFERENT seed on purpose: the
  // broadcast below is what makes them equal (lesson 03 shows the drift without it).
  Mlp mlp({train.features, 256, 128, train.classes});
  lessons::TrainingState state;
  state.params = mlp.initial_parameters(seed + 7919ull * static_cast<std::uint64_t>(rank));
  state.velocity.assign(mlp.parameter_count(), 0.0f);
  if (!resume.empty()) {
    bool ok = true;
    if (rank == 0) {
      auto loaded = lessons::load_checkpoint(resume, mlp.parameter_count(), &error);
      ok = loaded.has_value();
      if (ok) state = std::move(*loaded);
    }
    if (auto e = rt.fail_if(!ok, error)) return *e;
  }
  // The replica: on the host, or on this rank's GPU with the data uploaded once (replica.hpp).
  lessons::Replica replica(comm.where(), train, sets.test, state);
  std::int64_t position[2] = {state.epoch, state.step};
  lesson06::broadcast<float>(comm, replica.params());
  lesson06::broadcast<float>(comm, replica.velocity());
  lesson06::broadcast<std::int64_t>(comm, View<std::int64_t>(position, 2));
  state.epoch = position[0];
  state.step = position[1];

  const int steps_per_epoch = train.count / batch;  // the last, partial batch is dropped
  const auto part = lesson06::my_part(batch, rank, n);
  print_once(comm, "lesson 06: " + plural(n, "rank") + ", MLP 784-256-128-10 (" +
                       std::to_string(mlp.parameter_count()) + " parameters), global batch " +
                       std::to_string(batch) + " = " + std::to_string(n) + " x " +
                       std::to_string(part.count) + ", " + std::to_string(steps_per_epoch) +
                       " steps per epoch, lr " + std::to_string(lr) + ", data " + data +
                       (resume.empty() ? "" : ", resumed at epoch " + std::to_string(state.epoch)) +
                       (comm.where() == Where::device
                            ? std::string(", on GPUs (rank 0: GPU ") + std::to_string(comm.gpu()) +
                                  ", transport " + transport_name(comm.transport()) + ")"
                            : "") +
                       "\n");

  double loss_sum = 0;      // this epoch's, from replica.take_loss_sum()
  double sync_seconds = 0;  // time in the distributed step: allreduce, waiting for the others, update
  lesson06::StepCheck check(comm);

  // One optimizer step: my part of the global batch `s` of this epoch's order (replica.begin_epoch),
  // my gradient, then the distributed step. With `checked`, the check first takes the
  // one-process step while the parameters are still those of this step (check.hpp).
  auto train_step = [&](int s, bool checked) {
    {
      trace::Compute tc("forward-backward", static_cast<int>(state.step));
      replica.compute_gradient(s * batch + part.offset, part.count);
    }
    if (trace::enabled()) {  // each step's loss (on a GPU: one copy down per step, only when tracing)
      const double loss = replica.take_loss_sum();
      loss_sum += loss;
      trace::metric("loss", static_cast<float>(loss), static_cast<int>(state.step));
    }
    trace::metric("lr", lr, static_cast<int>(state.step));
    if (checked) check.before_step(replica, state, s * batch, batch, lr, momentum);
    const double t = seconds_now();
    lesson06::distributed_optimizer_step(comm, replica.params(), replica.grad(), replica.velocity(), lr,
                                         momentum);
    sync_seconds += seconds_now() - t;
  };

  if (opt.bench) {  // throughput only (bench.hpp)
    const auto order = lessons::epoch_order(train.count, seed, 0);
    replica.begin_epoch(order);
    return lesson06::run_bench(comm, opt, replica, steps_per_epoch, batch, [&](int s) { train_step(s, false); },
                               sync_seconds);
  }

  for (long long epoch = state.epoch; epoch < epochs; ++epoch) {
    const auto order = lessons::epoch_order(train.count, seed, epoch);
    replica.begin_epoch(order);
    loss_sum = 0;
    comm.barrier();
    sync_seconds = 0;
    const double t0 = seconds_now();
    for (int s = 0; s < steps_per_epoch; ++s, ++state.step) {
      // Checked: the first steps of every epoch (momentum still small, then building up) and
      // the last one (after many steps).
      const bool check_gradient = opt.check && (s < 3 || s == steps_per_epoch - 1);
      train_step(s, check_gradient);
      if (opt.check) replica.sync_to_host();  // the state after the step, on the host for the checks

      if (check_gradient) check.after_step(replica, state, epoch);
      if (opt.check) check.replicas(state);
    }
    loss_sum += replica.take_loss_sum();  // (on a GPU: the one copy down of the epoch's losses)
    const double seconds = comm.max(seconds_now() - t0), sync = comm.max(sync_seconds);
    state.epoch = epoch + 1;

    // Each worker's mean loss over the epoch, the test accuracy, the throughput.
    const std::string line =
        lessons::epoch_losses_line(comm, epoch + 1, epochs, loss_sum / std::max(steps_per_epoch, 1));
    const double accuracy = replica.global_accuracy(comm);
    print_once(comm,
               line + lessons::format("  test acc %.4f  %.0f samples/s  (%.1f s, %.0f%% in the distributed "
                                      "step)\n",
                                      accuracy, double(steps_per_epoch) * batch / seconds, seconds,
                                      100 * sync / seconds));

    if (!checkpoint.empty()) {
      replica.sync_to_host();  // the GPU's state, copied down to be saved
      const bool ok = rank != 0 || lessons::save_checkpoint(checkpoint, state, &error);
      if (auto e = rt.fail_if(!ok, error)) return *e;
    }
    if (stop_after >= 0 && state.epoch >= stop_after) {
      print_once(comm, "stopping after epoch " + std::to_string(state.epoch) + " (--stop-after)\n");
      break;
    }
  }

  replica.sync_to_host();
  print_once(comm, "weights hash " + lessons::state_hash(state.params, state.velocity) + " after " +
                       std::to_string(state.step) + " steps\n");
  if (opt.check) return check.finish();
  return 0;
}
