// The staged transport: device buffers through host memory, what an MPI that is not CUDA-aware
// forces. A send copies the device buffer down into pinned host memory and posts that through
// the mpi transport; a receive lands in pinned memory and is copied up when its wait returns.
// The contract (transport.hpp) holds because the mpi transport's holds.
#include <algorithm>
#include <vector>

#include "ringlab/comm/ops.hpp"
#include "ringlab/comm/transport.hpp"

namespace ringlab::transport {
namespace {

struct StagedPosted : Posted {
  std::shared_ptr<Posted> host;  // the mpi transport's operation on the pinned copy
  void* pinned = nullptr;
  void* device_dst = nullptr;  // a receive: where its bytes go when it finishes
  std::size_t bytes = 0;
};

class Staged final : public Backend {
 public:
  explicit Staged(Backend& host) : host_(host) {}
  ~Staged() override {
    for (auto& s : pool_) device_ops::release_pinned(s.data);
  }
  Transport kind() const override { return Transport::staged; }

  std::shared_ptr<Posted> post(const Op& op) override {
    auto p = std::make_shared<StagedPosted>();
    p->bytes = op.count * dtype_size(op.dtype);
    p->pinned = take(p->bytes);
    if (op.send) device_ops::copy(p->pinned, op.data, p->bytes);
    else p->device_dst = op.data;
    Op on_host = op;
    on_host.data = p->pinned;
    p->host = host_.post(on_host);
    return p;
  }

  void wait(Posted* const* ops, const watchdog::Pending* what, std::size_t n) override {
    std::vector<Posted*> host_ops(n);
    for (std::size_t i = 0; i < n; ++i) host_ops[i] = static_cast<StagedPosted*>(ops[i])->host.get();
    host_.wait(host_ops.data(), what, n);
    for (std::size_t i = 0; i < n; ++i) {
      auto& p = *static_cast<StagedPosted*>(ops[i]);
      if (!p.pinned) continue;  // finished by an earlier wait
      if (p.device_dst) device_ops::copy(p.device_dst, p.pinned, p.bytes);
      give_back(p.pinned);
      p.pinned = nullptr;
    }
  }

 private:
  // Pinned host buffers, reused (busy while a transfer uses one).
  struct Pinned {
    void* data;
    std::size_t bytes;
    bool busy;
  };
  void* take(std::size_t bytes) {
    for (auto& s : pool_)
      if (!s.busy && s.bytes >= bytes) {
        s.busy = true;
        return s.data;
      }
    const std::size_t size = std::max<std::size_t>(bytes, 64);
    pool_.push_back({device_ops::allocate_pinned(size), size, true});
    return pool_.back().data;
  }
  void give_back(void* p) {
    for (auto& s : pool_)
      if (s.data == p) s.busy = false;
  }

  Backend& host_;
  std::vector<Pinned> pool_;
};

}  // namespace

std::unique_ptr<Backend> make_staged(Backend& host) { return std::make_unique<Staged>(host); }

}  // namespace ringlab::transport
