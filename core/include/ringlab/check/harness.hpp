// One check-and-benchmark harness for every collective a lesson implements, shaped like
// nccl-tests' common.cu: the lesson lists its implementations and says how to make the input
// and the right answer; the harness runs the check sweep and the benchmark, prints the tables,
// and does it on host or device buffers (comm.where()), so a lesson writes this part once.
//
//   harness::Collective<T> c;
//   c.impls = {{"ring", allreduce_bus_factor(n), run_ring}, {"mpi", ..., run_mpi}};
//   c.input = [](std::vector<T>& in, int rank, int root) { ... };      // this rank's data
//   c.expected = [](Communicator&, const std::vector<T>& in, std::vector<T>& out, int root) { ... };
//   wrong += harness::check(comm, c, {0, 1, 1000003});
//   wrong += harness::bench(comm, c, counts, opt);
//
// --check: every implementation, every count, in-place and out-of-place (and every root of
// {0, n/2, n-1} for rooted collectives), against the reference; a table of wrong elements.
// --bench: the timing rule, the same for every lesson. The implementations take turns
// (iteration i runs each of them once, then iteration i+1 ...) and each reports its fastest
// timed iteration, where one iteration's time is the slowest rank's (the collective is done
// when the last rank is). On a machine shared with other work the load changes from second to
// second: taking turns lets every implementation see the same conditions, and the fastest run
// is the one least disturbed. The output buffer is reset before every call, outside the timed
// region, and checked after each implementation's last call, so a wrong answer shows in the
// #wrong column of the table.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "ringlab/check/bench.hpp"
#include "ringlab/check/check.hpp"
#include "ringlab/comm/cli.hpp"
#include "ringlab/comm/comm.hpp"
#include "ringlab/check/diagnose_runs.hpp"
#include "ringlab/base/log.hpp"
#include "ringlab/comm/memory.hpp"
#include "ringlab/comm/ops.hpp"
#include "ringlab/comm/sim_device.hpp"
#include "ringlab/check/schedule_diagnosis.hpp"  // the reference schedules, WatchSchedule
#include "ringlab/check/value_departure.hpp"
#include "ringlab/trace/trace.hpp"

namespace ringlab::harness {

// One implementation of the collective: out = collective(in), rooted at `root` when the
// collective has a root. Called in place with in.data() == out.data().
template <class T> struct Implementation {
  std::string name;
  double bus_factor = 1.0;  // busbw = algbw x this (nccl-tests' factors, bench.hpp)
  std::function<void(Communicator&, View<const T> in, View<T> out, int root)> run;
  // How its data moves, when not by the communicator's transport (printed above the table):
  // "MPI on host copies" for MPI's own collective on device buffers, "NCCL" for NCCL's.
  std::string transport = {};
  bool device_only = false;  // runs on device buffers only (NCCL): no host twin in the check
};

template <class T> struct Collective {
  using value_type = T;
  std::vector<Implementation<T>> impls;
  // This rank's input, in host memory (`root` is 0 for a collective without one).
  std::function<void(std::vector<T>& in, int rank, int root)> input;
  // The right answer, in host memory: the reference library's (MPI's) result for `in`.
  std::function<void(Communicator&, const std::vector<T>& in, std::vector<T>& expected, int root)> expected;
  bool rooted = false;       // check every root of {0, n/2, n-1}; the table gets a root column
  bool out_of_place = true;  // check out-of-place as well as in-place, and time out-of-place
  int terms = 0;             // floats may differ by the rounding of sums of `terms` values; 0: exact
  // Optional: called with this rank's wrong result (host memory) to say why it is wrong.
  std::function<void(Communicator&, const std::vector<T>& got)> explain;
  // Optional: the transfers the implementation named `scheduled` must make on n ranks, from
  // `root` (schedule_diagnosis.hpp). --check traces that implementation's calls in memory and,
  // at the first case whose trace departs from the schedule, prints where as its diagnosis —
  // instead of what the values would say (the schedule is the cause, the values its echo) —
  // and stops the sweep: the later cases would only repeat it, or hang on it.
  std::string scheduled;
  std::function<Schedule(int n, int root)> schedule;
};

namespace detail {

// Moves data between host memory and the run's buffers without tracing it: filling the
// inputs is not part of the collective the trace shows.
template <class T> void put(View<T> dst, const T* host) {
  if (dst.where() == Where::device) device_ops::copy(dst.data(), host, dst.bytes());
  else if (dst.size()) std::memcpy(dst.data(), host, dst.bytes());
}
template <class T> void get(T* host, View<const T> src) {
  if (src.where() == Where::device) device_ops::copy(host, src.data(), src.bytes());
  else if (src.size()) std::memcpy(host, src.data(), src.bytes());
}
// Every rank's events, gathered on rank 0 (in rank order; empty elsewhere). Collective.
inline std::vector<trace::Event> gather_events(Communicator& comm, const std::vector<trace::Event>& mine) {
  std::string lines;
  for (const auto& e : mine) lines += trace::encode(e) + "\n";
  std::vector<trace::Event> events;
  for (const auto& text : comm.gather_strings(lines)) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (auto e = trace::decode_event(line)) events.push_back(*e);
  }
  return events;
}

// What the output buffer holds before a call: a value no implementation produces by accident.
template <class T> void poison(View<T> out) { fill(out, static_cast<T>(-77)); }

inline bool& departed_flag() {
  static bool departed = false;
  return departed;
}

inline std::vector<int> roots_of(int n, bool rooted) {
  std::vector<int> roots{0};  // 0, the middle and the last rank, each once
  if (rooted)
    for (int r : {n / 2, n - 1})
      if (std::find(roots.begin(), roots.end(), r) == roots.end()) roots.push_back(r);
  return roots;
}

}  // namespace detail

// The first departure of one call's transfers, traced on every rank, from `reference`: the
// sentence on rank 0 (schedule_diagnosis.hpp), "" elsewhere and when there is none. Collective.
inline std::string schedule_departure(Communicator& comm, const Schedule& reference,
                                      const std::vector<trace::Event>& mine) {
  // and the adds (is one made before its step's receive?), and the ends (how far each rank went)
  std::vector<trace::Event> transfers;
  for (const auto& e : mine)
    if (e.op == trace::Op::send || e.op == trace::Op::recv || e.op == trace::Op::reduce || e.op == trace::Op::end)
      transfers.push_back(e);
  const auto events = detail::gather_events(comm, transfers);
  return comm.rank() == 0 ? diagnose_schedule(reference, events) : "";
}

// The first message (or result) of one traced call that carries the wrong values
// (value_departure.hpp), against every rank's input as `c` makes it: the sentence on rank 0, ""
// elsewhere and when there is none. Collective.
template <class C>
std::string value_departure(Communicator& comm, const C& c, const Schedule& reference,
                            const std::vector<trace::Event>& mine, std::size_t count, int root) {
  std::vector<trace::Event> traced;  // (the begins: what each buffer held before the call)
  for (const auto& e : mine)
    if (e.op == trace::Op::begin || e.op == trace::Op::send || e.op == trace::Op::recv || e.op == trace::Op::end)
      traced.push_back(e);
  const auto events = detail::gather_events(comm, traced);
  if (comm.rank() != 0) return "";
  std::vector<std::vector<double>> inputs;
  for (int k = 0; k < comm.size(); ++k) {
    std::vector<typename C::value_type> in(count);
    c.input(in, k, root);
    inputs.emplace_back(in.begin(), in.end());
  }
  return first_value_departure(reference, events, inputs);
}

// Whether a check sweep of this run stopped at a case whose trace departs from the schedule
// (check() prints the departure as it stops). A departure fails the check even where no element
// came out wrong (the same schedule goes wrong on other sizes, or hangs on them), so a lesson's
// verdict looks at both: `wrong || departed_from_schedule()`.
inline bool departed_from_schedule() { return detail::departed_flag(); }

// A run in which a collective returned with a transfer never finished has said so ("message
// left behind"); the values after it are that transfer's doing, and a diagnosis read from them
// would name another cause. The sentence a check prints in its place, or "" when every transfer
// finished. Collective: every rank calls it, and gets the same answer.
inline std::string unfinished_transfer_first(Communicator& comm) {
  if (comm.all_ok(!comm.left_behind())) return "";
  return "a non-blocking transfer was never finished (message left behind, above), and the wrong values "
         "follow from it, so they say nothing more — finish every request with comm.wait before its data is "
         "used or its buffer reused.";
}

// The check sweep; returns the number of wrong elements over all ranks, cases and counts (a
// departure from the schedule is not counted there: departed_from_schedule() says it).
// On a GPU each case runs twice, on device buffers and on host buffers, and the two results
// must be equal bit for bit (column #!=host, before #wrong, so the table's last column is
// still #wrong for scripts/ringlab-exercise): the same algorithm adds in the same order wherever the
// data lives, so even float sums agree exactly. Not on the simulated GPU (--device sim): its
// arithmetic is the host's own, so the twin would compare the host with itself at twice the time.
// --format csv: the same table as CSV, the tolerance line on stderr. The header is printed once per
// element type (the flag below is one per instantiation): a lesson checks one --type per run.
template <class T>
long long check(Communicator& comm, const Collective<T>& c, const std::vector<std::size_t>& counts,
                Format format = Format::table) {
  const DType t = dtype_of<T>();
  const Where where = comm.where();
  const bool twins = where == Where::device && !sim_device::on();  // the host twin (above)
  const bool csv = format == Format::csv;
  // One line of the table, in the columns this collective has: as CSV, or each cell padded to
  // its column's width (negative: left-aligned).
  auto print_line = [&](const std::string& impl, const std::string& count, const std::string& type,
                        const std::string& root, const std::string& placement,
                        const std::string& not_equal_host, const std::string& wrong) {
    std::vector<std::pair<int, std::string>> cells{{-6, impl}, {9, count}, {7, type}};
    if (c.rooted) cells.emplace_back(5, root);
    if (c.out_of_place) cells.emplace_back(-12, placement);
    if (twins) cells.emplace_back(7, not_equal_host);
    cells.emplace_back(7, wrong);
    for (std::size_t i = 0; i < cells.size(); ++i)
      std::printf("%s%*s", i == 0 ? "" : csv ? "," : " ", csv ? 0 : cells[i].first, cells[i].second.c_str());
    std::printf("\n");
  };
  static bool csv_header_printed = false;
  if (comm.rank() == 0) {
    std::FILE* note = csv ? stderr : stdout;
    if (c.terms > 0 && dtype_is_float(t))
      std::fprintf(note, "# %s: wrong when |got - expected| > %g * max(1, |expected|) (sums of %d terms)\n",
                   dtype_name(t), float_tolerance(t, c.terms), c.terms);
    else if (c.terms > 0) std::fprintf(note, "# %s: must match exactly\n", dtype_name(t));
    if (!csv || !csv_header_printed)
      print_line("impl", "count", "type", "root", "placement", csv ? "not_equal_host" : "#!=host",
                 csv ? "wrong" : "#wrong");
    csv_header_printed = csv_header_printed || csv;
  }
  long long total = 0;
  for (std::size_t count : counts) {
    int right_root = -1;  // a root whose traced call, at this count, followed the schedule with right values
    for (int root : detail::roots_of(comm.size(), c.rooted)) {
      std::vector<T> in(count), expected(count), got(count);
      c.input(in, comm.rank(), root);
      c.expected(comm, in, expected, root);
      Buffer<T> in_buf(count, where), out_buf(count, where);
      // On a GPU, the same case on host buffers (the twin; none on a host run).
      const std::size_t host_count = twins ? count : 0;
      Buffer<T> host_in(host_count, Where::host), host_out(host_count, Where::host);
      std::vector<T> host_got(host_count);
      // One case: the implementation on `in_b`/`out_b`, its result copied into `result`.
      auto run = [&](const Implementation<T>& impl, bool in_place, Buffer<T>& in_b, Buffer<T>& out_b,
                     std::vector<T>& result) {
        const Buffer<T>& src = in_place ? out_b : in_b;
        detail::put(src.view(), in.data());
        if (!in_place) detail::poison(out_b.view());
        impl.run(comm, src.view(), out_b.view(), root);
        detail::get(result.data(), View<const T>(out_b.view()));
      };
      for (const auto& impl : c.impls) {
        const bool scheduled = c.schedule && impl.name == c.scheduled;
        // The schedule it must follow, made once: the watchdog, the transfers and the values use it.
        Schedule reference = scheduled ? c.schedule(comm.size(), root) : Schedule{};
        if (right_root != root) reference.right_with_root = right_root;  // a departure here: the root changed
        for (bool in_place : c.out_of_place ? std::vector<bool>{false, true} : std::vector<bool>{true}) {
          std::optional<trace::Capture> capture;  // the scheduled one: traced in memory, this call only
          std::optional<WatchSchedule> watch;     // and a hang in it compared with the schedule
          if (scheduled) {
            capture.emplace();
            watch.emplace(reference);
          }
          run(impl, in_place, in_buf, out_buf, got);
          watch.reset();
          const auto events = capture ? capture->take() : std::vector<trace::Event>{};
          capture.reset();
          long long differ = 0;
          const bool twin = twins && !impl.device_only;
          if (twin) {
            run(impl, in_place, host_in, host_out, host_got);
            differ = comm.sum(compare<T>(View<T>(host_got), View<T>(got), 0).wrong);
            total += differ;
          }
          const auto mine = compare<T>(View<T>(expected), View<T>(got), c.terms);
          if (mine.wrong) {
            auto line = log(Level::error);
            line << impl.name << " count " << count;
            if (c.rooted) line << " root " << root;
            if (c.out_of_place) line << (in_place ? " in-place" : " out-of-place");
            line << ": " << describe(mine);
          }
          std::string departure;
          // A transfer never finished is not in the trace; the kit has said so ("message left
          // behind"), and that is the explanation: the schedule would only see a send missing.
          if (scheduled && comm.all_ok(!comm.left_behind()))
            departure = schedule_departure(comm, reference, events);
          const bool departed = !comm.all_ok(departure.empty());  // rank 0 found it; all stop
          // Every message where the schedule has it, but wrong values somewhere: the first message
          // (or result) that carries the wrong values, from the values the trace recorded (small
          // cases only), said once per run; otherwise the lesson's own explanation.
          std::string carried;
          if (scheduled && !departed && !comm.all_ok(mine.wrong == 0))
            carried = value_departure(comm, c, reference, events, count, root);
          if (!carried.empty()) carried += root_changed(reference);
          static bool carried_said = false;
          if (!carried.empty() && !carried_said && comm.rank() == 0) {
            std::fprintf(csv ? stderr : stdout, "diagnosis: %s\n", carried.c_str());
            carried_said = true;
          }
          if (mine.wrong && c.explain && !departed && carried.empty()) c.explain(comm, got);
          // For the diagnosis across runs (diagnose_runs.hpp): this rank's first wrong values,
          // each with this rank's own input there (how the wrong value relates to it says what
          // was added: value_relation.hpp), and, from rank 0, the case with its wrong elements
          // over all ranks.
          for (const auto& m : mine.first)
            record_check_mismatch(m.expected, m.actual, static_cast<double>(in[m.index]));
          const long long wrong = comm.sum(mine.wrong);
          if (scheduled && !departed && wrong == 0 && right_root < 0) right_root = root;
          if (comm.rank() == 0) record_check_case(static_cast<long long>(count), c.rooted ? root : -1, wrong);
          total += wrong;
          if (comm.rank() == 0)
            print_line(impl.name, std::to_string(count), dtype_name(t), std::to_string(root),
                       in_place ? "in-place" : "out-of-place",
                       twin ? std::to_string(differ) : std::string(csv ? "" : "-"), std::to_string(wrong));
          if (departed) {  // one explanation, then stop: it is the cause of what would follow
            if (comm.rank() == 0) {
              record_check_departure(departure);
              std::fprintf(csv ? stderr : stdout,
                           "diagnosis: %s\nschedule WRONG: %s departs from its schedule; the remaining cases "
                           "were not run.\n",
                           departure.c_str(), impl.name.c_str());
            }
            std::fflush(stdout);
            detail::departed_flag() = true;
            return total;  // the wrong elements only: the departure is departed_from_schedule()'s
          }
        }
      }
    }
  }
  std::fflush(stdout);
  return total;
}

// The benchmark (root 0 for rooted collectives), one table row per implementation and count.
// `after_count` sees each count's rows once they are printed (a lesson's own summary line);
// `rows` collects them all. Returns the number of wrong elements over all ranks.
template <class T>
long long bench(Communicator& comm, const Collective<T>& c, const std::vector<std::size_t>& counts,
                const CommonOptions& opt, std::vector<BenchRow>* rows = nullptr,
                const std::function<void(const std::vector<BenchRow>&)>& after_count = {}) {
  const Where where = comm.where();
  if (where == Where::device && opt.format == Format::table && comm.rank() == 0) {
    std::printf("# device buffers on GPU %d; rank-to-rank transfers: transport %s (%s)\n", comm.gpu(),
                transport_name(comm.transport()), comm.transport_reason().c_str());
    std::printf("# each row's transport:");
    for (std::size_t k = 0; k < c.impls.size(); ++k)
      std::printf(
          "%s %s %s", k ? "," : "", c.impls[k].name.c_str(),
          c.impls[k].transport.empty() ? transport_name(comm.transport()) : c.impls[k].transport.c_str());
    std::printf("\n");
  }
  print_bench_header(comm, opt.format);
  long long total = 0;
  for (std::size_t count : counts) {
    std::vector<T> in(count), expected(count), got(count);
    c.input(in, comm.rank(), 0);
    c.expected(comm, in, expected, 0);
    // Allocated outside the timed region, once per count.
    Buffer<T> in_buf(count, where), out_buf(count, where);
    detail::put(in_buf.view(), in.data());
    std::vector<BenchRow> mine;  // this count's rows: the fastest time, the last call's #wrong
    for (const auto& impl : c.impls) mine.push_back({impl.name, count * sizeof(T), count, dtype_of<T>()});
    const int last = opt.warmup + opt.iters - 1;
    for (int it = 0; it <= last; ++it) {
      for (std::size_t k = 0; k < mine.size(); ++k) {
        View<const T> src = c.out_of_place ? View<const T>(in_buf.view()) : View<const T>(out_buf.view());
        if (c.out_of_place) detail::poison(out_buf.view());
        else detail::put(out_buf.view(), in.data());
        if (where == Where::device) device_ops::synchronize();
        comm.barrier();
        const double t0 = MPI_Wtime();
        c.impls[k].run(comm, src, out_buf.view(), 0);
        if (where == Where::device) device_ops::synchronize();
        const double us = comm.max((MPI_Wtime() - t0) * 1e6);  // done when the last rank is
        if (it >= opt.warmup && (mine[k].time_us == 0 || us < mine[k].time_us)) mine[k].time_us = us;
        if (it == last) {
          detail::get(got.data(), View<const T>(out_buf.view()));
          mine[k].wrong = comm.sum(compare<T>(View<T>(expected), View<T>(got), c.terms).wrong);
        }
      }
    }
    for (std::size_t k = 0; k < mine.size(); ++k) {
      BenchRow& row = mine[k];
      row.algbw = row.time_us > 0 ? row.bytes / (row.time_us * 1e-6) / 1e9 : 0;
      row.busbw = row.algbw * c.impls[k].bus_factor;
      total += row.wrong;
      print_bench_row(comm, opt.format, row);
    }
    if (after_count) after_count(mine);
    if (rows) rows->insert(rows->end(), mine.begin(), mine.end());
  }
  return total;
}

}  // namespace ringlab::harness
