// Small programs for the transport contract (ringlab/transport.hpp): one that keeps it and
// three that rely on what only MPI promises. Under --transport mpi all four finish with the
// right values; under --transport strict the three must fail the way a device transport would,
// with the watchdog's report (exit 3) or one line naming the rule (exit 1).
//   safe-ring         recv j from prev, send j to next, wait: the contract's safe shape
//   two-ahead         the old fast ring's order: recv 0, recv 1, send 0, wait. Recv 1 is the
//                     previous rank's send 1, posted only after its own wait: a cycle
//   send-first-small  both ranks send 4 bytes, then receive: MPI buffers them, NCCL does not
//   out-of-order      rank 0 sends tags 1 then 2, rank 1 receives tag 2 first: MPI matches by
//                     tag, NCCL by order
// Two more break a rule that every host transport checks, mpi included (one line, exit 1):
//   short-message     rank 0 sends 1 int, rank 1 receives into 2: rule 4, a receive is the size
//                     of its send (MPI takes it silently, the second int keeps its old value)
//   send-pending      ranks 0 and 1 each post a receive into a buffer, then send from it: the
//                     buffer holds the message only after the receive's wait
#include <cstdio>
#include <string>
#include <vector>

#include "ringlab/ringlab.hpp"

using namespace ringlab;

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{"The transport contract's cases: one safe, three that only MPI lets through"};
  CommonOptions opt;
  add_common_options(app, opt);
  std::string which = "safe-ring";
  app.add_option("--case", which, "safe-ring, two-ahead, send-first-small, out-of-order, short-message, send-pending")
      ->check(CLI::IsMember(
          {"safe-ring", "two-ahead", "send-first-small", "out-of-order", "short-message", "send-pending"}));
  if (auto code = rt.start(app, opt, argc, argv)) return *code;
  auto& comm = rt.comm();
  const int n = comm.size(), r = comm.rank(), next = (r + 1) % n, prev = (r - 1 + n) % n;
  int none = 0;
  trace::Collective tc(which.c_str(), &none, 0);
  int wrong = 0;

  if (which == "safe-ring" || which == "two-ahead") {
    // Two messages around the ring; message j carries 10 * rank + j.
    int out[2] = {10 * r, 10 * r + 1}, in[2] = {-1, -1};
    if (which == "safe-ring") {
      for (int j = 0; j < 2; ++j) {
        tc.at("ring", j);
        Request rq = comm.irecv(View<int>(&in[j], 1), prev);
        Request sq = comm.isend(View<int>(&out[j], 1), next);
        comm.wait(rq);
        comm.wait(sq);
      }
    } else {
      tc.at("ring", 0);
      Request r0 = comm.irecv(View<int>(&in[0], 1), prev);
      Request r1 = comm.irecv(View<int>(&in[1], 1), prev);
      Request s0 = comm.isend(View<int>(&out[0], 1), next);
      comm.wait(r0);
      tc.at("ring", 1);
      Request s1 = comm.isend(View<int>(&out[1], 1), next);
      comm.wait(r1);
      comm.wait(s0);
      comm.wait(s1);
    }
    for (int j = 0; j < 2; ++j) wrong += in[j] != 10 * prev + j;
  } else if (which == "send-first-small" && n >= 2 && r < 2) {
    int out = r, in = -1;
    tc.at("exchange", 0);
    comm.send(View<int>(&out, 1), 1 - r);
    comm.recv(View<int>(&in, 1), 1 - r);
    wrong += in != 1 - r;
  } else if (which == "out-of-order" && n >= 2 && r < 2) {
    int a = 1, b = 2, got_a = 0, got_b = 0;
    tc.at("exchange", 0);
    if (r == 0) {
      std::vector<Request> sends;
      sends.push_back(comm.isend(View<int>(&a, 1), 1, /*tag=*/1));
      sends.push_back(comm.isend(View<int>(&b, 1), 1, /*tag=*/2));
      comm.wait_all(sends);
    } else {
      std::vector<Request> recvs;
      recvs.push_back(comm.irecv(View<int>(&got_b, 1), 0, /*tag=*/2));
      recvs.push_back(comm.irecv(View<int>(&got_a, 1), 0, /*tag=*/1));
      comm.wait_all(recvs);
      wrong += (got_a != 1) + (got_b != 2);
    }
  } else if (which == "short-message" && n >= 2 && r < 2) {
    int one = 7, two[2] = {-1, -1};
    tc.at("exchange", 0);
    if (r == 0) comm.send(View<int>(&one, 1), 1);
    else comm.recv(View<int>(two, 2), 0);
    wrong += r == 1 && two[0] != 7;
  } else if (which == "send-pending" && n >= 2 && r < 2) {
    int buf = r;
    tc.at("exchange", 0);
    Request incoming = comm.irecv(View<int>(&buf, 1), 1 - r);
    comm.send(View<int>(&buf, 1), 1 - r);
    comm.wait(incoming);
  }
  tc.end(&none, 0);
  const long long all_wrong = comm.sum(static_cast<long long>(wrong));
  if (r == 0) std::printf("%s under %s: #wrong %lld\n", which.c_str(), transport_name(comm.transport()), all_wrong);
  return all_wrong == 0 ? 0 : 1;
}
