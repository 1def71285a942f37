// Lesson 03 — why broadcast: data-parallel replicas must start from the same state.
//
// Every rank applies the same averaged gradient. If they start from the same state, they stay
// the same forever (bit for bit: the same numbers through the same operations). If they do
// not — different random seeds, or rank 0 resumed from a checkpoint while the others started
// fresh — they are different models that happen to share gradients, and they drift apart.
//
// "The state" is more than the parameters: the optimizer's momentum buffers, its step counter
// and the learning-rate schedule's position all change what the next update is. Horovod's
// broadcast_parameters + broadcast_optimizer_state do what broadcast_state does here.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "broadcast.hpp"

namespace lesson03 {

struct TrainState {
  // Parameters and momentum buffers by name, e.g. "model.weight", "optim.momentum.model.weight".
  // A std::map walks its entries sorted by name: the same order on every rank, whatever order
  // each rank created them in. (Walk an unordered_map and rank 1 might receive the momentum
  // into its weights.)
  std::map<std::string, std::vector<float>> tensors;
  std::int64_t step = 0;   // optimizer steps taken (drives the warm-up)
  double lr_position = 0;  // where the learning-rate schedule is, in epochs
};

// Makes every rank's state a copy of the root's: every tensor in name order, then the counters.
inline void broadcast_state(ringlab::Communicator& comm, TrainState& s, int root) {
  for (auto& [name, tensor] : s.tensors) tree_broadcast(comm, View<float>(tensor), root);
  tree_broadcast(comm, View<std::int64_t>(&s.step, 1), root);
  tree_broadcast(comm, View<double>(&s.lr_position, 1), root);
}

}  // namespace lesson03
