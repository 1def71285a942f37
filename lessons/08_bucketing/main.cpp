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
// The packing and the scheduling are in gradient_buckets.hpp (solutions/08_bucketing). How a
// bucket gets averaged is averaging.hpp (--allreduce): lesson 05's ring over MPI on a progress
// thread (core/include/ringlab/comm/progress_thread.hpp says why a thread), or, for ranks of one
// host, in place in shared memory (core/include/ringlab/comm/shared_average.hpp).
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "alpha_beta.hpp"             // lesson 05: the α-β model of a message
#include "averaging.hpp"              // ring on a progress thread, or shared memory
#include "distributed_optimizer.hpp"  // lesson 06: broadcast, my_part, average_gradients, SGD
#include "gradient_buckets.hpp"
#include "ringlab/ml/fashion_mnist.hpp"
#include "ringlab/ml/mlp.hpp"
#include "ringlab/ringlab.hpp"
#include "schedule_check.hpp"
#include "training.hpp"  // lesson 06: epoch order, batches, accuracy, --check measures

using namespace ringlab;

namespace {

enum class Strategy { after, per_layer, bucket };
const char* strategy_name(Strategy s) {
  return s == Strategy::after ? "after" : s == Strategy::per_layer ? "per-layer" : "bucket";
}

using lesson06::sci;
using lesson06::seconds_now;

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// "512,512,256" -> {512, 512, 256}; empty on a malformed list.
std::vector<int> parse_layers(const std::string& text) {
  std::vector<int> sizes;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end || v < 1 || v > 1 << 16) return {};
    sizes.push_back(static_cast<int>(v));
  }
  return sizes;
}

// The kit's ring sends each chunk in segments of FastRingOptions::segment_bytes: the messages
// one rank sends for an allreduce of `count` floats on n ranks, and the bytes of each.
struct Messages {
  double count = 0, bytes_each = 0;
};
Messages ring_messages(std::size_t count, int n) {
  if (n < 2) return {};
  const std::size_t chunk = chunk_of(count, n, 0).count;
  const std::size_t seg = FastRingOptions{}.segment_bytes / sizeof(float);
  const double segments = std::max<std::size_t>(1, (chunk + seg - 1) / seg);
  return {2.0 * (n - 1) * segments, chunk * sizeof(float) / segments};
}

// CPU seconds used so far by every thread of this process (the training and progress threads,
// and MPI's own): set against the wall time, it says whether the rank's core was ever idle.
double cpu_seconds_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

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
  std::string data = kFashionMnistDir, layers = "512,512,256", strategy_text = "bucket";
  int epochs = 3, batch = 128;
  double bucket_mb = 0.5, split_mb = 0;
  int poll_us = 20;
  std::string progress_text = "auto", allreduce_text = "auto";
  float lr = 0.03f, momentum = 0.9f;
  std::uint64_t seed = 1;
  app.add_option("--data", data, "Folder with the Fashion-MNIST .gz files, or 'synthetic' (small, for tests)")
      ->capture_default_str();
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
  app.add_option("--epochs", epochs, "Passes over the training set")->capture_default_str();
  app.add_option("--batch", batch, "GLOBAL batch size, split evenly across the ranks")->capture_default_str();
  app.add_option("--lr", lr, "Learning rate")->capture_default_str();
  app.add_option("--momentum", momentum, "SGD momentum")->capture_default_str();
  app.add_option("--seed", seed, "Seed of rank 0's initial weights and of the data order")
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
  const std::vector<int> hidden = parse_layers(layers);
  if (auto e = rt.fail_if(hidden.empty(), "--layers " + layers +
                                              ": give hidden layer sizes as whole numbers 1..65536 "
                                              "separated by commas, e.g. 512,512,256"))
    return *e;
  if (auto e = rt.fail_if(!(bucket_mb > 0 && bucket_mb <= 1e4),
                          "--bucket-mb " + number_text(bucket_mb) + ": must be > 0 (and at most 10000)"))
    return *e;
  if (app.count("--split-mb") == 0) split_mb = bucket_mb;
  if (auto e = rt.fail_if(!(split_mb >= 0 && split_mb <= 1e4),
                          "--split-mb " + number_text(split_mb) + ": must be >= 0 (and at most 10000)"))
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
  if (auto e = rt.fail_if(epochs < 1, "--epochs " + std::to_string(epochs) + ": must be at least 1"))
    return *e;
  if (auto e = rt.fail_if(batch < 1, "--batch " + std::to_string(batch) + ": must be at least 1")) return *e;
  if (auto e = rt.fail_if(batch % n != 0, "--batch " + std::to_string(batch) + " is not divisible by -np " +
                                              std::to_string(n) + ": every rank takes an equal part of it"))
    return *e;
  if (auto e = rt.fail_if(!(lr > 0) || !(momentum >= 0 && momentum < 1),
                          "--lr must be > 0 and --momentum in [0, 1), got " + number_text(lr) + " and " +
                              number_text(momentum)))
    return *e;
  std::string error;
  auto sets = load_data(data, &error);
  if (auto e = rt.fail_if(!sets, error)) return *e;
  const Dataset& train = sets->train;
  if (auto e = rt.fail_if(batch > train.count, "--batch " + std::to_string(batch) + ": larger than the " +
                                                   std::to_string(train.count) + " training examples"))
    return *e;

  // The model: lesson 06's MLP, deeper. Rank 0's initial weights are broadcast to all.
  std::vector<int> sizes{train.features};
  sizes.insert(sizes.end(), hidden.begin(), hidden.end());
  sizes.push_back(train.classes);
  Mlp mlp(sizes, static_cast<std::size_t>(split_mb * 1e6 / sizeof(float)));
  const auto& tensors = mlp.tensors();
  std::vector<float> params = mlp.initial_parameters(seed + 7919ull * static_cast<std::uint64_t>(rank));
  std::vector<float> velocity(mlp.parameter_count(), 0.0f);
  lesson06::broadcast<float>(comm, View<float>(params));

  // The averaging machinery, which also holds the gradient (averaging.hpp), and, for per-layer
  // and bucket, the scheduler. The ring's progress thread either runs on its own and sleeps
  // between tests, or only runs when backward hands it the core between two layers
  // (progress_thread.hpp); auto picks by cores per rank.
  const bool shared = allreduce_text == "shared" || (allreduce_text == "auto" && SharedAverage::possible(comm));
  const bool handover = progress_text == "handover" || (progress_text == "auto" && cores_per_rank(comm) < 2);
  std::unique_ptr<lesson08::Averaging> averaging;
  if (shared) averaging = std::make_unique<lesson08::SharedAveraging>(comm, mlp.parameter_count());
  else
    averaging = std::make_unique<lesson08::RingAveraging>(
        comm, mlp.parameter_count(),
        handover ? ProgressThread::Sharing::handover : ProgressThread::Sharing::poll, poll_us);
  const View<float> grad = averaging->gradient();
  auto make_scheduler = [&](Strategy s) {
    const std::size_t bytes = s == Strategy::per_layer ? 0 : static_cast<std::size_t>(bucket_mb * 1e6);
    return lesson08::BucketScheduler(*averaging, lesson08::plan_buckets(tensors, bytes),
                                     static_cast<int>(tensors.size()));
  };
  auto scheduler = make_scheduler(strategy);

  const int steps_per_epoch = train.count / batch;
  const auto part = lesson06::my_part(batch, rank, n);
  std::string shape;
  for (int s : sizes) shape += (shape.empty() ? "" : "-") + std::to_string(s);
  // --format csv prints CSV only (a CSV reader breaks on a line of prose): this line is the
  // table's heading, so it goes with the table.
  if (opt.format != Format::csv)
    print_once(comm, "lesson 08: " + std::to_string(n) + " ranks, MLP " + shape + " (" +
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

  std::vector<float> x, reference;
  std::vector<std::uint8_t> y;
  double exposed_seconds = 0;  // the training thread waiting for communication
  int step_index = 0;

  // One step: my part of the global batch, the backward pass handing each tensor to the
  // scheduler as it becomes ready, wait for the averaging, then SGD.
  auto train_step = [&](Strategy s, lesson08::BucketScheduler& sched, const std::vector<int>& order, int b) {
    lesson06::gather_examples(train, order, b * batch + part.offset, part.count, x, y);
    averaging->new_step();
    sched.new_step();
    auto ready = [&](int t) {
      if (s == Strategy::after) return;
      sched.gradient_ready(t);
      averaging->between_layers();  // handover, or shared: the allreduces advance here
    };
    const float loss =
        mlp.loss_and_gradient(params.data(), x.data(), y.data(), part.count, grad.data(), ready);
    trace::metric("loss", loss, step_index);
    const double t = seconds_now();
    if (s == Strategy::after) {
      averaging->average_now();  // lesson 06: all at once, now
    } else {
      sched.finish();
      // MPI_THREAD_SERIALIZED: this thread calls MPI next, so the progress thread must be done.
      // A no-op when finish() waited for every bucket (the --check says if it did not).
      averaging->wait_all();
    }
    exposed_seconds += seconds_now() - t;
    ++step_index;
    return loss;
  };
  auto update = [&] {
    lesson06::sgd_momentum_update(View<float>(params), View<const float>(grad), View<float>(velocity), lr,
                                  momentum);
  };

  if (opt.bench) {
    // The α-β model from a ping-pong (lesson 05): what the messages of each strategy cost.
    lesson05::AlphaBeta model;
    if (n > 1) model = lesson05::fit_alpha_beta(lesson05::ping_pong(comm, {64, 4096, 65536, 262144}));
    const auto order = lesson06::epoch_order(train.count, seed, 0);

    // What is timed, each a kind of step: the np 1 reference (one process computing the whole
    // global batch and stepping, no communication: what -np 1 does, measured now on every rank
    // at once, under the same load), the three strategies, and the bound (the same steps with
    // no averaging at all: each rank steps with its own gradient, so this is not data-parallel
    // training, only its compute and SGD: no strategy can beat it), and the bound in lockstep
    // (the same, but every rank waits for the slowest at each step, as data-parallel training
    // must: what the step would cost if averaging were free).
    enum Kind { reference, after, per_layer, bucket, bound, lockstep };
    std::vector<Kind> kinds{reference, after, per_layer, bucket};
    if (app.count("--strategy") > 0)
      kinds = {reference, strategy == Strategy::after       ? after
                          : strategy == Strategy::per_layer ? per_layer
                                                            : bucket};
    else if (opt.format != Format::csv)
      kinds.insert(kinds.end(), {bound, lockstep});
    auto strategy_of = [](Kind k) {
      return k == after ? Strategy::after : k == per_layer ? Strategy::per_layer : Strategy::bucket;
    };
    std::vector<lesson08::BucketScheduler> schedulers;
    for (Kind k : kinds) schedulers.push_back(make_scheduler(k <= bucket && k != reference ? strategy_of(k)
                                                                                           : Strategy::after));
    std::vector<float> whole_x;
    std::vector<std::uint8_t> whole_y;
    auto one_step = [&](std::size_t i, int b) {
      b %= steps_per_epoch;
      if (kinds[i] == reference) {
        lesson06::gather_examples(train, order, b * batch, batch, whole_x, whole_y);
        mlp.loss_and_gradient(params.data(), whole_x.data(), whole_y.data(), batch, grad.data());
      } else if (kinds[i] == bound || kinds[i] == lockstep) {
        lesson06::gather_examples(train, order, b * batch + part.offset, part.count, x, y);
        mlp.loss_and_gradient(params.data(), x.data(), y.data(), part.count, grad.data());
        if (kinds[i] == lockstep) comm.barrier();
      } else {
        train_step(strategy_of(kinds[i]), schedulers[i], order, b);
      }
      update();
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
        exposed_seconds = 0;
        const double busy0 = averaging->busy_seconds(), hidden0 = averaging->hidden_seconds();
        const double cpu0 = cpu_seconds_now(), t0 = seconds_now();
        for (int s = first; s < last; ++s) one_step(i, opt.warmup + s);
        Tally& t = tally[i];
        t.seconds += comm.max(seconds_now() - t0);
        t.cpu += comm.sum(cpu_seconds_now() - cpu0) / n;
        t.exposed += comm.sum(exposed_seconds) / n;
        // The communication itself: on the progress thread or in the shared-memory averaging,
        // hidden or not (for `after` all of it is exposed).
        t.busy += kinds[i] == after && !shared ? comm.sum(exposed_seconds) / n
                                               : comm.sum(averaging->busy_seconds() - busy0) / n;
        if (hidden0 >= 0) t.hidden = std::max(0.0, t.hidden) + comm.sum(averaging->hidden_seconds() - hidden0) / n;
        if (kinds[i] >= bound) lesson06::broadcast<float>(comm, View<float>(params));  // replicas equal again
      }
    }
    const double one_process = tally[0].seconds / opt.iters;

    char line[512];
    if (opt.format == Format::csv) {
      print_once(
          comm,
          "strategy,ranks,global_batch,allreduces,messages,model_alpha_ms,model_comm_ms,comm_ms,exposed_ms,"
          "hidden_pct,step_ms,samples_per_s,speedup_vs_np1\n");
    } else {
      std::snprintf(line, sizeof line,
                    "bench: %d ranks, MLP %s, global batch %d, %d timed steps per strategy, taking turns in "
                    "%d rounds\n"
                    "  α-β model (ping-pong%s): α = %.2f us per message, β = %.3e us per byte%s\n"
                    "  np 1 reference (whole batch, one process, measured alongside): %.2f ms/step, %.0f "
                    "samples/s\n",
                    n, shape.c_str(), batch, opt.iters, rounds, n > 1 ? "" : "; one rank sends no messages",
                    model.alpha_us, model.beta_us_per_byte,
                    shared ? "\n  (the model columns: what lesson 05's ring would send; --allreduce shared sends "
                             "no messages)"
                           : "",
                    1e3 * one_process, batch / one_process);
      print_once(comm, line);
      print_once(comm,
                 "  strategy   allreduces messages  model α   model comm    comm  exposed  hidden    step  "
                 "samples/s  vs np 1\n"
                 "             per step   per step    (ms)       (ms)       (ms)    (ms)             (ms)\n");
    }
    // Per kind, a rank's CPU time per step and its share of the step: below 100%, the core was
    // idle part of the time (waiting for the other rank), and only that part can be hidden.
    std::string cpu_line;
    for (std::size_t i = 1; i < kinds.size(); ++i) {
      const Tally& t = tally[i];
      const double step = t.seconds / opt.iters, rate = batch / step;
      char cpu_text[96];
      std::snprintf(cpu_text, sizeof cpu_text, "%s %.3f ms (%.0f%%)",
                    kinds[i] == bound      ? "no averaging"
                    : kinds[i] == lockstep ? "in lockstep"
                                           : strategy_name(strategy_of(kinds[i])),
                    1e3 * t.cpu / opt.iters, 100 * t.cpu / t.seconds);
      cpu_line += std::string(cpu_line.empty() ? "" : ", ") + cpu_text;
      if (kinds[i] >= bound) {
        std::snprintf(line, sizeof line, "  %-46s %38.3f %9.0f %7.2fx\n",
                      kinds[i] == bound ? "no averaging (the bound: compute and SGD only)"
                                        : "  the same in lockstep (a barrier every step)",
                      1e3 * step, rate, one_process / step);
        print_once(comm, line);
        continue;
      }
      // What the model predicts: per allreduce, 2(n-1) x segments messages of α + β·bytes.
      const Strategy s = strategy_of(kinds[i]);
      std::vector<std::size_t> counts;
      if (s == Strategy::after) counts.push_back(mlp.parameter_count());
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
      const char* fmt = opt.format == Format::csv
                            ? "%s,%d,%d,%zu,%.0f,%.3f,%.3f,%.3f,%.3f,%.0f,%.3f,%.0f,%.2f\n"
                            : "  %-10s %6zu %9.0f %10.3f %10.3f %9.3f %8.3f %6.0f%% %8.3f %9.0f %7.2fx\n";
      if (opt.format == Format::csv)
        std::snprintf(line, sizeof line, fmt, strategy_name(s), n, batch, counts.size(), messages,
                      alpha_us / 1e3, model_us / 1e3, 1e3 * busy, 1e3 * exposed, 100 * hidden, 1e3 * step,
                      rate, one_process / step);
      else
        std::snprintf(line, sizeof line, fmt, strategy_name(s), counts.size(), messages, alpha_us / 1e3,
                      model_us / 1e3, 1e3 * busy, 1e3 * exposed, 100 * hidden, 1e3 * step, rate,
                      one_process / step);
      print_once(comm, line);
    }
    if (opt.format != Format::csv)
      print_once(comm, "  CPU time per step, all threads of a rank: " + cpu_line + "\n");
    return 0;
  }

  double worst_difference = 0;
  bool identical = true;
  std::string schedule_error;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    const auto order = lesson06::epoch_order(train.count, seed, epoch);
    double loss_sum = 0;
    comm.barrier();
    exposed_seconds = 0;
    const double t0 = seconds_now();
    for (int b = 0; b < steps_per_epoch; ++b) {
      loss_sum += train_step(strategy, scheduler, order, b);
      if (opt.check) {
        // The same local gradient again (same weights, same examples: bit-identical), averaged
        // lesson 06's way, all at once: every strategy must give this gradient.
        reference.resize(grad.size());
        mlp.loss_and_gradient(params.data(), x.data(), y.data(), part.count, reference.data());
        lesson06::average_gradients(comm, View<float>(reference));
        const double diff = comm.max(lesson06::gradient_error(grad, reference));
        if (diff > 1e-6 && worst_difference <= 1e-6 && rank == 0)
          log(Level::error) << "step " << step_index - 1 << ": " << strategy_name(strategy)
                            << "'s averaged gradient vs after's: "
                            << describe(
                                   compare<float>(View<const float>(reference), View<const float>(grad), n));
        worst_difference = std::max(worst_difference, diff);
        if (strategy != Strategy::after && schedule_error.empty()) {
          schedule_error = lesson08::schedule_problem(scheduler, tensors);
          if (!schedule_error.empty() && rank == 0) {
            log(Level::error) << "step " << step_index - 1 << ": schedule WRONG: " << schedule_error;
            // The schedule check names the cause itself: say it as every lesson's diagnosis does.
            std::printf("diagnosis: the bucket schedule is wrong: %s\n", schedule_error.c_str());
          }
        }
      }
      update();
      if (opt.check && !lesson06::replicas_identical(comm, params, velocity)) {
        if (identical)
          print_once(comm, "check: step " + std::to_string(step_index - 1) + ": replicas differ WRONG\n");
        identical = false;
      }
    }
    const double seconds = comm.max(seconds_now() - t0), exposed = comm.max(exposed_seconds);
    const std::string line =
        lesson06::epoch_losses_line(comm, epoch + 1, epochs, loss_sum / std::max(steps_per_epoch, 1));
    const double accuracy = lesson06::global_accuracy(comm, mlp, params, sets->test);
    char tail[160];
    std::snprintf(tail, sizeof tail,
                  "  test acc %.4f  %.0f samples/s  (%.1f s, %.0f%% waiting for the averaging)\n", accuracy,
                  double(steps_per_epoch) * batch / seconds, seconds, 100 * exposed / seconds);
    print_once(comm, line + tail);
  }

  if (opt.check) {
    const bool ok = identical && worst_difference <= 1e-6 && schedule_error.empty();
    print_once(comm, std::string("check: ") + strategy_name(strategy) + " on " + std::to_string(n) +
                         " ranks: averaged gradient vs after's, max rel. diff " + sci(worst_difference) +
                         (worst_difference <= 1e-6 ? " (<= 1e-6 ok)" : " WRONG (> 1e-6)") + "; replicas " +
                         (identical ? "bit-identical after every step" : "DIFFER") + "; schedule " +
                         (schedule_error.empty() ? "ok" : "WRONG") + (ok ? ": PASSED\n" : ": FAILED\n"));
    return ok ? 0 : 1;
  }
  return 0;
}
