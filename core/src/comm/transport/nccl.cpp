// The nccl transport: device buffers through ncclSend / ncclRecv, one GPU per rank (NCCL
// refuses two ranks on one GPU). It is the contract (transport.hpp) taken literally: post()
// records the operation; a wait issues every recorded operation as one NCCL group
// (ncclGroupStart ... ncclGroupEnd) on the kit's NCCL stream, then waits for the stream.
// --transport strict does the same with MPI on the CPU, so an algorithm that passes under strict
// cannot deadlock here.
//
// The wait never blocks inside CUDA: it polls the stream (cudaStreamQuery) and NCCL's error
// state (ncclCommGetAsyncError) under the watchdog. A group whose partner never comes is
// reported like any host hang (who waits for whom), the NCCL communicator is aborted
// (ncclCommAbort) and every rank exits with code 3.
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_side.hpp"
#include "ringlab/comm/comm.hpp"
#include "ringlab/comm/transport.hpp"

namespace ringlab::transport {

struct NcclPosted : Posted {};  // nothing to keep: a wait finishes every posted operation

class Nccl final : public Backend {
 public:
  Nccl(const Wire& wire, void* comm) : wire_(wire), comm_(comm) {
    watchdog::before_abort([comm] { nccl::abort(comm); });
  }
  ~Nccl() override {
    watchdog::before_abort(nullptr);
    nccl::destroy(comm_);
  }
  Transport kind() const override { return Transport::nccl; }
  void* comm() const { return comm_; }

  std::shared_ptr<Posted> post(const Op& op) override {
    posted_.push_back(op);
    return std::make_shared<NcclPosted>();
  }

  void wait(Posted* const*, const watchdog::Pending*, std::size_t) override {
    if (posted_.empty()) return;  // finished with the group that carried it
    nccl::start_group(comm_, posted_.data(), posted_.size());
    std::vector<watchdog::Pending> group;
    for (const Op& o : posted_) group.push_back(o.pending());
    posted_.clear();
    wait_for_stream(group);
  }

  // Waits for everything enqueued on the NCCL stream, under the watchdog.
  void wait_for_stream(const std::vector<watchdog::Pending>& what) {
    watchdog::wait_until(
        wire_.watch, [&] { return nccl::idle(comm_); }, [&] { return what; });
  }

 private:
  Wire wire_;
  void* comm_;
  std::vector<Op> posted_;  // posted since the last wait: the next group
};

bool nccl_loads(std::string* error) { return nccl::load(error); }

std::unique_ptr<Backend> make_nccl(const Wire& wire, std::string* error) {
  if (!nccl::load(error)) return nullptr;
  MPI_Comm c = wire.comm;
  void* comm = nccl::init(&c, wire.rank, wire.size, error);
  if (comm == nullptr) return nullptr;
  return std::make_unique<Nccl>(wire, comm);
}

}  // namespace ringlab::transport

namespace ringlab {
// The benchmarks' library rows (transport.hpp): NCCL's own collectives, enqueued on the same
// stream, then the same watched wait.
namespace {
transport::Nccl& nccl_of(Communicator& comm, const char* what) {
  transport::Backend* b = comm.device_transport();
  if (b == nullptr || b->kind() != Transport::nccl)
    throw std::logic_error(std::string(what) + ": this communicator's transport is not nccl");
  return static_cast<transport::Nccl&>(*b);
}
}  // namespace

void nccl_allreduce(Communicator& comm, DType t, const void* in, void* out, std::size_t count) {
  transport::Nccl& n = nccl_of(comm, "nccl_allreduce");
  nccl::start_allreduce_sum(n.comm(), t, in, out, count);
  n.wait_for_stream({{false, -1, 0, count * dtype_size(t)}});
}

void nccl_broadcast(Communicator& comm, DType t, void* buf, std::size_t count, int root) {
  transport::Nccl& n = nccl_of(comm, "nccl_broadcast");
  nccl::start_broadcast(n.comm(), t, buf, count, root);
  n.wait_for_stream({{comm.rank() != root, root, 0, count * dtype_size(t)}});
}

}  // namespace ringlab
