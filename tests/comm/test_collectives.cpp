// reduce_scatter and allgather (core/include/ringlab/comm/collectives.hpp) on real MPI ranks, every
// element checked exactly: each rank's inputs are small integers, so every sum is exact in every
// type (float included), and any wrong, missing or doubled contribution shows.
//   mpirun -np 3 test_collectives [--device cuda] [--transport strict] [--diagram collectives.hpp]
// For every type (float, double, int32, int64), counts {0, 1, n-1, n+1, 10n+3, 100003} (chunks of
// unequal sizes, empty ones, several segments per chunk) and two segment sizes (the default, and
// 24 bytes: many messages per step, ragged last segments), it checks:
//   reduce_scatter out of place   own chunk == the sum over ranks; `in` untouched
//   reduce_scatter in place       own chunk == the sum
//   allgather in place            every chunk == its owner's part; allgather from `mine` the same
//   allreduce                     still every element == the sum (it shares the ring's stream)
// and, on host buffers, the schedule each rank's trace shows against the rule in the header:
//   reduce-scatter step s: rank r sends chunk r-1-s;  allgather step a: rank r sends chunk r-a
// With --diagram, the 3-rank picture in the header's comment must show the same sends.
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "ringlab/comm/allreduce.hpp"
#include "ringlab/comm/collectives.hpp"
#include "ringlab/ringlab.hpp"

using namespace ringlab;

namespace {

int g_wrong = 0;
int wrap(int i, int n) { return ((i % n) + n) % n; }

// Rank `r`'s element i: a small integer, different on every rank and along the buffer.
long long value(int r, std::size_t i) { return 1000LL * (r + 1) + static_cast<long long>(i % 997); }

template <class T> void fill_rank(View<T> v, int r) {
  std::vector<T> h(v.size());
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<T>(value(r, i));
  harness::detail::put(v, h.data());
}
template <class T> std::vector<T> fetch(View<T> v) {
  std::vector<T> h(v.size());
  harness::detail::get(h.data(), View<const T>(v));
  return h;
}

// Elements [c.offset, c.offset + c.count) of `got` against want(i); one line for the first wrong one.
template <class T, class F>
void expect(Communicator& comm, const std::string& what, const std::vector<T>& got, Chunk c, F want) {
  long long wrong = 0;
  std::size_t at = 0;
  for (std::size_t i = c.offset; i < c.offset + c.count; ++i)
    if (got[i] != static_cast<T>(want(i)) && wrong++ == 0) at = i;
  if (!wrong) return;
  std::printf("rank %d: %s: %lld of %zu elements wrong, first [%zu]: got %.17g, expected %.17g\n",
              comm.rank(), what.c_str(), wrong, c.count, at, double(got[at]),
              double(static_cast<T>(want(at))));
  ++g_wrong;
}

template <class T> void check_type(Communicator& comm, std::size_t count, const FastRingOptions& fr) {
  const int n = comm.size(), r = comm.rank();
  const Where where = comm.where();
  const Chunk own = owned_chunk(count, n, r), all{0, count};
  auto sum = [n](std::size_t i) {
    long long s = 0;
    for (int k = 0; k < n; ++k) s += value(k, i);
    return s;
  };
  const std::string tag = std::string(dtype_name(dtype_of<T>())) + " count " + std::to_string(count) +
                          " segment " + std::to_string(fr.segment_bytes) + ": ";
  Buffer<T> a(count, where), b(count, where);

  fill_rank(a.view(), r);  // reduce_scatter, out of place
  fill_rank(b.view(), 77);
  reduce_scatter(comm, View<const T>(a.view()), b.view(), fr);
  expect(comm, tag + "reduce_scatter out of place, own chunk", fetch(b.view()), own, sum);
  expect(comm, tag + "reduce_scatter out of place changed its input", fetch(a.view()), all,
         [r](std::size_t i) { return value(r, i); });

  fill_rank(a.view(), r);  // reduce_scatter, in place
  reduce_scatter(comm, View<const T>(a.view()), a.view(), fr);
  expect(comm, tag + "reduce_scatter in place, own chunk", fetch(a.view()), own, sum);

  // allgather, in place: only the own chunk holds this rank's part on entry, the rest is junk.
  fill_rank(a.view(), 77);
  fill_rank(b.view(), r);
  if (own.count)
    copy(a.view().sub(own.offset, own.count), View<const T>(b.view().sub(own.offset, own.count)));
  allgather(comm, a.view(), fr);
  auto owners = [&](std::size_t i) {
    for (int k = 0; k < n; ++k) {
      const Chunk c = owned_chunk(count, n, k);
      if (i >= c.offset && i < c.offset + c.count) return value(k, i);
    }
    return -1LL;
  };
  expect(comm, tag + "allgather in place", fetch(a.view()), all, owners);

  fill_rank(a.view(), 77);  // allgather from a separate buffer of the own chunk's size
  Buffer<T> mine(own.count, where);
  if (own.count) copy(mine.view(), View<const T>(b.view().sub(own.offset, own.count)));
  allgather(comm, View<const T>(mine.view()), a.view(), fr);
  expect(comm, tag + "allgather from mine", fetch(a.view()), all, owners);

  fill_rank(a.view(), r);  // the allreduce, the whole stream
  ring_allreduce_fast(comm, View<const T>(a.view()), a.view(), fr);
  expect(comm, tag + "ring_allreduce_fast", fetch(a.view()), all, sum);
}

// The chunk rank r sends at each step, by the header's rule.
int rule_chunk(bool reduce_scatter, int r, int step, int n) {
  return wrap(reduce_scatter ? r - 1 - step : r - step, n);
}

// On host buffers: every send in the trace goes where the rule says; n-1 steps per phase.
void check_schedule(Communicator& comm) {
  const int n = comm.size(), r = comm.rank();
  if (n == 1 || comm.where() != Where::host) return;
  std::vector<int> data(static_cast<std::size_t>(5 * n + 2));
  trace::Capture capture;
  fill_rank(View<int>(data), r);
  reduce_scatter(comm, View<const int>(data), View<int>(data));
  allgather(comm, View<int>(data));
  int sends = 0;
  for (const auto& e : capture.take()) {
    if (e.op != trace::Op::send) continue;
    ++sends;
    const bool rs = e.coll == "reduce_scatter";
    const int want = rule_chunk(rs, r, e.step, n);
    if (e.chunk != want || e.peer != (r + 1) % n || e.phase != (rs ? "reduce-scatter" : "allgather")) {
      std::printf("rank %d: %s %s step %d sent chunk %d to rank %d, the rule says chunk %d to rank %d\n", r,
                  e.coll.c_str(), e.phase.c_str(), e.step, e.chunk, e.peer, want, (r + 1) % n);
      ++g_wrong;
    }
  }
  if (sends != 2 * (n - 1)) {
    std::printf("rank %d: %d sends in a reduce_scatter and an allgather, expected 2(n-1) = %d\n", r, sends,
                2 * (n - 1));
    ++g_wrong;
  }
}

// A reduce-scatter handed the communicator's scratch (comm.scratch_like) as its output would
// receive into its own argument: refused on every rank, naming the call and the argument.
// (On 1 rank nothing is received, so nothing is refused.)
void check_scratch_refused(Communicator& comm) {
  if (comm.size() == 1) return;
  Buffer<int> in(static_cast<std::size_t>(4 * comm.size()), comm.where());
  fill_rank(in.view(), comm.rank());
  reduce_scatter(comm, View<const int>(in.view()), in.view());  // (the ring's scratch now exists)
  const std::string want = "reduce_scatter: its out is the communicator's scratch (a View from comm.scratch_like)";
  try {
    reduce_scatter(comm, View<const int>(in.view()), comm.scratch_like(in.view()));
    std::printf("rank %d: reduce_scatter into comm.scratch_like(...) was not refused\n", comm.rank());
    ++g_wrong;
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find(want) != 0) {
      std::printf("rank %d: reduce_scatter into scratch refused as \"%s\", expected \"%s …\"\n", comm.rank(),
                  e.what(), want.c_str());
      ++g_wrong;
    }
  }
}

// A sendrecv whose landing buffer overlaps what it sends (a chunk of the buffer it works in, where
// scratch belongs): refused on every rank before anything moves, naming the overlap. (The check
// is local, so 1 rank, sending to itself, is refused too.)
void check_overlapping_sendrecv_refused(Communicator& comm) {
  Buffer<int> buf(8, comm.where());
  const int next = (comm.rank() + 1) % comm.size(), prev = (comm.rank() + comm.size() - 1) % comm.size();
  const std::string want = "rank " + std::to_string(comm.rank()) +
                           "'s sendrecv receives into memory that it sends from at the same time (16 bytes received, "
                           "16 sent, overlapping)";
  try {
    comm.sendrecv(buf.view().sub(0, 4), next, buf.view().sub(2, 4), prev);
    std::printf("rank %d: a sendrecv into the memory it sends was not refused\n", comm.rank());
    ++g_wrong;
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find(want) != 0) {
      std::printf("rank %d: the overlapping sendrecv refused as \"%s\", expected \"%s …\"\n", comm.rank(), e.what(),
                  want.c_str());
      ++g_wrong;
    }
  }
}

// The header's 3-rank picture: each "step s   r0 --chunk C--> r1, ..." line, in the
// reduce-scatter part and then the allgather part, must show the rule's chunks.
void check_diagram(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::printf("cannot read %s\n", path.c_str());
    ++g_wrong;
    return;
  }
  const std::regex step_line(R"(step (\d+) +(.*))"), arrow(R"(r(\d) --chunk (\d)--> r(\d))");
  bool rs = true;
  int checked = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.find("allgather: step a") != std::string::npos) rs = false;
    std::smatch m;
    if (!std::regex_search(line, m, step_line)) continue;
    const int step = std::stoi(m[1]);
    const std::string sends = m[2];
    for (auto it = std::sregex_iterator(sends.begin(), sends.end(), arrow); it != std::sregex_iterator();
         ++it) {
      const int from = std::stoi((*it)[1]), c = std::stoi((*it)[2]), to = std::stoi((*it)[3]);
      ++checked;
      if (c != rule_chunk(rs, from, step, 3) || to != (from + 1) % 3) {
        std::printf(
            "%s: the picture's %s step %d shows r%d --chunk %d--> r%d, the rule says chunk %d to r%d\n",
            path.c_str(), rs ? "reduce-scatter" : "allgather", step, from, c, to,
            rule_chunk(rs, from, step, 3), (from + 1) % 3);
        ++g_wrong;
      }
    }
  }
  if (checked != 12) {  // 2 phases x 2 steps x 3 ranks
    std::printf("%s: the picture shows %d sends, expected 12\n", path.c_str(), checked);
    ++g_wrong;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{"reduce_scatter and allgather: every type, uneven counts, host or device, checked exactly"};
  CommonOptions opt;
  opt.runs_on_gpu = true;
  add_common_options(app, opt);
  std::string diagram;
  app.add_option("--diagram", diagram, "Also check the 3-rank picture in this header's comment");
  if (auto code = rt.start(app, opt, argc, argv, 4)) return *code;
  auto& comm = rt.comm();
  const int n = comm.size();

  const std::size_t m = static_cast<std::size_t>(n);
  const std::vector<std::size_t> counts{0, 1, m - 1, m + 1, 10 * m + 3, 100003};
  for (DType t : {DType::f32, DType::f64, DType::i32, DType::i64})
    for (std::size_t count : counts)
      for (std::size_t segment : {std::size_t(256) << 10, std::size_t(24)}) {
        if (segment == 24 && count > 1000) continue;  // a message per 24 bytes: small buffers only
        FastRingOptions fr;
        fr.segment_bytes = segment;
        dispatch(t, [&](auto zero) { check_type<decltype(zero)>(comm, count, fr); });
      }
  check_schedule(comm);
  check_scratch_refused(comm);
  check_overlapping_sendrecv_refused(comm);
  if (!diagram.empty() && comm.rank() == 0) check_diagram(diagram);

  const long long wrong = comm.sum(static_cast<long long>(g_wrong));
  if (comm.rank() == 0)
    std::printf(
        "%s: %d ranks, %s buffers, transport %s: %s\n", wrong ? "FAILED" : "PASSED", n,
        comm.where() == Where::device ? "device" : "host", transport_name(comm.transport()),
        wrong ? "see the lines above" : "reduce_scatter and allgather right for every type and count");
  return wrong ? 1 : 0;
}
