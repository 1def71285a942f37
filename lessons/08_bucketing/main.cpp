// Lesson 08 — gradient bucketing and overlap: average the gradients while backward computes.
//   ./ringlab run 08 -np 2 -- --epochs 3                       train, strategy bucket (default)
//   ./ringlab run 08 -np 2 -- --strategy after                   lesson 06's way, for comparison
//   ./ringlab run 08 -np 4 -- --check --data synthetic --epochs 1
//                                   every step: averaged gradient == `after`'s, replicas identical,
//                                   buckets started the moment they are full
//   ./ringlab run 08 -np 2 -- --bench                            the three strategies side by side
//                                                                (with --strategy: only that one)
//
// Lesson 06's model and data, a deeper MLP by default (--layers), and three ways to average:
//   after      one allreduce after the whole backward pass (lesson 06)
//   per-layer  one allreduce per parameter tensor, started the moment its gradient is ready
//   bucket     tensors packed into buckets of --bucket-mb, in backward order, each bucket's
//              allreduce started the moment it is full (PyTorch DDP, Horovod's tensor fusion)
// The packing and the scheduling are in gradient_buckets.hpp (solutions/08_bucketing), one step
// in step.hpp, the --check in check.hpp, the --bench in bench.hpp. How a bucket gets averaged is
// ringlab/comm/averaging.hpp (--allreduce): lesson 05's ring over MPI on a progress
// thread (core/include/ringlab/comm/progress_thread.hpp says why a thread), or, for ranks of one
// host, in place in shared memory (core/include/ringlab/comm/shared_average.hpp).
#include <sched.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "check.hpp"
#include "distributed_optimizer.hpp"  // lesson 06: broadcast, average_gradients
#include "gradient_buckets.hpp"
#include "ringlab/comm/averaging.hpp"  // ring on a progress thread, or shared memory
#include "ringlab/ml/mlp.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/training.hpp"  // epoch order, accuracy, the epoch's line
#include "shared/training_flags.hpp"
#include "step.hpp"

using namespace ringlab;
using lesson08::Strategy;
using lesson08::strategy_name;
using lessons::seconds_now;

namespace {

// The cores one rank may use: those the launcher lets it run on (Open MPI binds each of 2 ranks
// to a core of its own), shared with the other ranks of this host when they may use them too.
int cores_per_rank(const Communicator& comm) {
  cpu_set_t set;
  CPU_ZERO(&set);
  const int allowed = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
  const int on_host = static_cast<int>(std::thread::hardware_concurrency()) / comm.local_size();
  return std::max(1, std::min(allowed, on_host));
}

}  // namespace

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{"Lesson 08 — gradient bucketing: allreduces that overlap the backward pass"};
  CommonOptions opt;
  opt.iters = 60;
  opt.warmup = 10;
  add_common_options(app, opt);
  lessons::TrainingFlags flags;  // --data --epochs --batch --lr --momentum --seed (training_flags.hpp)
  flags.epochs = 3;
  lessons::add_training_flags(app, flags);
  const auto& [data, epochs, batch, lr, momentum, seed] = flags;  // (names for its members)
  std::string layers = "512,512,256", strategy_text = "bucket", progress_text = "auto", allreduce_text = "auto";
  double bucket_mb = 0.5, split_mb = 0;
  int poll_us = 20;
  app.add_option("--layers", layers, "Hidden layer sizes, comma-separated (input 784 and 10 classes added)")
      ->capture_default_str();
  app.add_option("--strategy", strategy_text, "after | per-layer | bucket: when the gradients are averaged")
      ->capture_default_str();
  app.add_option("--bucket-mb", bucket_mb, "Bucket size in MB (1e6 bytes) for --strategy bucket")
      ->capture_default_str();
  app.add_option("--split-mb", split_mb,
                 "Compute and hand out weight gradients larger than this (MB) in blocks of rows of at most "
                 "this size, so that averaging a big W starts before all of it is computed (default: "
                 "--bucket-mb; 0: whole tensors, as PyTorch DDP)");
  app.add_option("--allreduce", allreduce_text,
                 "ring | shared | auto: how a bucket is averaged (ring: lesson 05's ring over MPI, on a "
                 "progress thread; shared: the ranks of one host average in place in shared memory; auto: "
                 "shared when every rank is on one host)")
      ->capture_default_str();
  app.add_option("--progress", progress_text,
                 "poll | handover | auto: how the progress thread shares the core with backward (poll: "
                 "it runs on its own, sleeping --poll-us between tests; handover: only between two layers, "
                 "testing for --poll-us before it gives the core back; auto: handover when a rank has "
                 "less than 2 cores)")
      ->capture_default_str();
  app.add_option("--poll-us", poll_us,
                 "While backward computes: microseconds the progress thread sleeps between two tests of a "
                 "transfer (--progress poll; 0: it spins, taking the core from the computation), or tests "
                 "before it gives the core back (handover)")
      ->capture_default_str();
  if (auto exit_code = rt.start(app, opt, argc, argv, /*buffers=*/0)) return *exit_code;
  if (auto e = rt.refuse_unused(app, {"--count", "--type"}, "it trains a float MLP of fixed size")) return *e;
  auto& comm = rt.comm();
  const int n = comm.size(), rank = comm.rank();

  // Bad input: every rank checks the same thing and all exit 2 together.
  Strategy strategy = Strategy::bucket;
  if (strategy_text == "after") strategy = Strategy::after;
  else if (strategy_text == "per-layer") strategy = Strategy::per_layer;
  if (auto e = rt.fail_if(strategy_text != strategy_name(strategy),
                          "--strategy " + strategy_text + ": must be after, per-layer or bucket"))
    return *e;
  const std::vector<int> hidden = lessons::parse_layers(layers);
  if (auto e = rt.fail_if(hidden.empty(), "--layers " + layers +
                                              ": give hidden layer sizes as whole numbers 1..65536 "
                                              "separated by commas, e.g. 512,512,256"))
    return *e;
  if (auto e = rt.fail_if(!(bucket_mb > 0 && bucket_mb <= 1e4),
                          lessons::format("--bucket-mb %g: must be > 0 (and at most 10000)", bucket_mb)))
    return *e;
  if (app.count("--split-mb") == 0) split_mb = bucket_mb;
  if (auto e = rt.fail_if(!(split_mb >= 0 && split_mb <= 1e4),
                          lessons::format("--split-mb %g: must be >= 0 (and at most 10000)", split_mb)))
    return *e;
  if (auto e = rt.fail_if(progress_text != "auto" && progress_text != "poll" && progress_text != "handover",
                          "--progress " + progress_text + ": must be poll, handover or auto"))
    return *e;
  if (auto e = rt.fail_if(allreduce_text != "auto" && allreduce_text != "ring" && allreduce_text != "shared",
                          "--allreduce " + allreduce_text + ": must be ring, shared or auto"))
    return *e;
  if (auto e = rt.fail_if(allreduce_text == "shared" && !SharedAverage::possible(comm),
                          "--allreduce shared: the ranks are not all on one host (use ring)"))
    return *e;
  if (auto e = rt.fail_if(poll_us < 0 || poll_us > 100000,
                          "--poll-us " + std::to_string(poll_us) + ": must be 0..100000 microseconds"))
    return *e;
  if (auto e = lessons::refuse_bad_training_flags(rt, flags, n)) return *e;
  TrainTest sets;
  if (auto e = lessons::load_training_data(rt, flags, &sets)) return *e;
  const Dataset& train = sets.train;

  // The model: lesson 06's MLP, deeper. Rank 0's initial weights are broadcast to all.
  std::vector<int> sizes{train.features};
  sizes.insert(sizes.end(), hidden.begin(), hidden.end());
  sizes.push_back(train.classes);
  Mlp mlp(sizes, static_cast<std::size_t>(split_mb * 1e6 / sizeof(float)));
  const auto& tensors = mlp.tensors();

  // The averaging machinery, which also holds the gradient (ringlab/comm/averaging.hpp). The
  // ring's progress thread either runs on its own and sleeps between tests, or only runs when
  // backward hands it the core between two layers (progress_thread.hpp); auto picks by cores per rank.
  const bool shared = allreduce_text == "shared" || (allreduce_text == "auto" && SharedAverage::possible(comm));
  const bool handover = progress_text == "handover" || (progress_text == "auto" && cores_per_rank(comm) < 2);
  std::unique_ptr<Averaging> averaging;
  if (shared) averaging = std::make_unique<SharedAveraging>(comm, mlp.parameter_count());
  else
    averaging = std::make_unique<RingAveraging>(
        comm, mlp.parameter_count(),
        handover ? ProgressThread::Sharing::handover : ProgressThread::Sharing::poll, poll_us,
        lesson06::average_gradients);

  // One step, the three ways (step.hpp), and, for per-layer and bucket, the scheduler.
  lesson08::Stepper stepper{comm, mlp, *averaging, train, batch, lr, momentum, bucket_mb,
                            mlp.initial_parameters(seed + 7919ull * static_cast<std::uint64_t>(rank)),
                            std::vector<float>(mlp.parameter_count(), 0.0f)};
  lesson06::broadcast<float>(comm, View<float>(stepper.params));
  auto scheduler = stepper.scheduler(strategy);
  // A slice outside the gradient cannot be averaged: said before the first step (check.hpp).
  if (const int stop = lesson08::refuse_plan_outside_gradient(stepper, strategy, scheduler)) return stop;
  const int steps_per_epoch = train.count / batch;
  std::string shape;
  for (int s : sizes) shape += (shape.empty() ? "" : "-") + std::to_string(s);
  // --format csv prints CSV only (a CSV reader breaks on a line of prose): this line is the
  // table's heading, so it goes with the table.
  if (opt.format != Format::csv)
    print_once(comm, "lesson 08: " + plural(n, "rank") + ", MLP " + shape + " (" +
                       std::to_string(mlp.parameter_count()) + " parameters, " +
                       std::to_string(tensors.size()) + " tensors), global batch " + std::to_string(batch) +
                       ", strategy " + strategy_name(strategy) +
                       (strategy == Strategy::after
                            ? std::string()
                            : ": " + std::to_string(scheduler.buckets().size()) + " allreduce(s) per step") +
                       ", allreduce " + averaging->name() +
                       (strategy == Strategy::after || shared ? ""
                        : handover                            ? ", progress handover"
                                                              : ", progress poll") +
                       ", data " + data + "\n");

  if (opt.bench)  // the strategies side by side, against the np 1 reference and the bound (bench.hpp)
    return lesson08::run_bench(comm, opt, stepper, strategy, app.count("--strategy") > 0, shared, shape, seed);

  lesson08::StepCheck check(stepper, strategy);
  const int test_set = mlp.upload_examples(sets.test.images.data(), sets.test.labels.data(), sets.test.count);
  for (int epoch = 0; epoch < epochs; ++epoch) {
    stepper.begin_epoch(lessons::epoch_order(train.count, seed, epoch));
    double loss_sum = 0;
    comm.barrier();
    stepper.exposed_seconds = 0;
    const double t0 = seconds_now();
    for (int b = 0; b < steps_per_epoch; ++b) {
      loss_sum += stepper.step(strategy, scheduler, b);
      if (opt.check) check.gradient(scheduler);
      stepper.update();
      if (opt.check) check.replicas();
    }
    const double seconds = comm.max(seconds_now() - t0), exposed = comm.max(stepper.exposed_seconds);
    const std::string line =
        lessons::epoch_losses_line(comm, epoch + 1, epochs, loss_sum / std::max(steps_per_epoch, 1));
    const double accuracy =
        lessons::global_accuracy(comm, mlp, stepper.params.data(), test_set, sets.test.count);
    print_once(comm,
               line + lessons::format("  test acc %.4f  %.0f samples/s  (%.1f s, %.0f%% waiting for the "
                                      "averaging)\n",
                                      accuracy, double(steps_per_epoch) * batch / seconds, seconds,
                                      100 * exposed / seconds));
  }
  return opt.check ? check.finish() : 0;
}
