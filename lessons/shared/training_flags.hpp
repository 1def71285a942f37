// The flags of the training lessons (06, 07, 08, 09), declared once so that each means the same in
// every lesson: --data, --epochs, --batch (the GLOBAL batch, split evenly across the ranks),
// --lr, --momentum, --seed. A lesson sets its defaults in TrainingFlags, then adds its own flags.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "ringlab/ml/fashion_mnist.hpp"
#include "ringlab/ringlab.hpp"

namespace lessons {

// --layers of lessons 08 and 09: hidden layer sizes, "512,512,256" -> {512, 512, 256}; empty on a
// malformed list (the lesson refuses it in one line).
inline std::vector<int> parse_layers(const std::string& text) {
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

struct TrainingFlags {
  std::string data = ringlab::kFashionMnistDir;
  int epochs = 10;
  int batch = 128;  // global: every rank takes batch / n of it
  float lr = 0.03f;
  float momentum = 0.9f;
  std::uint64_t seed = 1;
};

// Bounded one by one so that no product of them (steps = examples / batch, ...) can overflow.
inline void add_training_flags(CLI::App& app, TrainingFlags& f) {
  using ringlab::add_number;
  app.add_option("--data", f.data, "Folder with the Fashion-MNIST .gz files, or 'synthetic' (small, for tests)")
      ->capture_default_str();
  add_number(app, "--epochs", f.epochs, "Passes over the training set", 1, 100000);
  add_number(app, "--batch", f.batch, "GLOBAL batch size, split evenly across the ranks", 1, 1 << 24);
  add_number(app, "--lr", f.lr, "Learning rate", 0, 100);
  add_number(app, "--momentum", f.momentum, "SGD momentum", 0, 1);
  app.add_option("--seed", f.seed, "Seed of rank 0's initial weights and of the data order")
      ->capture_default_str()
      ->transform(ringlab::whole_number_at_least(0));
}

// What the flags must satisfy together on n ranks; every rank checks the same, all exit 2.
inline std::optional<int> refuse_bad_training_flags(ringlab::Runtime& rt, const TrainingFlags& f, int n) {
  if (auto e = rt.fail_if(f.batch % n != 0, "--batch " + std::to_string(f.batch) + " is not divisible by -np " +
                                                std::to_string(n) + ": every rank takes an equal part of it"))
    return e;
  return rt.fail_if(!(f.lr > 0) || !(f.momentum >= 0 && f.momentum < 1),
                    "--lr must be > 0 and --momentum in [0, 1), got " + std::to_string(f.lr) + " and " +
                        std::to_string(f.momentum));
}

// The data set into `sets`, and the global batch checked against it; on failure, the exit code.
inline std::optional<int> load_training_data(ringlab::Runtime& rt, const TrainingFlags& f,
                                             ringlab::TrainTest* sets) {
  std::string error;
  auto loaded = ringlab::load_data(f.data, &error);
  if (auto e = rt.fail_if(!loaded, error)) return e;
  *sets = std::move(*loaded);
  return rt.fail_if(f.batch > sets->train.count, "--batch " + std::to_string(f.batch) + ": larger than the " +
                                                     std::to_string(sets->train.count) +
                                                     " training examples");
}

}  // namespace lessons
