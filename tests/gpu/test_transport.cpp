// The communicator's point-to-point calls on every transport, through the patterns the kit's
// collectives use: sendrecv around a ring (itself at np 1), isend + irecv waited in either
// order, many posted segments waited one by one (the fast ring, the chain broadcast),
// blocking send/recv pairs, Views in the middle of an allocation (IPC handles name whole
// allocations), and the communicator's scratch as a receive buffer. Every received element is
// compared with what its sender put there.
//   mpirun -np 3 test_transport --device cuda --transport ipc
// With --device cpu the same patterns run on host buffers (the default suite runs it so);
// with --device cuda it tests the transport named (label gpu).
#include <cstdio>
#include <string>
#include <vector>

#include "ringlab/ringlab.hpp"

using namespace ringlab;

namespace {

int g_wrong = 0;

// What rank `from` sends in pattern `p`: easy to recompute on the receiver.
std::int32_t value(int p, int from, std::size_t i) {
  return static_cast<std::int32_t>(1000000 * p + 1000 * from + static_cast<std::int32_t>(i % 997));
}

void fill_from(View<std::int32_t> v, int p, int from, std::size_t first = 0) {
  std::vector<std::int32_t> h(v.size());
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = value(p, from, first + i);
  harness::detail::put(v, h.data());
}

void expect_from(Communicator& comm, const char* what, View<const std::int32_t> v, int p, int from,
                 std::size_t first = 0) {
  std::vector<std::int32_t> h(v.size());
  harness::detail::get(h.data(), v);
  long long wrong = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < h.size(); ++i)
    if (h[i] != value(p, from, first + i) && wrong++ == 0) at = i;
  if (wrong) {
    std::printf("rank %d: %s: %lld of %zu elements wrong, first at %zu: got %d, expected %d (from rank %d)\n",
                comm.rank(), what, wrong, h.size(), at, h[at], value(p, from, first + at), from);
    ++g_wrong;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{"The communicator's point-to-point patterns on host or device buffers, every transport"};
  CommonOptions opt;
  opt.count = 300007;  // odd: chunks and segments do not divide it
  opt.runs_on_gpu = true;
  add_common_options(app, opt);
  if (auto code = rt.start(app, opt, argc, argv, 4)) return *code;
  auto& comm = rt.comm();
  const int n = comm.size(), r = comm.rank();
  const int next = (r + 1) % n, prev = (r - 1 + n) % n;
  const std::size_t count = static_cast<std::size_t>(opt.count);
  const Where where = comm.where();

  // 1. sendrecv around the ring (to itself at np 1).
  {
    Buffer<std::int32_t> out(count, where), in(count, where);
    fill_from(out.view(), 1, r);
    comm.sendrecv(out.view(), next, in.view(), prev);
    expect_from(comm, "sendrecv", in.view(), 1, prev);
  }
  // 2. isend + irecv, the receive waited first, then the send; and the other order.
  for (int order = 0; order < 2; ++order) {
    Buffer<std::int32_t> out(count, where), in(count, where);
    fill_from(out.view(), 2 + order, r);
    Request rx = comm.irecv(in.view(), prev);
    Request tx = comm.isend(out.view(), next);
    comm.wait(order == 0 ? rx : tx);  // order 0: the receive first, then the send; 1: the other way
    comm.wait(order == 0 ? tx : rx);
    expect_from(comm, order == 0 ? "isend/irecv, receive waited first" : "isend/irecv, send waited first",
                in.view(), 2 + order, prev);
  }
  // 3. Many segments posted at once, Views in the middle of one allocation, receives waited one
  //    by one before the sends (the fast ring's and the chain broadcast's shape).
  {
    const int k = 7;
    Buffer<std::int32_t> out(count, where), in(count, where);
    fill_from(out.view(), 4, r);
    auto segment = [&](View<std::int32_t> v, int s) {  // [count * s / k, count * (s + 1) / k)
      return v.sub(count * s / k, count * (s + 1) / k - count * s / k, s);
    };
    std::vector<Request> sends, recvs;
    for (int s = 0; s < k; ++s) recvs.push_back(comm.irecv(segment(in.view(), s), prev));
    for (int s = 0; s < k; ++s) sends.push_back(comm.isend(segment(out.view(), s), next));
    for (auto& rq : recvs) comm.wait(rq);
    comm.wait_all(sends);
    expect_from(comm, "segments", in.view(), 4, prev);
  }
  // 4. Blocking pairs: even ranks send then receive, odd ranks receive then send.
  if (n >= 2 && !(n % 2 == 1 && r == n - 1)) {
    const int partner = r % 2 == 0 ? r + 1 : r - 1;
    Buffer<std::int32_t> out(count, where), in(count, where);
    fill_from(out.view(), 5, r);
    if (r % 2 == 0) {
      comm.send(out.view(), partner);
      comm.recv(in.view(), partner);
    } else {
      comm.recv(in.view(), partner);
      comm.send(out.view(), partner);
    }
    expect_from(comm, "blocking pair", in.view(), 5, partner);
  }
  // 5. Into the communicator's scratch, twice (the second reuses it), from an offset View.
  {
    Buffer<std::int32_t> out(count + 5, where);
    fill_from(out.view(), 6, r);
    View<std::int32_t> src = out.view().sub(5, count);
    for (int round = 0; round < 2; ++round) {
      View<std::int32_t> scratch = comm.scratch_like(src);
      comm.sendrecv(src, next, scratch, prev);
      expect_from(comm, "into scratch", scratch, 6, prev, 5);
    }
  }
  // 6. Zero elements, and one.
  for (std::size_t c : {std::size_t(0), std::size_t(1)}) {
    Buffer<std::int32_t> out(c, where), in(c, where);
    fill_from(out.view(), 7, r);
    comm.sendrecv(out.view(), next, in.view(), prev);
    expect_from(comm, c == 0 ? "zero elements" : "one element", in.view(), 7, prev);
  }

  const long long wrong = comm.sum(static_cast<long long>(g_wrong));
  if (r == 0)
    std::printf("%s: %d ranks, %s buffers, transport %s: %s\n", wrong ? "FAILED" : "PASSED", n,
                where == Where::device ? "device" : "host", transport_name(comm.transport()),
                wrong ? "see the lines above" : "every pattern delivered every element");
  return wrong ? 1 : 0;
}
