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
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "checkpoint.hpp"
#include "distributed_optimizer.hpp"
#include "replica.hpp"
#include "ringlab/ml/fashion_mnist.hpp"
#include "ringlab/ml/mlp.hpp"
#include "ringlab/ringlab.hpp"
#include "training.hpp"

using namespace ringlab;

namespace {

using lesson06::sci;
using lesson06::seconds_now;

// The weights' change after a step may differ from the one-process step by the rounding of the
// averaged gradient (~1e-6) and of float weights (~1e-4 of a small step): 1e-3 leaves room for
// both and catches a step skipped, doubled or scaled wrong.
constexpr double kStepTolerance = 1e-3;

std::string hex64(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

// --check, part 2: the step itself, against one process taking the same step from the same
// state with the whole batch's gradient. Written here in double, independently of the lesson's
// sgd_momentum_update: velocity' = momentum * velocity + g;  params' = params - lr * velocity'.
// Returns the largest difference of the weights' change (and of the new velocity) relative to
// the largest element of the reference's: a skipped, doubled or mis-scaled step is far off.
struct StepReference {
  std::vector<float> params, velocity;  // the state before the step
  std::vector<double> params_after, velocity_after;
};
StepReference reference_step(const lesson06::TrainingState& before, const std::vector<float>& whole_grad,
                             float lr, float momentum) {
  StepReference r{before.params, before.velocity, {}, {}};
  r.params_after.resize(r.params.size());
  r.velocity_after.resize(r.params.size());
  for (std::size_t i = 0; i < r.params.size(); ++i) {
    r.velocity_after[i] = double(momentum) * r.velocity[i] + whole_grad[i];
    r.params_after[i] = r.params[i] - double(lr) * r.velocity_after[i];
  }
  return r;
}
double relative_error(const std::vector<double>& reference, const std::vector<double>& actual) {
  double max_diff = 0, max_abs = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    const double d = std::fabs(actual[i] - reference[i]);
    max_diff = std::isnan(d) ? INFINITY : std::max(max_diff, d);
    max_abs = std::max(max_abs, std::fabs(reference[i]));
  }
  return max_abs > 0 ? max_diff / max_abs : max_diff;
}
// The weights' change (after - before), reference's and ours, so that a small step on large
// weights is compared at its own scale.
double step_error(const StepReference& ref, const lesson06::TrainingState& after, double* velocity_error) {
  std::vector<double> want(ref.params.size()), got(ref.params.size()), v(ref.params.size());
  for (std::size_t i = 0; i < ref.params.size(); ++i) {
    want[i] = ref.params_after[i] - ref.params[i];
    got[i] = double(after.params[i]) - ref.params[i];
    v[i] = after.velocity[i];
  }
  *velocity_error = relative_error(ref.velocity_after, v);
  return relative_error(want, got);
}

}  // namespace

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{"Lesson 06 — data-parallel training of an MLP on Fashion-MNIST with the ring allreduce"};
  CommonOptions opt;
  add_common_options(app, opt);
  std::string data = kFashionMnistDir, checkpoint, resume;
  int epochs = 10, batch = 128, stop_after = -1;
  float lr = 0.03f, momentum = 0.9f;
  std::uint64_t seed = 1;
  app.add_option("--data", data, "Folder with the Fashion-MNIST .gz files, or 'synthetic' (small, for tests)")
      ->capture_default_str();
  // Bounded one by one so that no product of them (steps = examples / batch, ...) can overflow.
  app.add_option("--epochs", epochs, "Passes over the training set")
      ->capture_default_str()
      ->transform(whole_number_in(1, 100000));
  app.add_option("--batch", batch, "GLOBAL batch size, split evenly across the ranks")
      ->capture_default_str()
      ->transform(whole_number_in(1, 1 << 24));
  app.add_option("--lr", lr, "Learning rate")->capture_default_str()->transform(finite_number_in(0, 100));
  app.add_option("--momentum", momentum, "SGD momentum")
      ->capture_default_str()
      ->transform(finite_number_in(0, 1));
  app.add_option("--seed", seed, "Seed of rank 0's initial weights and of the data order")
      ->capture_default_str()
      ->transform(whole_number_at_least(0));
  app.add_option("--checkpoint", checkpoint,
                 "Save model + optimizer state to FILE after every epoch (rank 0)");
  app.add_option("--resume", resume, "Start from the state in FILE (read on rank 0, broadcast to all)");
  app.add_option("--stop-after", stop_after,
                 "Stop after this epoch, as if the job were killed (to test --resume)")
      ->transform(whole_number_in(1, 100000));
  opt.runs_on_gpu = true;  // --device cuda (or auto on a GPU node): the model and its gradients on the GPU
  if (auto exit_code = rt.start(app, opt, argc, argv, /*buffers=*/0)) return *exit_code;
  if (auto e = rt.refuse_unused(app, {"--count", "--type"}, "it trains a float MLP of fixed size")) return *e;
  // --format csv promises CSV only; this lesson's output is a table with its explanation.
  if (auto e = rt.refuse_unused(app, {"--format"}, "its output is a table with its explanation, not CSV")) return *e;
  auto& comm = rt.comm();
  const int n = comm.size(), rank = comm.rank();

  // Bad input: every rank checks the same thing and all exit 2 together.
  if (auto e = rt.fail_if(batch % n != 0, "--batch " + std::to_string(batch) + " is not divisible by -np " +
                                              std::to_string(n) + ": every rank takes an equal part of it"))
    return *e;
  if (auto e = rt.fail_if(!(lr > 0) || !(momentum >= 0 && momentum < 1),
                          "--lr must be > 0 and --momentum in [0, 1), got " + std::to_string(lr) + " and " +
                              std::to_string(momentum)))
    return *e;
  std::string error;
  if (auto e = rt.fail_if(
          rank == 0 && !checkpoint.empty() && !lesson06::checkpoint_writable(checkpoint, &error), error))
    return *e;

  auto sets = load_data(data, &error);
  if (auto e = rt.fail_if(!sets, error)) return *e;
  const Dataset& train = sets->train;
  if (auto e = rt.fail_if(batch > train.count, "--batch " + std::to_string(batch) + ": larger than the " +
                                                   std::to_string(train.count) + " training examples"))
    return *e;

  // The model. Every rank builds its own replica, each from a DIFFERENT seed on purpose: the
  // broadcast below is what makes them equal (lesson 03 shows the drift without it).
  Mlp mlp({train.features, 256, 128, train.classes});
  lesson06::TrainingState state;
  state.params = mlp.initial_parameters(seed + 7919ull * static_cast<std::uint64_t>(rank));
  state.velocity.assign(mlp.parameter_count(), 0.0f);
  if (!resume.empty()) {
    bool ok = true;
    if (rank == 0) {
      auto loaded = lesson06::load_checkpoint(resume, mlp.parameter_count(), &error);
      ok = loaded.has_value();
      if (ok) state = std::move(*loaded);
    }
    if (auto e = rt.fail_if(!ok, error)) return *e;
  }
  // The replica: on the host, or on this rank's GPU with the data uploaded once (replica.hpp).
  lesson06::Replica replica(comm.where(), train, sets->test, state);
  std::int64_t position[2] = {state.epoch, state.step};
  lesson06::broadcast<float>(comm, replica.params());
  lesson06::broadcast<float>(comm, replica.velocity());
  lesson06::broadcast<std::int64_t>(comm, View<std::int64_t>(position, 2));
  state.epoch = position[0];
  state.step = position[1];

  const int steps_per_epoch = train.count / batch;  // the last, partial batch is dropped
  const auto part = lesson06::my_part(batch, rank, n);
  print_once(comm, "lesson 06: " + std::to_string(n) + " ranks, MLP 784-256-128-10 (" +
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

  std::vector<float> whole_grad(mlp.parameter_count());
  double loss_sum = 0;  // this epoch's, from replica.take_loss_sum()
  double worst_gradient_error = 0, worst_step_error = 0;
  std::string first_cause;  // (only rank 0 looks at the values; it alone prints)
  bool explained = false;   // what the first wrong step's numbers say is wrong (check.hpp's diagnosis)
  StepReference reference;
  bool identical = true;
  double sync_seconds = 0;  // time in the distributed step: allreduce, waiting for the others, update

  // One optimizer step: my part of the global batch `s` of this epoch's order (replica.begin_epoch),
  // my gradient, then the distributed step. With `check_gradient`, also the one-process gradient
  // of the whole global batch (into whole_grad) while the parameters are still those of this step.
  auto train_step = [&](int s, bool check_gradient) {
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
    if (check_gradient) {
      replica.whole_gradient(s * batch, batch, whole_grad);
      replica.sync_to_host();
      reference = reference_step(state, whole_grad, lr, momentum);
    }
    const double t = seconds_now();
    lesson06::distributed_optimizer_step(comm, replica.params(), replica.grad(), replica.velocity(), lr,
                                         momentum);
    sync_seconds += seconds_now() - t;
  };

  if (opt.bench) {  // throughput only: --warmup untimed steps, then --iters timed ones
    const auto order = lesson06::epoch_order(train.count, seed, 0);
    replica.begin_epoch(order);
    for (int i = 0; i < opt.warmup; ++i) train_step(i % steps_per_epoch, false);
    replica.take_loss_sum();  // (on a GPU: waits for the warm-up steps to finish)
    comm.barrier();
    sync_seconds = 0;
    const double t0 = seconds_now();
    for (int i = 0; i < opt.iters; ++i) train_step((opt.warmup + i) % steps_per_epoch, false);
    replica.take_loss_sum();  // the timed steps have finished
    const double seconds = comm.max(seconds_now() - t0), sync = comm.max(sync_seconds);
    char line[200];
    std::snprintf(line, sizeof line,
                  "bench: %d ranks, global batch %d, %d steps in %.2f s: %.0f samples/s, %.0f%% of it in the "
                  "distributed step\n",
                  n, batch, opt.iters, seconds, double(opt.iters) * batch / seconds, 100 * sync / seconds);
    print_once(comm, line);
    return 0;
  }

  for (long long epoch = state.epoch; epoch < epochs; ++epoch) {
    const auto order = lesson06::epoch_order(train.count, seed, epoch);
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

      if (check_gradient) {
        const std::vector<float>& grad = replica.grad_on_host();
        const double err = comm.max(lesson06::gradient_error(grad, whole_grad));
        if (err > 1e-5 && rank == 0)  // where they differ: the first elements, averaged vs one process
          log(Level::error) << "averaged gradient vs one process: "
                            << describe(
                                   compare<float>(View<const float>(whole_grad), View<const float>(grad), 1));
        worst_gradient_error = std::max(worst_gradient_error, err);
        double velocity_err = 0;
        const double step_err = comm.max(step_error(reference, state, &velocity_err));
        velocity_err = comm.max(velocity_err);
        const double worst = std::max(step_err, velocity_err);
        worst_step_error = std::max(worst_step_error, worst);
        if (rank == 0 && (err > 1e-5 || worst > kStepTolerance) && !explained) {
          // One explanation, from the first wrong quantity in the order the step computes them:
          // where the values differ (the first elements, both values), then why.
          explained = true;
          const std::vector<float> ref_after(reference.params_after.begin(), reference.params_after.end());
          if (err > 1e-5) {
            log(Level::error) << "averaged gradient vs one process: "
                              << describe(compare<float>(View<const float>(whole_grad),
                                                         View<const float>(grad), 1));
            first_cause = diagnose_values("the averaged gradient", View<const float>(whole_grad),
                                          View<const float>(grad), n);
          } else {
            log(Level::error) << "weights after step " << state.step << " vs one process taking it: "
                              << describe(compare<float>(View<const float>(ref_after),
                                                         View<const float>(state.params), 1));
            first_cause = diagnose_step(View<const float>(reference.params), View<const float>(ref_after),
                                        View<const float>(state.params), n);
          }
        }
        print_once(comm, "check: epoch " + std::to_string(epoch + 1) + " step " + std::to_string(state.step) +
                             ": averaged gradient of " + std::to_string(n) +
                             " ranks vs one process, max rel. diff " + sci(err) +
                             (err <= 1e-5 ? " ok" : " WRONG (> 1e-5)") +
                             "; weights and velocity after the step " + sci(worst) +
                             (worst <= kStepTolerance ? " ok" : " WRONG (> 1e-3)") + "\n");
      }
      if (opt.check && !lesson06::replicas_identical(comm, state.params, state.velocity)) {
        identical = false;
        print_once(comm, "check: step " + std::to_string(state.step) + ": replicas differ WRONG\n");
        if (first_cause.empty() && n > 1)
          first_cause = "the replicas differ after step " + std::to_string(state.step) +
                        ": the ranks took different steps, so each used its own gradient — average_gradients "
                        "must combine every rank's gradient (ring_allreduce_fast) before the step.";
      }
    }
    loss_sum += replica.take_loss_sum();  // (on a GPU: the one copy down of the epoch's losses)
    const double seconds = comm.max(seconds_now() - t0), sync = comm.max(sync_seconds);
    state.epoch = epoch + 1;

    // Each worker's mean loss over the epoch, the test accuracy, the throughput.
    const std::string line =
        lesson06::epoch_losses_line(comm, epoch + 1, epochs, loss_sum / std::max(steps_per_epoch, 1));
    const double accuracy = replica.global_accuracy(comm);
    char tail[128];
    std::snprintf(tail, sizeof tail,
                  "  test acc %.4f  %.0f samples/s  (%.1f s, %.0f%% in the distributed step)\n", accuracy,
                  double(steps_per_epoch) * batch / seconds, seconds, 100 * sync / seconds);
    print_once(comm, line + tail);

    if (!checkpoint.empty()) {
      replica.sync_to_host();  // the GPU's state, copied down to be saved
      const bool ok = rank != 0 || lesson06::save_checkpoint(checkpoint, state, &error);
      if (auto e = rt.fail_if(!ok, error)) return *e;
    }
    if (stop_after >= 0 && state.epoch >= stop_after) {
      print_once(comm, "stopping after epoch " + std::to_string(state.epoch) + " (--stop-after)\n");
      break;
    }
  }

  replica.sync_to_host();
  const std::uint64_t h = hash_floats(state.velocity.data(), state.velocity.size(),
                                      hash_floats(state.params.data(), state.params.size()));
  print_once(comm, "weights hash " + hex64(h) + " after " + std::to_string(state.step) + " steps\n");
  if (opt.check) {
    const bool ok = identical && worst_gradient_error <= 1e-5 && worst_step_error <= kStepTolerance;
    if (!first_cause.empty()) print_once(comm, "diagnosis: " + first_cause + "\n");
    print_once(comm, std::string("check: ") +
                         (identical ? "replicas bit-identical after every step" : "replicas DIFFER") +
                         ", worst gradient difference " + sci(worst_gradient_error) +
                         ", worst step difference " + sci(worst_step_error) +
                         (ok ? ": PASSED\n" : ": FAILED\n"));
    return ok ? 0 : 1;
  }
  return 0;
}
