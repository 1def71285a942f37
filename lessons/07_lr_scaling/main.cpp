// Lesson 07 — learning-rate scaling: more workers, bigger global batch, which learning rate?
//   ./ringlab run 07 -np 4 -- --lr-scaling linear --warmup-epochs 1
//   scripts/lr-scaling-study.sh        np 1, 2, 4 x none|linear|sqrt -> one CSV + summary table
//   ./ringlab run 07 -np 2 -- --device cuda   each worker's model on its GPU (lesson 06's replica.hpp)
//
// --batch is the global batch, as in every lesson; the study (scripts/lr-scaling-study.sh) keeps
// each worker's part fixed (64), so with n workers the global batch is n times larger and an
// epoch has n times fewer steps. The schedule (lr_schedule.hpp, solutions/07_lr_scaling)
// says what rate each step uses; the step itself is lesson 06's distributed optimizer.
#include <cstdio>
#include <string>
#include <vector>

#include "check.hpp"
#include "distributed_optimizer.hpp"
#include "lr_schedule.hpp"
#include "ringlab/ml/fashion_mnist.hpp"
#include "ringlab/ml/mlp.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/replica.hpp"
#include "shared/training.hpp"
#include "shared/training_flags.hpp"

using namespace ringlab;

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{
      "Lesson 07 — learning-rate scaling (none, linear, sqrt) with linear warm-up, data-parallel MLP"};
  CommonOptions opt;
  add_common_options(app, opt);
  lessons::TrainingFlags flags;  // --data --epochs --batch --lr --momentum --seed (training_flags.hpp)
  flags.lr = 0.02f;
  lessons::add_training_flags(app, flags);
  const auto& [data, epochs, batch, lr, momentum, seed] = flags;  // (names for its members)
  std::string scaling_name = "linear", csv;
  int warmup_epochs = 1;
  double target = 0.85;
  app.add_option("--lr-scaling", scaling_name, "How the rate grows with the workers: none, linear, sqrt")
      ->capture_default_str();
  add_number(app, "--warmup-epochs", warmup_epochs, "Epochs of linear warm-up from --lr to the scaled rate",
             0, 100000);
  add_number(app, "--target", target, "Report the first epoch whose test accuracy reaches this", 0, 1);
  app.add_option("--csv", csv, "Append rows (np,scaling,epoch,step,rank,loss,accuracy,lr) to FILE (rank 0)");
  opt.runs_on_gpu = true;  // --device cuda (or auto on a GPU node): the model and its gradients on the GPU
  opt.runs_on_sim = true;  // --device sim: the same on the simulated GPU (sim_device.hpp)
  if (auto exit_code = rt.start(app, opt, argc, argv, /*buffers=*/0)) return *exit_code;
  if (auto e = rt.refuse_unused(app, {"--count", "--type", "--bench", "--iters", "--warmup"},
                                "it trains a float MLP; for throughput use lesson 06 --bench"))
    return *e;
  // --format csv promises CSV only; this lesson's output is a table with its explanation.
  if (auto e = rt.refuse_unused(app, {"--format"}, "its output is a table with its explanation, not CSV")) return *e;
  auto& comm = rt.comm();
  const int n = comm.size(), rank = comm.rank();
  // --check, part 1: the schedule itself, before any training (check.hpp).
  if (opt.check && !comm.all_ok(lesson07::check_schedule(rank == 0))) return 1;

  const auto scaling = lesson07::parse_scaling(scaling_name);
  if (auto e = rt.fail_if(!scaling, "--lr-scaling " + scaling_name + ": must be none, linear or sqrt"))
    return *e;
  if (auto e = lessons::refuse_bad_training_flags(rt, flags, n)) return *e;
  std::FILE* out = nullptr;
  if (rank == 0 && !csv.empty()) out = std::fopen(csv.c_str(), "a");
  if (auto e = rt.fail_if(rank == 0 && !csv.empty() && !out, "--csv " + csv + ": cannot open for appending"))
    return *e;
  if (out && std::ftell(out) == 0) std::fprintf(out, "np,scaling,epoch,step,rank,loss,accuracy,lr\n");

  TrainTest sets;
  if (auto e = lessons::load_training_data(rt, flags, &sets)) return *e;
  const Dataset& train = sets.train;
  const int global_batch = batch, worker_batch = batch / n;

  Mlp mlp({train.features, 256, 128, train.classes});
  lessons::TrainingState state;  // the host copy of parameters and momentum
  state.params = mlp.initial_parameters(seed);
  state.velocity.assign(mlp.parameter_count(), 0.0f);
  // On the host, or on this rank's GPU with the data uploaded once (lesson 06's replica.hpp).
  lessons::Replica replica(comm.where(), train, sets.test, state);
  lesson06::broadcast<float>(comm, replica.params());  // every replica starts from rank 0's

  const int steps_per_epoch = train.count / global_batch;
  const long long warmup_steps = static_cast<long long>(warmup_epochs) * steps_per_epoch;
  print_once(comm,
             lessons::format("lesson 07: %s x batch %d = global batch %d, %d steps per epoch; lr %g, "
                             "scaling %s -> %g, warm-up %s\n",
                             plural(n, "rank").c_str(), worker_batch, global_batch, steps_per_epoch, lr,
                             scaling_name.c_str(), lesson07::scaled_lr(lr, n, *scaling),
                             plural(warmup_epochs, "epoch").c_str()));

  long long step = 0;
  int reached = -1;
  double accuracy = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    const auto order = lessons::epoch_order(train.count, seed, epoch);
    replica.begin_epoch(order);
    std::string rows;  // this rank's CSV rows for the epoch, sent to rank 0 at its end
    double loss_sum = 0, rate = lr;
    const double t0 = lessons::seconds_now();
    for (int s = 0; s < steps_per_epoch; ++s, ++step) {
      rate = lesson07::learning_rate(lr, n, *scaling, step, warmup_steps);
      replica.compute_gradient(s * global_batch + rank * worker_batch, worker_batch);
      lesson06::distributed_optimizer_step(comm, replica.params(), replica.grad(), replica.velocity(),
                                           static_cast<float>(rate), momentum);
      trace::metric("lr", rate, static_cast<int>(step));
      if (csv.empty() && !trace::enabled()) continue;
      // Each step's loss is wanted (on a GPU: one copy down per step, only for --csv or --trace).
      const auto loss = static_cast<float>(replica.take_loss_sum());
      loss_sum += loss;
      trace::metric("loss", loss, static_cast<int>(step));
      if (!csv.empty())
        rows += lessons::format("%d,%s,%d,%lld,%d,%.6f,,%.6g\n", n, scaling_name.c_str(), epoch + 1, step,
                                rank, loss, rate);
    }
    loss_sum += replica.take_loss_sum();  // (on a GPU: the one copy down of the epoch's losses)
    const double seconds = comm.max(lessons::seconds_now() - t0);
    accuracy = replica.global_accuracy(comm);
    const double mean_loss = comm.sum(loss_sum / steps_per_epoch) / n;
    if (reached < 0 && accuracy >= target) reached = epoch + 1;
    const auto all_rows = comm.gather_strings(rows);
    if (out) {
      for (const auto& r : all_rows) std::fputs(r.c_str(), out);
      std::fprintf(out, "%d,%s,%d,%lld,all,%.6f,%.4f,%.6g\n", n, scaling_name.c_str(), epoch + 1, step - 1,
                   mean_loss, accuracy, rate);
      std::fflush(out);
    }
    print_once(comm, lessons::format("epoch %d/%d  lr %.4g  mean loss %.4f  test acc %.4f  %.0f samples/s\n",
                                     epoch + 1, epochs, rate, mean_loss, accuracy,
                                     double(steps_per_epoch) * global_batch / seconds));
  }
  if (out) std::fclose(out);
  bool identical = true;
  if (opt.check) {           // the replicas must still be bit-identical, whatever the rate did
    replica.sync_to_host();  // (from the GPU: hashed on the host)
    identical = lessons::replicas_identical(comm, state.params, state.velocity);
    print_once(comm,
               identical ? "check: replicas bit-identical: PASSED\n" : "check: replicas DIFFER: FAILED\n");
  }
  print_once(comm, lessons::format("np %d  scaling %s  final test acc %.4f  epochs to %.2f: %s\n", n,
                                   scaling_name.c_str(), accuracy, target,
                                   reached > 0 ? std::to_string(reached).c_str() : "not reached"));
  return identical ? 0 : 1;
}
