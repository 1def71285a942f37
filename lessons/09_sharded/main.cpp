// Lesson 09 — sharded data parallelism: ZeRO stages 0 to 3 (FSDP), built from the ring's halves.
//   ./ringlab run 09 -np 2 -- --stage 3                  train with FSDP, 10 epochs, real data
//   ./ringlab run 09 -np 4 -- --check --data synthetic   every stage holds stage 0's model
//   ./ringlab run 09 -np 4 -- --bench                    stages 0-3: memory, bytes, time
//   ./ringlab run 09 -np 4 -- --bench --layers 1024,1024 a wider model
//
// Lesson 06 keeps the whole training state on every rank. Here each rank keeps a shard of it:
// the momentum (stage 1), the gradient too (stage 2), the parameters too (stage 3). The stages
// are in sharded_optimizer.hpp (solutions/09_sharded); the two collectives they use,
// reduce_scatter and allgather, are the ring allreduce's two halves
// (core/include/ringlab/comm/collectives.hpp). This file is the training loop around them,
// and it prints what each rank holds, measured, beside ZeRO's formula.
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench.hpp"
#include "check.hpp"
#include "ringlab/ml/mlp.hpp"
#include "ringlab/ml/mlp_device.hpp"
#include "ringlab/ringlab.hpp"
#include "sharded_optimizer.hpp"
#include "shared/training.hpp"
#include "shared/training_flags.hpp"

using namespace ringlab;
using lessons::seconds_now;

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{
      "Lesson 09 — sharded data parallelism: ZeRO stages 0-3 (FSDP) with reduce-scatter and allgather"};
  CommonOptions opt;
  opt.iters = 20;
  opt.warmup = 3;
  add_common_options(app, opt);
  lessons::TrainingFlags flags;  // --data --epochs --batch --lr --momentum --seed (training_flags.hpp)
  lessons::add_training_flags(app, flags);
  const auto& [data, epochs, batch, lr, momentum, seed] = flags;  // (names for its members)
  int stage = 3;
  std::string layers = "256,128";
  app.add_option("--stage", stage,
                 "ZeRO stage: 0 = lesson 06 (allreduce), 1 = momentum sharded, 2 = gradients too, "
                 "3 = parameters too (FSDP). --check and --bench without it: every stage")
      ->capture_default_str()
      ->transform(whole_number_in(0, 3));
  app.add_option("--layers", layers, "Hidden layer sizes, comma-separated (input 784 and 10 classes added)")
      ->capture_default_str();
  opt.runs_on_gpu = true;  // --device cuda: the model, its shards and the collectives on the GPU
  if (auto exit_code = rt.start(app, opt, argc, argv, /*buffers=*/0)) return *exit_code;
  if (auto e = rt.refuse_unused(app, {"--count", "--type"}, "it trains a float MLP of --layers")) return *e;
  auto& comm = rt.comm();
  const int n = comm.size(), rank = comm.rank();

  // Bad input: every rank checks the same thing and all exit 2 together.
  if (auto e = rt.fail_if(opt.format == Format::csv && !opt.bench, "--format csv: only --bench prints CSV"))
    return *e;
  if (auto e = rt.fail_if(opt.check && opt.bench, "--check and --bench: give one of them")) return *e;
  const std::vector<int> hidden = lessons::parse_layers(layers);
  if (auto e = rt.fail_if(hidden.empty(), "--layers " + layers +
                                              ": give hidden layer sizes as whole numbers 1..65536 "
                                              "separated by commas, e.g. 256,128"))
    return *e;
  if (auto e = lessons::refuse_bad_training_flags(rt, flags, n)) return *e;
  TrainTest sets;
  if (auto e = lessons::load_training_data(rt, flags, &sets)) return *e;
  const Dataset& train = sets.train;
  const int steps_per_epoch = train.count / batch;  // the last, partial batch is dropped
  if (auto e = rt.fail_if(opt.check && steps_per_epoch < lesson09::kSteps,
                          "--check takes " + std::to_string(lesson09::kSteps) + " steps: --batch " +
                              std::to_string(batch) + " leaves only " + std::to_string(steps_per_epoch)))
    return *e;

  // The model, on the host or this rank's GPU. Every rank draws the SAME initial weights from
  // --seed: lesson 06 broadcast rank 0's, but a sharded model is never whole on one rank, so
  // each rank draws it and keeps its own shard (FSDP initialises each shard where it lives).
  std::vector<int> sizes{train.features};
  sizes.insert(sizes.end(), hidden.begin(), hidden.end());
  sizes.push_back(train.classes);
  std::unique_ptr<LayerwiseModel> model;
  if (comm.where() == Where::device) model = std::make_unique<DeviceMlp>(sizes);
  else model = std::make_unique<Mlp>(sizes);
  const std::vector<float> initial = Mlp(sizes).initial_parameters(seed);
  const int train_set = model->upload_examples(train.images.data(), train.labels.data(), train.count);
  const int test_set =
      model->upload_examples(sets.test.images.data(), sets.test.labels.data(), sets.test.count);
  const std::size_t psi = model->parameter_count();
  std::vector<int> stages{stage};
  if ((opt.check || opt.bench) && app.count("--stage") == 0) stages = {0, 1, 2, 3};

  std::string shape;
  for (int s : sizes) shape += (shape.empty() ? "" : "-") + std::to_string(s);
  if (opt.format != Format::csv)
    print_once(comm,
               lessons::format("lesson 09: %d ranks, MLP %s (Ψ = %zu parameters), global batch %d = %d x %d, "
                               "data %s%s\n",
                               n, shape.c_str(), psi, batch, n, batch / n, data.c_str(),
                               comm.where() == Where::device ? ", on GPUs" : ""));
  model->set_order(train_set, lessons::epoch_order(train.count, seed, 0));
  if (opt.check)  // every stage against stage 0 (check.hpp)
    return lesson09::run_check(comm, *model, stages, initial, train_set, batch, lr, momentum);
  if (opt.bench)  // the stages side by side (bench.hpp)
    return lesson09::run_bench(comm, opt, *model, stages, initial, train_set, batch, steps_per_epoch, lr,
                               momentum);

  // Training at one stage. First what this rank holds: the buffers the stage allocated.
  lesson09::ShardedState state(comm, *model, stage, initial);
  const lesson09::Held held = state.held();
  print_in_rank_order(
      comm, lessons::format("rank %d, stage %d holds: params %zu B, grads %zu B, optimizer %zu B = "
                            "%zu B (%s = %.0f B), working buffers %zu B\n",
                            rank, stage, held.params, held.grads, held.optimizer, held.model_state(),
                            lesson09::formula_name(stage), lesson09::formula_bytes(stage, double(psi), n),
                            held.working));

  // Scoring the test set needs the whole model: stage 3 gathers it for that, once per epoch,
  // into a buffer freed right after (evaluation, not training state).
  auto accuracy = [&] {
    if (stage < 3)
      return lessons::global_accuracy(comm, *model, state.params().data(), test_set, sets.test.count);
    Buffer<float> whole(psi, comm.where());
    state.gather(lesson09::ShardedState::What::params, whole.view());
    return lessons::global_accuracy(comm, *model, whole.view().data(), test_set, sets.test.count);
  };

  const int part = batch / n;  // my examples of each global batch: [rank * part, (rank + 1) * part)
  for (int epoch = 0; epoch < epochs; ++epoch) {
    model->set_order(train_set, lessons::epoch_order(train.count, seed, epoch));
    comm.barrier();
    const double t0 = seconds_now();
    for (int s = 0; s < steps_per_epoch; ++s)
      state.step(train_set, s * batch + rank * part, part, lr, momentum);
    const double loss = model->take_loss_sum() / std::max(steps_per_epoch, 1);
    const double seconds = comm.max(seconds_now() - t0);
    const std::string line = lessons::epoch_losses_line(comm, epoch + 1, epochs, loss);
    print_once(comm, line + lessons::format("  test acc %.4f  %.0f samples/s  (%.1f s)\n", accuracy(),
                                            double(steps_per_epoch) * batch / seconds, seconds));
  }
  return 0;
}
