// Lesson 02 — model parallelism: a sum split across ranks, an MLP split by layers, a pipeline.
//   ./ringlab run 02 -np 3                       the slide: y = w0*x0 + w1*x1 + w2*x2, then a few
//                                                SGD steps of an MLP split by layers
//   ./ringlab run 02 -np 4 -- --check            pipelined MLP vs the same MLP in one process
//   ./ringlab run 02 -np 4 -- --bench            busy/idle per rank, bubble vs (P-1)/(M+P-1)
//   ./ringlab run 02 -np 4 -- --trace p.trace    the GPipe schedule, for the visualizer
//   ./ringlab run 02 -np 4 -- --device cuda --check   each stage on its rank's GPU, against the
//                                                same model in one process on the CPU
//
// The distributed parts are in model_parallel.hpp (solutions/02_model_parallel), the layer
// arithmetic in ringlab/ml/pipeline_stage.hpp (core/). This file sets up the data and runs them:
// the slide, then the MLP. Beside it: model.hpp (the sizes, layers and batches every part uses),
// check.hpp (--check: against the same model in one process), bench.hpp (--bench: the bubble).
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench.hpp"
#include "check.hpp"
#include "model.hpp"
#include "model_parallel.hpp"
#include "ringlab/check/diagnose_chain.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/format.hpp"

using namespace ringlab;
using lesson02::Config;
using lesson02::Stage;
using lesson02::to_buffer;
using lesson02::TrainResult;

namespace {

// --- 1. the slide ----------------------------------------------------------------------
// Term i of the global sum is w_i * x_i; rank r holds terms [r*k, (r+1)*k).
// `before`: the ranks' values of the call before (the check's calls, on rank 0; null elsewhere).
// `first_zero`: rank 0's weights all 0, so the partial sum it passes on is exactly 0 (which must
// go on like any other).
long long chain_sum(Communicator& comm, int k, bool small_integers, bool print,
                    std::vector<ChainRank>* before = nullptr, bool first_zero = false) {
  const int r = comm.rank(), n = comm.size(), total = n * k;
  std::vector<double> w(total), x(total);
  std::mt19937_64 gen(7);
  for (int i = 0; i < total; ++i) {
    w[i] = small_integers ? i + 1 : std::uniform_real_distribution<double>(-1, 1)(gen);
    x[i] = small_integers ? i + 2 : std::uniform_real_distribution<double>(-1, 1)(gen);
    if (first_zero && i < k) w[i] = 0;
  }
  View<const double> my_w(w.data() + r * k, k), my_x(x.data() + r * k, k);
  WatchSchedule watch(chain_schedule(n));  // a hang is compared with the chain's schedule
  const auto res = lesson02::chain_forward<double>(comm, my_w, my_x);

  double serial = 0;  // the reference: the same sum in one process
  for (int i = 0; i < total; ++i) serial += w[i] * x[i];
  std::vector<double> contribution(n, 0.0);  // each rank's own terms, summed
  for (int i = 0; i < total; ++i) contribution[i / k] += w[i] * x[i];
  long long wrong = 0;
  // Every rank's part, on rank 0: what it received, its own terms, the y it returned. The first
  // rank or hop that departs from the chain is where it broke (diagnose_chain.hpp); a rank before
  // the last that returns a wrong y is wrong too (ChainResult: y is every rank's partial sum).
  const auto parts =
      comm.gather_strings(lessons::format("%.17g %.17g %.17g", res.received, contribution[r], res.y));
  std::string departure;
  if (r == 0) {
    std::vector<ChainRank> ranks;
    for (const std::string& p : parts) {
      ChainRank c;
      std::sscanf(p.c_str(), "%lf %lf %lf", &c.received, &c.own, &c.y);
      ranks.push_back(c);
    }
    departure = diagnose_chain_ranks(ranks, before ? *before : std::vector<ChainRank>{});
    if (before) *before = ranks;
    if (!departure.empty()) {
      std::printf("diagnosis: %s\n", departure.c_str());
      wrong += 1;  // (the last rank counts its own wrong sum below; this counts the chain's break)
    }
  }
  const bool found_departure = !comm.all_ok(departure.empty());
  if (r == n - 1) {
    const auto result = compare<double>(View<const double>(&serial, 1), View<const double>(&res.y, 1), total);
    if (result.wrong) {
      log(Level::error) << "chain sum of " << total << " terms on the last rank: " << describe(result);
      // Why: which ranks' terms the result holds (diagnose_chain.hpp) names where the chain broke,
      // unless rank 0 named the first departure already.
      const std::string why = diagnose_chain(contribution, res.y);
      if (!why.empty() && !found_departure) std::printf("diagnosis: %s\n", why.c_str());
    }
    wrong = result.wrong;
  }

  if (print) {
    std::string terms;
    for (int i = r * k; i < (r + 1) * k; ++i)
      terms += " + " + std::to_string(int(w[i])) + "*" + std::to_string(int(x[i]));
    print_in_rank_order(comm,
                        lessons::format("rank %d: y = %g%s = %g%s", r, res.received, terms.c_str(), res.y,
                                        r < n - 1 ? ("  -> sends it to rank " + std::to_string(r + 1)).c_str()
                                                  : "  = y (the last rank holds it)"));
    print_once(comm,
               lessons::format("serial sum in one process: %g   #wrong %lld\n", serial, comm.sum(wrong)));
  }
  return comm.sum(wrong);
}

// --- 2. the MLP, pipelined ---------------------------------------------------------------
// The pipeline runs where the communicator does (each stage on its rank's GPU with --device
// cuda, its activations and gradients moved by the communicator's transport). check.hpp trains
// the same MLP in one process, on the CPU, and compares.
TrainResult train_pipelined(Communicator& comm, const Config& c, int microbatches) {
  const int k = c.layers_per_rank, total = k * comm.size();
  Stage s;
  s.layers = lesson02::make_layers(c, comm.rank() * k, k, total, comm.where());
  TrainResult out;
  std::vector<double> x, t;
  for (int step = 0; step < c.steps; ++step) {
    lesson02::make_batch(c, step, x, t);
    const auto inputs = to_buffer(x, comm.where()), targets = to_buffer(t, comm.where());
    const double loss = comm.sum(lesson02::gpipe_step(comm, s, inputs.view(), targets.view(), c.batch,
                                                      microbatches));  // only the last rank's is non-zero
    for (auto& l : s.layers) lesson02::sgd_update(l, c.lr);
    trace::metric("loss", loss, step);
    out.losses.push_back(loss);
  }
  out.layers = std::move(s.layers);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{
      "Lesson 02 — model parallelism: a sum split across ranks, an MLP split by layers, a GPipe pipeline"};
  CommonOptions opt;
  opt.iters = 5;
  opt.warmup = 1;
  opt.runs_on_gpu = true;  // --device cuda: each stage's layers on its rank's GPU
  add_common_options(app, opt);
  Config c;
  int terms = 1;
  // Each flag is bounded so that no product of them overflows; what they need together is
  // checked against memory below.
  add_number(app, "--terms", terms, "Terms w_i*x_i per rank in the chain sum", 1, 1 << 20);
  add_number(app, "--width", c.width, "Neurons per layer (every layer is width x width; --bench: 256)", 1,
             1 << 16);
  add_number(app, "--layers-per-rank", c.layers_per_rank, "Layers each rank (pipeline stage) holds", 1, 1024);
  add_number(app, "--batch", c.batch, "Global batch size (rows; --bench: 256)", 1, 1 << 20);
  app.add_option("--microbatches", c.microbatches,
                 "Microbatch counts M to run, e.g. 1,2,4 (default: 1,2,4; --bench: 1,2,4,8)")
      ->delimiter(',')
      ->transform(whole_number_in(1, 1 << 20));
  add_number(app, "--steps", c.steps, "SGD steps of the MLP", 1, 1000000);
  add_number(app, "--lr", c.lr, "SGD learning rate", 0, 100);
  if (auto exit_code = rt.start(app, opt, argc, argv, 0)) return *exit_code;
  if (auto e = rt.refuse_unused(app, {"--count", "--type"},
                                "its sizes are --terms, --width and --batch, in double"))
    return *e;
  // --format csv promises CSV only; this lesson's output is a table with its explanation.
  if (auto e = rt.refuse_unused(app, {"--format"}, "its output is a table with its explanation, not CSV"))
    return *e;
  auto& comm = rt.comm();

  // Bad input: one line, exit 2 on every rank.
  if (auto e = rt.fail_if(comm.size() < 2,
                          "lesson 02 needs -np 2 or more (a chain of at least two stages), got -np " +
                              std::to_string(comm.size())))
    return *e;
  {  // every rank also trains the whole model in one process, to check against: weights,
     // gradients and momentum of all layers, plus activations of the whole batch at each layer
    const double layers = double(c.layers_per_rank) * comm.size(),
                 width = opt.bench && !app.count("--width") ? 256 : c.width;
    const double batch = opt.bench && !app.count("--batch") ? 256 : c.batch;
    const double bytes = 8 * (3 * layers * width * width + 3 * batch * width * (layers + 1));
    if (auto e = rt.fail_if_over_memory(bytes, "--width, --batch and --layers-per-rank x -np")) return *e;
  }
  if (opt.bench) {  // the bubble needs stages that compute much longer than a hand-off takes
    if (!app.count("--width")) c.width = 256;
    if (!app.count("--batch")) c.batch = 256;
  }
  if (c.microbatches.empty())
    c.microbatches = opt.bench ? std::vector<int>{1, 2, 4, 8} : std::vector<int>{1, 2, 4};
  for (int M : c.microbatches) {
    if (auto e =
            rt.fail_if(c.batch % M != 0, "--batch " + std::to_string(c.batch) + " is not divisible by " +
                                             std::to_string(M) +
                                             " microbatches (--microbatches): pick M dividing the batch"))
      return *e;
  }

  long long wrong = 0;
  if (opt.check) {  // the chain sum at three sizes, then the MLP at every M against one process
    std::vector<ChainRank> before;  // each call's values, for the next (a message left behind)
    for (int k : {1, 3, 1000}) {
      const long long w = chain_sum(comm, k, false, false, &before);
      print_once(comm, lessons::format("chain sum  %d terms per rank (%d in all): #wrong %lld\n", k,
                                       k * comm.size(), w));
      wrong += w;
    }
    // Said before the run: a chain that skips a send of 0 hangs here, and the line tells why.
    print_once(comm, "chain sum  3 terms per rank, rank 0's weights all 0: its partial sum is 0, passed on like "
                     "any other\n");
    const long long zero = chain_sum(comm, 3, false, false, &before, true);
    print_once(comm, lessons::format("chain sum  3 terms per rank, rank 0's all 0: #wrong %lld\n", zero));
    wrong += zero;
    for (int M : c.microbatches)
      wrong += lesson02::check_mlp(comm, c, train_pipelined(comm, c, M), M, false);  // check.hpp
  }
  if (opt.bench) lesson02::bench_bubble(comm, c, opt, c.microbatches);  // bench.hpp
  if (!opt.check && !opt.bench) {
    print_once(comm, "1. the slide: each rank adds its term and passes the partial sum on\n");
    wrong += chain_sum(comm, terms, true, true);
    const int M = c.microbatches.back();
    print_once(comm,
               lessons::format("\n2. an MLP of %d layers (%dx%d) split over %s, batch %d in %d "
                               "microbatches\n",
                               c.layers_per_rank * comm.size(), c.width, c.width,
                               plural(comm.size(), "rank").c_str(), c.batch, M));
    wrong += lesson02::check_mlp(comm, c, train_pipelined(comm, c, M), M, true);
  }
  if (wrong) print_once(comm, "FAILED: " + std::to_string(wrong) + " wrong values\n");
  return wrong ? 1 : 0;
}
