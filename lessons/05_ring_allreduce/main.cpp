// Lesson 05 — ring allreduce (reduce-scatter + allgather) against the parameter-server shape.
//   ./ringlab run 05 -np 4 -- --schedule --count 8 --type int32   the ring, step by step
//   ./ringlab run 05 -np 4 -- --check                             verify against MPI_Allreduce
//   ./ringlab run 05 -np 4 -- --bench                             nccl-tests style table
//
// The algorithms are in ring_allreduce.hpp (solutions/05_ring_allreduce): the readable ring and
// the naive reduce-then-broadcast. Beside them runs the kit's fast ring (segmented, pipelined:
// core/include/ringlab/comm/allreduce.hpp). This file lists them, with each rank's input and MPI's
// own MPI_Allreduce as the reference, for the core's check-and-benchmark harness
// (core/include/ringlab/check/harness.hpp); what is this lesson's own stays here: the schedule
// printout and, after --bench, the α-β model (alpha_beta.hpp).
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "shared/alpha_beta.hpp"
#include "ring_allreduce.hpp"
#include "ringlab/ringlab.hpp"

using namespace ringlab;

namespace {

// MPI's own allreduce: the reference the kit's rings are checked and timed against.
template <class T> void mpi_allreduce(Communicator& comm, View<const T> in, View<T> out) {
  if (out.where() == Where::device) {  // this MPI is not CUDA-aware: it is handed host memory only
    std::vector<T> host(out.size());
    copy(View<T>(host), in);
    mpi_allreduce(comm, View<const T>(host), View<T>(host));
    copy(out, View<const T>(host));
    return;
  }
  const void* src = in.data() == out.data() ? MPI_IN_PLACE : static_cast<const void*>(in.data());
  MPI_Allreduce(src, out.data(), static_cast<int>(out.size()), mpi_datatype(dtype_of<T>()), MPI_SUM,
                comm.raw());
}

// The fast ring's segment size (--segment) and the implementations to run (--impl).
FastRingOptions g_fast;
std::vector<std::string> g_impls{"ring", "fast", "naive", "mpi", "nccl"};

// What the harness (core/include/ringlab/check/harness.hpp) checks and times: the implementations,
// each rank's input, and MPI's answer. All are allreduces: busbw = algbw x 2(n-1)/n. Under
// --transport nccl, ncclAllReduce joins them as the library row (what the kit's rings, moving
// their chunks with ncclSend/ncclRecv, are measured against).
template <class T> harness::Collective<T> allreduces(Communicator& comm) {
  const int n = comm.size();
  const double bus = allreduce_bus_factor(n);
  auto unrooted = [](void (*f)(Communicator&, View<const T>, View<T>)) {
    return [f](Communicator& c, View<const T> in, View<T> out, int) { f(c, in, out); };
  };
  std::vector<harness::Implementation<T>> all{
      {"ring", bus, unrooted(lesson05::ring_allreduce<T>)},
      {"fast", bus,
       [](Communicator& c, View<const T> in, View<T> out, int) { ring_allreduce_fast(c, in, out, g_fast); }},
      {"naive", bus, unrooted(lesson05::naive_allreduce<T>)},
      {"mpi", bus, unrooted(mpi_allreduce<T>), comm.where() == Where::device ? "MPI on host copies" : ""}};
  if (comm.transport() == Transport::nccl && comm.where() == Where::device)
    all.push_back({"nccl", bus, unrooted(nccl_allreduce<T>), "NCCL", /*device_only=*/true});
  harness::Collective<T> c;
  for (auto& impl : all)
    if (std::find(g_impls.begin(), g_impls.end(), impl.name) != g_impls.end()) c.impls.push_back(impl);
  // Reproducible, different per rank; integers stay small so sums are exact.
  c.input = [](std::vector<T>& v, int rank, int) {
    std::mt19937_64 gen(1234 + 7919 * rank);
    for (auto& x : v) {
      if constexpr (std::is_floating_point_v<T>) x = std::uniform_real_distribution<T>(-1, 1)(gen);
      else x = static_cast<T>(std::uniform_int_distribution<int>(-100, 100)(gen));
    }
  };
  c.expected = [](Communicator& comm, const std::vector<T>& in, std::vector<T>& out, int) {
    MPI_Allreduce(in.data(), out.data(), static_cast<int>(in.size()), mpi_datatype(dtype_of<T>()), MPI_SUM,
                  comm.raw());
  };
  c.terms = n;  // floats: sums of n terms, added in another order than MPI's
  // The readable ring must make exactly the transfers of the picture in ring_allreduce.hpp:
  // --check traces it and names the first step where it does not (schedule_diagnosis.hpp).
  c.scheduled = "ring";
  c.schedule = [](int ranks, int) { return ring_allreduce_schedule(ranks); };
  // When a result is wrong: why, from this rank's result and every rank's input (c.input makes
  // them again), said once per run (check.hpp's diagnose_allreduce; every rank that sees the
  // same pattern prints the same line, which the exercise checker shows once).
  c.explain = [input = c.input](Communicator& comm, const std::vector<T>& result) {
    static bool said = false;
    if (said || comm.size() > 4 || result.size() > (std::size_t(1) << 21)) return;  // memory: n inputs
    std::vector<std::vector<double>> inputs(comm.size());
    for (int k = 0; k < comm.size(); ++k) {
      std::vector<T> in(result.size());
      input(in, k, 0);
      inputs[k].assign(in.begin(), in.end());
    }
    const std::string why =
        diagnose_allreduce(inputs, std::vector<double>(result.begin(), result.end()), comm.rank());
    if (why.empty()) return;
    said = true;
    std::printf("diagnosis: %s\n", why.c_str());
  };
  return c;
}

// --schedule: run the ring once on a small buffer with an in-memory trace, then print what
// every rank sent at every step, with the values, in the order the comment diagram shows.
template <class T> void print_schedule(Communicator& comm, std::size_t count) {
  trace::Capture capture;  // this rank's events, in memory, while it lives
  std::vector<T> start(count);
  for (std::size_t i = 0; i < count; ++i) start[i] = static_cast<T>(10 * (comm.rank() + 1) + i);
  Buffer<T> buf(count, comm.where());  // host memory, or the GPU's with --device cuda
  harness::detail::put(buf.view(), start.data());
  lesson05::ring_allreduce<T>(comm, buf.view(), buf.view());

  const auto events = harness::detail::gather_events(comm, capture.take());  // every rank's, on rank 0
  if (comm.rank() != 0) return;
  auto values = [](const std::vector<double>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
      s += (i ? " " : "") + std::to_string(static_cast<long long>(v[i]));
    return s + "]";
  };
  std::printf("ring allreduce of %zu %s on %s: %s, 2 x %d steps\n", count, dtype_name(dtype_of<T>()),
              plural(comm.size(), "rank").c_str(), plural(comm.size(), "chunk").c_str(), comm.size() - 1);
  for (const auto& e : events)
    if (e.op == trace::Op::begin)
      std::printf("  start  rank %d holds %s\n", e.rank, values(e.values).c_str());
  for (const char* phase : {"reduce-scatter", "allgather"}) {
    for (int s = 0; s < comm.size() - 1; ++s) {
      std::printf("%s step %d:\n", phase, s);
      for (const auto& e : events)
        if (e.op == trace::Op::send && e.phase == phase && e.step == s)
          std::printf("  rank %d sends chunk %d %s to rank %d\n", e.rank, e.chunk, values(e.values).c_str(),
                      e.peer);
    }
  }
  for (const auto& e : events)
    if (e.op == trace::Op::end) std::printf("  end    rank %d holds %s\n", e.rank, values(e.values).c_str());
}

// After the table: α and β from a ping-pong, and the ring's time as the model predicts it next
// to the times just measured.
void print_model(Communicator& comm, const std::vector<BenchRow>& rows) {
  const int n = comm.size();
  if (n < 2) {
    print_once(comm, "\nα-β model: needs 2 or more ranks (a ping-pong between rank 0 and 1)\n");
    return;
  }
  std::vector<std::size_t> sizes;
  for (std::size_t b = 8; b <= (16u << 20); b *= 8) sizes.push_back(b);
  const auto samples = lessons::ping_pong(comm, sizes);
  const auto model = lessons::fit_alpha_beta(samples);
  if (comm.rank() != 0) return;
  std::printf("\nα-β model, t = α + β·bytes, least squares over a ping-pong of rank 0 and 1 (%zu sizes):\n",
              samples.size());
  std::printf("  α = %.2f us per message, β = %.3e us per byte (%.2f GB/s)\n", model.alpha_us,
              model.beta_us_per_byte, model.beta_us_per_byte > 0 ? 1e-3 / model.beta_us_per_byte : 0.0);
  std::printf("  %12s %12s %12s\n", "bytes", "measured(us)", "model(us)");
  for (const auto& s : samples)
    std::printf("  %12.0f %12.1f %12.1f\n", s.bytes, s.one_way_us, model.predict_us(s.bytes));
  std::printf("\nring allreduce predicted by the model, 2(n-1)(α + β·S/n) with n = %d, next to measured:\n",
              n);
  std::printf("  %12s %14s %14s %14s\n", "size(B)", "predicted(us)", "ring(us)", "fast(us)");
  for (const auto& r : rows) {
    if (r.impl != "ring") continue;
    double fast = 0;
    for (const auto& f : rows)
      if (f.impl == "fast" && f.bytes == r.bytes) fast = f.time_us;
    std::printf("  %12zu %14.1f %14.1f %14.1f\n", r.bytes, model.ring_allreduce_us(double(r.bytes), n),
                r.time_us, fast);
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{
      "Lesson 05 — ring allreduce (reduce-scatter + allgather) vs reduce-then-broadcast vs MPI_Allreduce"};
  CommonOptions opt;
  opt.count = 1 << 20;
  opt.runs_on_gpu = true;
  opt.runs_on_sim = true;  // --device sim: the same on the simulated GPU (sim_device.hpp)
  add_common_options(app, opt);
  bool schedule = false;
  app.add_flag("--schedule", schedule,
               "Print the ring's step-by-step schedule for a small buffer (--count <= 64)");
  add_number(app, "--segment", g_fast.segment_bytes, "Segment size of the fast ring, in bytes", 1, 1 << 30);
  app.add_option("--impl", g_impls,
                 "Implementations to run, comma separated: ring, fast, naive, mpi, nccl (ncclAllReduce: "
                 "with --device cuda --transport nccl only)")
      ->delimiter(',')
      ->check(CLI::IsMember({"ring", "fast", "naive", "mpi", "nccl"}))
      ->capture_default_str();
  if (auto exit_code = rt.start(app, opt, argc, argv)) return *exit_code;
  auto& comm = rt.comm();
  const bool count_given = app.count("--count") > 0;
  if (auto exit_code =
          rt.fail_if(schedule && opt.count > 64,
                     "--schedule prints values: use --count 64 or less, got " + std::to_string(opt.count)))
    return *exit_code;

  const bool nccl_asked = app.count("--impl") > 0 && std::count(g_impls.begin(), g_impls.end(), "nccl") > 0;
  if (auto exit_code = rt.fail_if(nccl_asked && comm.transport() != Transport::nccl,
                                  "--impl nccl: ncclAllReduce runs with --device cuda --transport nccl only"))
    return *exit_code;

  // --format csv promises one CSV table: the check's or the bench's, not both, and no schedule.
  if (auto exit_code = rt.fail_if(opt.format == Format::csv && (schedule || (opt.check && opt.bench)),
                                  "--format csv prints one table: give --check or --bench, without --schedule"))
    return *exit_code;
  const int n = comm.size();
  const std::size_t count = static_cast<std::size_t>(opt.count);
  long long wrong = 0;
  dispatch(opt.type, [&](auto zero) {
    using T = decltype(zero);
    if (schedule) print_schedule<T>(comm, count_given ? count : 8);
    if (opt.check) {
      std::vector<std::size_t> counts{0,       1,      std::size_t(std::max(n - 1, 0)), std::size_t(n + 1),
                                      1000003, 1 << 20};
      if (count_given) counts = {count};
      wrong += harness::check(comm, allreduces<T>(comm), counts, opt.format);
    }
    if (opt.bench) {
      std::vector<std::size_t> counts;
      if (count_given) counts = {count};
      else
        for (std::size_t bytes : {4u << 10, 64u << 10, 1u << 20, 4u << 20, 16u << 20, 64u << 20})
          counts.push_back(bytes / sizeof(T));
      std::vector<BenchRow> rows;
      wrong += harness::bench(comm, allreduces<T>(comm), counts, opt, &rows);
      if (opt.format == Format::table) print_model(comm, rows);
    }
    if (!schedule && !opt.check && !opt.bench) {  // plain run: one allreduce, checked
      wrong += harness::check(comm, allreduces<T>(comm), {count}, opt.format);
    }
  });
  // (--format csv: stdout holds the CSV only; the verdict goes to stderr)
  if (wrong && opt.format == Format::csv && comm.rank() == 0) std::fprintf(stderr, "FAILED: %lld wrong elements\n", wrong);
  else if (wrong) print_once(comm, "FAILED: " + std::to_string(wrong) + " wrong elements\n");
  return wrong || harness::departed_from_schedule() ? 1 : 0;  // (a departure was said as it happened)
}
