// The mpi transport: host buffers through Open MPI. Posting an operation starts it at once
// (MPI_Isend / MPI_Irecv), and MPI's progress engine moves it whatever order the waits come in:
// more than the contract (transport.hpp) promises, which is why the kit's algorithms are also
// run under strict.
#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

#include "ringlab/comm/transport.hpp"

namespace ringlab::transport {
namespace {

struct MpiPosted : Posted {
  MPI_Request request = MPI_REQUEST_NULL;
};

class Mpi final : public Backend {
 public:
  explicit Mpi(const Wire& wire) : wire_(wire) {}
  Transport kind() const override { return Transport::mpi; }

  std::shared_ptr<Posted> post(const Op& op) override {
    if (op.count > static_cast<std::size_t>(INT_MAX))
      throw std::length_error("a single transfer is limited to " + std::to_string(INT_MAX) + " elements");
    auto p = std::make_shared<MpiPosted>();
    const int n = static_cast<int>(op.count);
    if (op.send) MPI_Isend(op.data, n, mpi_datatype(op.dtype), op.peer, op.wire_tag, wire_.comm, &p->request);
    else MPI_Irecv(op.data, n, mpi_datatype(op.dtype), op.peer, op.wire_tag, wire_.comm, &p->request);
    return p;
  }

  void wait(Posted* const* ops, const watchdog::Pending* what, std::size_t n) override {
    requests_.resize(n);
    for (std::size_t i = 0; i < n; ++i) requests_[i] = static_cast<MpiPosted*>(ops[i])->request;
    watchdog::wait_all(wire_.watch, requests_.data(), what, static_cast<int>(n));
    for (std::size_t i = 0; i < n; ++i) static_cast<MpiPosted*>(ops[i])->request = MPI_REQUEST_NULL;
  }

 private:
  Wire wire_;
  std::vector<MPI_Request> requests_;  // kept between waits: no allocation per wait
};

}  // namespace

std::unique_ptr<Backend> make_mpi(const Wire& wire) { return std::make_unique<Mpi>(wire); }

}  // namespace ringlab::transport
