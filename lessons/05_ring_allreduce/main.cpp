// Lesson 05 — ring allreduce (reduce-scatter + allgather) against the parameter-server shape.
//   ./ringlab run 05 -np 4 -- --schedule --count 8 --type int32   the ring, step by step
//   ./ringlab run 05 -np 4 -- --check                             verify against MPI_Allreduce
//   ./ringlab run 05 -np 4 -- --bench                             nccl-tests style table
//
// The algorithms are in ring_allreduce.hpp (solutions/05_ring_allreduce): the readable ring and
// the naive reduce-then-broadcast. Beside them runs the kit's fast ring (segmented, pipelined:
// core/include/ringlab/allreduce.hpp). This file fills each rank's buffer, calls them, and
// compares with MPI's own MPI_Allreduce; --bench also fits the α-β model (alpha_beta.hpp).
#include <algorithm>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "alpha_beta.hpp"
#include "ring_allreduce.hpp"
#include "ringlab/ringlab.hpp"

using namespace ringlab;

namespace {

// MPI's own allreduce: the reference the kit's rings are checked and timed against.
template <class T> void mpi_allreduce(Communicator& comm, View<const T> in, View<T> out) {
  const void* src = in.data() == out.data() ? MPI_IN_PLACE : static_cast<const void*>(in.data());
  MPI_Allreduce(src, out.data(), static_cast<int>(out.size()), mpi_datatype(dtype_of<T>()), MPI_SUM,
                comm.raw());
}

template <class T> struct Impl {
  const char* name;
  std::function<void(Communicator&, View<const T>, View<T>)> run;
};
// The fast ring's segment size (--segment) and the implementations to run (--impl).
FastRingOptions g_fast;
std::vector<std::string> g_impls{"ring", "fast", "naive", "mpi"};
template <class T> std::vector<Impl<T>> implementations() {
  std::vector<Impl<T>> all{{"ring", lesson05::ring_allreduce<T>},
                           {"fast", [](Communicator& c, View<const T> in,
                                       View<T> out) { ring_allreduce_fast(c, in, out, g_fast); }},
                           {"naive", lesson05::naive_allreduce<T>},
                           {"mpi", mpi_allreduce<T>}};
  std::vector<Impl<T>> chosen;
  for (auto& impl : all)
    if (std::find(g_impls.begin(), g_impls.end(), impl.name) != g_impls.end()) chosen.push_back(impl);
  return chosen;
}

// Each rank's input: reproducible, different per rank; integers stay small so sums are exact.
template <class T> void fill(std::vector<T>& v, int rank) {
  std::mt19937_64 gen(1234 + 7919 * rank);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) x = std::uniform_real_distribution<T>(-1, 1)(gen);
    else x = static_cast<T>(std::uniform_int_distribution<int>(-100, 100)(gen));
  }
}

// --schedule: run the ring once on a small buffer with an in-memory trace, then print what
// every rank sent at every step, with the values, in the order the comment diagram shows.
template <class T> void print_schedule(Communicator& comm, std::size_t count) {
  std::vector<trace::Event> mine;
  trace::add_sink([&](const trace::Event& e) { mine.push_back(e); });
  std::vector<T> buf(count);
  for (std::size_t i = 0; i < count; ++i) buf[i] = static_cast<T>(10 * (comm.rank() + 1) + i);
  lesson05::ring_allreduce<T>(comm, buf, buf);

  std::string lines;
  for (const auto& e : mine) lines += trace::encode(e) + "\n";
  auto all = comm.gather_strings(lines);
  if (comm.rank() != 0) return;
  std::vector<trace::Event> events;
  for (const auto& text : all) {
    std::size_t pos = 0, nl;
    while ((nl = text.find('\n', pos)) != std::string::npos) {
      if (auto e = trace::decode_event(std::string_view(text).substr(pos, nl - pos))) events.push_back(*e);
      pos = nl + 1;
    }
  }
  auto values = [](const std::vector<double>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
      s += (i ? " " : "") + std::to_string(static_cast<long long>(v[i]));
    return s + "]";
  };
  std::printf("ring allreduce of %zu %s on %d ranks: %d chunks, 2 x %d steps\n", count,
              dtype_name(dtype_of<T>()), comm.size(), comm.size(), comm.size() - 1);
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

// --check: every implementation, in-place and out-of-place, over counts that stress the
// chunking (0, 1, fewer elements than ranks, not divisible by ranks, large).
template <class T> long long check(Communicator& comm, std::vector<std::size_t> counts) {
  const int n = comm.size();
  if (comm.rank() == 0) {
    if (dtype_is_float(dtype_of<T>()))
      std::printf("# %s: wrong when |got - expected| > %g * max(1, |expected|) (sums of %d terms)\n",
                  dtype_name(dtype_of<T>()), float_tolerance(dtype_of<T>(), n), n);
    else std::printf("# %s: must match exactly\n", dtype_name(dtype_of<T>()));
    std::printf("%-6s %9s %7s %-12s %7s\n", "impl", "count", "type", "placement", "#wrong");
  }
  long long total_wrong = 0;
  for (std::size_t count : counts) {
    std::vector<T> in(count), expected(count), out(count);
    fill(in, comm.rank());
    MPI_Allreduce(in.data(), expected.data(), static_cast<int>(count), mpi_datatype(dtype_of<T>()), MPI_SUM,
                  comm.raw());
    for (const auto& impl : implementations<T>()) {
      for (bool in_place : {false, true}) {
        std::vector<T> data = in;
        if (in_place) impl.run(comm, View<T>(data), View<T>(data));
        else impl.run(comm, View<T>(in), View<T>(out));
        const auto result = compare<T>(View<T>(expected), in_place ? View<T>(data) : View<T>(out), n);
        const long long wrong = comm.sum(result.wrong);
        total_wrong += wrong;
        if (result.wrong) log(Level::error) << impl.name << " count " << count << ": " << describe(result);
        if (comm.rank() == 0)
          std::printf("%-6s %9zu %7s %-12s %7lld\n", impl.name, count, dtype_name(dtype_of<T>()),
                      in_place ? "in-place" : "out-of-place", wrong);
      }
    }
  }
  return total_wrong;
}

// --bench: time each implementation on the same buffers, same run.
template <class T> long long bench(Communicator& comm, const CommonOptions& opt,
                                   std::vector<std::size_t> counts, std::vector<BenchRow>& rows) {
  print_bench_header(comm, opt.format);
  long long total_wrong = 0;
  for (std::size_t count : counts) {
    std::vector<T> in(count), out(count), expected(count);  // allocated outside the timed region
    fill(in, comm.rank());
    mpi_allreduce<T>(comm, View<T>(in), View<T>(expected));
    for (const auto& impl : implementations<T>()) {
      BenchRow row{impl.name, count * sizeof(T), count, dtype_of<T>()};
      row.time_us = time_us(comm, opt.warmup, opt.iters, [&] { impl.run(comm, View<T>(in), View<T>(out)); });
      row.wrong = comm.sum(compare<T>(View<T>(expected), View<T>(out), comm.size()).wrong);
      total_wrong += row.wrong;
      set_bandwidth(row, allreduce_bus_factor(comm.size()));
      print_bench_row(comm, opt.format, row);
      rows.push_back(row);
    }
  }
  return total_wrong;
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
  const auto samples = lesson05::ping_pong(comm, sizes);
  const auto model = lesson05::fit_alpha_beta(samples);
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
  add_common_options(app, opt);
  bool schedule = false;
  app.add_flag("--schedule", schedule,
               "Print the ring's step-by-step schedule for a small buffer (--count <= 64)");
  app.add_option("--segment", g_fast.segment_bytes, "Segment size of the fast ring, in bytes")
      ->capture_default_str()
      ->transform(whole_number_in(1, 1 << 30));
  app.add_option("--impl", g_impls, "Implementations to run, comma separated: ring, fast, naive, mpi")
      ->delimiter(',')
      ->check(CLI::IsMember({"ring", "fast", "naive", "mpi"}))
      ->capture_default_str();
  if (auto exit_code = rt.start(app, opt, argc, argv)) return *exit_code;
  auto& comm = rt.comm();
  const bool count_given = app.count("--count") > 0;
  if (auto exit_code =
          rt.fail_if(schedule && opt.count > 64,
                     "--schedule prints values: use --count 64 or less, got " + std::to_string(opt.count)))
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
      wrong += check<T>(comm, counts);
    }
    if (opt.bench) {
      std::vector<std::size_t> counts;
      if (count_given) counts = {count};
      else
        for (std::size_t bytes : {4u << 10, 64u << 10, 1u << 20, 4u << 20, 16u << 20, 64u << 20})
          counts.push_back(bytes / sizeof(T));
      std::vector<BenchRow> rows;
      wrong += bench<T>(comm, opt, counts, rows);
      if (opt.format == Format::table) print_model(comm, rows);
    }
    if (!schedule && !opt.check && !opt.bench) {  // plain run: one allreduce, checked
      wrong += check<T>(comm, {count});
    }
  });
  if (wrong) print_once(comm, "FAILED: " + std::to_string(wrong) + " wrong elements\n");
  return wrong ? 1 : 0;
}
