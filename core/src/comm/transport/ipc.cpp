// The ipc transport: ranks on one host read each other's GPU buffers (CUDA IPC, cuda_side.hpp)
// and copy device to device, NCCL's P2P transport inside a node written out. Each transfer
// exchanges two small MPI messages, on communicators of their own so they never match a data
// message or each other:
//   sender, at post:    finish its GPU work on the buffer, send "ready" (where to read), post "done"
//   receiver, in a wait: take "ready", copy from the peer's memory into its own, sync, send "done"
//   sender, in a wait:   take "done": the peer has read the buffer, it may change again
// The contract (transport.hpp): every wait, whatever it waits for, pulls every posted receive
// whose "ready" has come, as MPI's progress engine moves every posted receive. So a group the
// contract says can finish does finish here.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_side.hpp"
#include "ringlab/comm/ops.hpp"
#include "ringlab/comm/transport.hpp"

namespace ringlab::transport {
namespace {

struct IpcPosted : Posted {
  Op op;
  ipc::Target target{};  // the sender's buffer: sent by the sender, received by the receiver
  std::uint64_t done_bytes = 0;
  MPI_Request ready = MPI_REQUEST_NULL, done = MPI_REQUEST_NULL;
  bool copied = false;  // receiver: the bytes are here and "done" is on its way
  double gpu_t0 = 0, gpu_t1 = 0;
  void annotate(trace::Event& e) const override {
    e.gpu_t0 = gpu_t0;
    e.gpu_t1 = gpu_t1;
  }
};

class Ipc final : public Backend {
 public:
  explicit Ipc(const Wire& wire) : wire_(wire) {
    MPI_Comm_dup(wire_.comm, &ready_);
    MPI_Comm_dup(wire_.comm, &done_);
  }
  // Teardown, while MPI runs: close every peer buffer this rank opened, then a barrier, so no
  // rank frees memory another still has open (the communicator frees retired buffers after).
  ~Ipc() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    ipc::close_all();
    MPI_Barrier(wire_.comm);
    MPI_Comm_free(&ready_);
    MPI_Comm_free(&done_);
  }
  Transport kind() const override { return Transport::ipc; }
  std::vector<MPI_Comm> channels() const override { return {ready_, done_}; }

  std::shared_ptr<Posted> post(const Op& op) override {
    auto p = std::make_shared<IpcPosted>();
    p->op = op;
    const std::size_t bytes = op.count * dtype_size(op.dtype);
    if (op.send) {
      // The peer may read this buffer as soon as it hears "ready": whatever this rank's GPU
      // still has queued on it (the addition that produced the chunk, say) must finish first.
      device_ops::synchronize();
      if (bytes > 0) p->target = ipc::target_of(op.data, bytes);
      MPI_Isend(&p->target, sizeof p->target, MPI_BYTE, op.peer, op.wire_tag, ready_, &p->ready);
      MPI_Irecv(&p->done_bytes, 1, MPI_UINT64_T, op.peer, op.wire_tag, done_, &p->done);
    } else {
      MPI_Irecv(&p->target, sizeof p->target, MPI_BYTE, op.peer, op.wire_tag, ready_, &p->ready);
      receives_.push_back(p);
    }
    return p;
  }

  void wait(Posted* const* ops, const watchdog::Pending* what, std::size_t n) override {
    auto finished = [&](IpcPosted& p) {
      if (!p.op.send && !p.copied) return false;
      for (MPI_Request* q : {&p.ready, &p.done}) {
        int flag = 1;
        if (*q != MPI_REQUEST_NULL) MPI_Test(q, &flag, MPI_STATUS_IGNORE);
        if (!flag) return false;
      }
      return true;
    };
    auto done = [&] {
      serve_receives();
      return std::all_of(ops, ops + n, [&](Posted* p) { return finished(*static_cast<IpcPosted*>(p)); });
    };
    auto still_waiting = [&] {
      std::vector<watchdog::Pending> left;
      for (std::size_t i = 0; i < n; ++i)
        if (!finished(*static_cast<IpcPosted*>(ops[i]))) left.push_back(what[i]);
      return left;
    };
    watchdog::wait_until(wire_.watch, done, still_waiting);
  }

 private:
  // Pulls every posted receive whose "ready" has arrived, and sends its "done".
  void serve_receives() {
    std::erase_if(receives_, [&](const std::weak_ptr<IpcPosted>& posted) {
      std::shared_ptr<IpcPosted> p = posted.lock();
      int arrived = 0;
      if (p) MPI_Test(&p->ready, &arrived, MPI_STATUS_IGNORE);
      if (p && arrived) pull(*p);
      return !p || arrived;  // pulled, or its request is gone
    });
  }

  // Copies the sender's bytes into this rank's buffer (reading a peer's allocation through its
  // opened handle, or this rank's own directly: CUDA cannot open a handle in the process that
  // made it), then tells the sender it may reuse its buffer.
  void pull(IpcPosted& p) {
    const std::size_t room = p.op.count * dtype_size(p.op.dtype);
    if (p.target.bytes > room)
      throw std::runtime_error("ipc transport: rank " + std::to_string(p.op.peer) + " sends " +
                               std::to_string(p.target.bytes) + " bytes to rank " + std::to_string(wire_.rank) +
                               ", whose receive holds " + std::to_string(room));
    if (p.target.bytes > 0) {
      const void* src = p.op.peer == wire_.rank ? reinterpret_cast<const void*>(p.target.pointer)
                                                 : ipc::open(p.op.peer, p.target);
      void* gpu_t0 = trace::enabled() ? device_ops::gpu_mark() : nullptr;
      device_ops::copy(p.op.data, src, p.target.bytes);
      if (gpu_t0) {
        void* gpu_t1 = device_ops::gpu_mark();
        p.gpu_t0 = device_ops::gpu_mark_us(gpu_t0);
        p.gpu_t1 = device_ops::gpu_mark_us(gpu_t1);
      }
      device_ops::synchronize();  // read to the end before "done" frees the sender
    }
    p.done_bytes = p.target.bytes;
    MPI_Isend(&p.done_bytes, 1, MPI_UINT64_T, p.op.peer, p.op.wire_tag, done_, &p.done);
    p.copied = true;
  }

  Wire wire_;
  MPI_Comm ready_ = MPI_COMM_NULL, done_ = MPI_COMM_NULL;
  std::vector<std::weak_ptr<IpcPosted>> receives_;  // posted, not yet pulled
};

}  // namespace

std::unique_ptr<Backend> make_ipc(const Wire& wire) { return std::make_unique<Ipc>(wire); }

}  // namespace ringlab::transport
