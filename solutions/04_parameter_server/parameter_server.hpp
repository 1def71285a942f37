// Lesson 04 — the parameter server: one rank holds the parameters, the others compute gradients.
//
// Synchronous. Every step, every worker pushes its gradient to the server; the server waits
// for all of them, averages, takes an SGD step, and every worker pulls the new parameters:
//
//        worker 1 --g1-->            <--p-- worker 1
//        worker 2 --g2-->  server    <--p-- worker 2      server: p -= lr * (g1+g2+g3)/3
//        worker 3 --g3-->            <--p-- worker 3
//             push                        pull
//
// Cost per step with N ranks (1 server, N-1 workers) and S bytes of parameters: the server
// receives (N-1)*S and sends (N-1)*S — 2(N-1)*S through one rank's link, growing with N —
// while each worker moves only 2*S. The ring allreduce of lesson 05 spreads the same work so
// that every rank sends and receives 2(N-1)/N*S: nearly constant in N.
//
// Asynchronous. Workers do not wait for each other: each pushes its gradient and pulls the
// parameters the server has *now*; the server applies every gradient as it arrives. Nobody
// idles for a slow worker, but a gradient may have been computed on parameters that have
// since been updated by other workers: its *staleness* is how many updates old they were.
//
//   server version:   0     1     2     3     4
//   worker 1 pulls v0 ------------ pushes g(v0), applied as update 3: staleness 2
#pragma once
#include <vector>

#include "ringlab/comm/any_source.hpp"
#include "ringlab/ringlab.hpp"

namespace lesson04 {
using ringlab::View;

constexpr int kServer = 0;

// --- synchronous ---------------------------------------------------------------------------

// A worker's part of one step: push my gradient, pull the new parameters.
template <class T>
void worker_step(ringlab::Communicator& comm, View<const T> grad, View<T> params, int step) {
  ringlab::trace::Collective tc("parameter_server", grad.data(), grad.size());
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
  tc.end(params.data(), params.size());
}

// The server's part: receive every worker's gradient (in rank order), average them, take one
// SGD step, send the parameters back to every worker. `sum` and `incoming` are scratch buffers
// of the parameters' size.
template <class T>
void server_step(ringlab::Communicator& comm, View<T> params, View<T> sum, View<T> incoming, T lr, int step) {
  const int workers = comm.size() - 1;
  ringlab::trace::Collective tc("parameter_server", params.data(), params.size());
  // ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
  // ==== END EXERCISE ====
  tc.end(params.data(), params.size());
}

// --- asynchronous --------------------------------------------------------------------------
// Messages carry one extra element at the end: the parameters' version (how many updates the
// server had applied when it sent them). A worker sends that version back with the gradient it
// computed from them, so the server can tell how stale the gradient is. (A float holds whole
// numbers exactly up to 2^24, plenty for a lesson's number of updates.)

// A worker: pull the current parameters, then `steps` times: compute a gradient, push it,
// pull the parameters that come back. `gradient(params, grad, k)` fills grad (size S) from
// params (size S) for this worker's k-th step. `msg` has S + 1 elements.
template <class T, class GradientFn>
void async_worker(ringlab::Communicator& comm, View<T> msg, int steps, GradientFn&& gradient) {
  const std::size_t S = msg.size() - 1;
  std::vector<T> params(S), grad(S);
  ringlab::trace::Collective tc("async_parameter_server", msg.data(), msg.size());
  tc.at("pull", 0);
  comm.recv(msg, kServer);
  for (int k = 0; k < steps; ++k) {
    std::copy(msg.begin(), msg.begin() + S, params.begin());
    const T version = msg[S];
    gradient(params, grad, k);
    std::copy(grad.begin(), grad.end(), msg.begin());
    msg[S] = version;  // "this gradient was computed from version v"
    tc.at("push", k);
    comm.send(msg, kServer);
    tc.at("pull", k + 1);
    comm.recv(msg, kServer);
  }
  tc.end(msg.data(), msg.size());
}

// The server: send version 0 to every worker, then apply `updates` gradients in the order they
// arrive, each scaled by lr, answering each worker with the parameters as they are now.
// `on_update(update, worker, staleness, params)` is called after each update.
template <class T, class OnUpdate>
void async_server(ringlab::Communicator& comm, View<T> params, int updates, T lr, OnUpdate&& on_update) {
  const std::size_t S = params.size();
  std::vector<T> msg(S + 1);
  ringlab::trace::Collective tc("async_parameter_server", params.data(), params.size());
  int version = 0;
  auto send_params = [&](int worker) {
    std::copy(params.begin(), params.end(), msg.begin());
    msg[S] = static_cast<T>(version);
    comm.send(View<const T>(msg), worker);
  };
  tc.at("pull", 0);
  for (int w = 1; w < comm.size(); ++w) send_params(w);
  for (int u = 0; u < updates; ++u) {
    tc.at("push", u);
    const int worker = ringlab::recv_from_any(comm, View<T>(msg));  // whoever is first
    const int staleness = version - static_cast<int>(msg[S]);
    for (std::size_t i = 0; i < S; ++i) params[i] -= lr * msg[i];
    ++version;
    on_update(u, worker, staleness, params);
    tc.at("pull", u + 1);
    send_params(worker);
  }
  tc.end(params.data(), params.size());
}

}  // namespace lesson04
