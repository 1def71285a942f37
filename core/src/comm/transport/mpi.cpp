// The mpi transport: host buffers through Open MPI. Posting an operation starts it at once
// (MPI_Isend / MPI_Irecv), and MPI's progress engine moves it whatever order the waits come in:
// more than the contract (transport.hpp) promises, which is why the kit's algorithms are also
// run under strict. One part of rule 4 it checks itself, as strict does: a receive is the size
// of its send. MPI lets a shorter message into a larger buffer without a word; the contract
// does not, and the bytes past the message would keep whatever they held.
#include <climits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ringlab/comm/comm.hpp"
#include "ringlab/comm/transport.hpp"

namespace ringlab::transport {
namespace {

struct MpiPosted : Posted {
  MPI_Request request = MPI_REQUEST_NULL;
  Op op;  // what was posted: a receive's size is checked against the message it took
};

class Mpi final : public Backend {
 public:
  explicit Mpi(const Wire& wire) : wire_(wire) {}
  Transport kind() const override { return Transport::mpi; }

  std::shared_ptr<Posted> post(const Op& op) override {
    if (op.count > static_cast<std::size_t>(INT_MAX))
      throw std::length_error("a single transfer is limited to " + std::to_string(INT_MAX) + " elements");
    auto p = std::make_shared<MpiPosted>();
    p->op = op;
    const int n = static_cast<int>(op.count);
    if (op.send) MPI_Isend(op.data, n, mpi_datatype(op.dtype), op.peer, op.wire_tag, wire_.comm, &p->request);
    else MPI_Irecv(op.data, n, mpi_datatype(op.dtype), op.peer, op.wire_tag, wire_.comm, &p->request);
    return p;
  }

  void wait(Posted* const* ops, const watchdog::Pending* what, std::size_t n) override {
    requests_.resize(n);
    statuses_.resize(n);
    for (std::size_t i = 0; i < n; ++i) requests_[i] = static_cast<MpiPosted*>(ops[i])->request;
    watchdog::wait_all(wire_.watch, requests_.data(), what, static_cast<int>(n), statuses_.data());
    for (std::size_t i = 0; i < n; ++i) static_cast<MpiPosted*>(ops[i])->request = MPI_REQUEST_NULL;
    for (std::size_t i = 0; i < n; ++i)  // (every request finished first: a refusal leaves none open)
      if (const Op& op = static_cast<MpiPosted*>(ops[i])->op; !op.send) check_size(op, statuses_[i]);
  }

 private:
  // Rule 4's size: the message a receive took must be as long as the receive.
  void check_size(const Op& o, const MPI_Status& st) const {
    const long long count = received_count(st, o.dtype);
    if (count == static_cast<long long>(o.count)) return;
    std::ostringstream s;
    s << "rank " << wire_.rank << "'s receive from rank " << o.peer << " (tag " << o.tag << ") was posted for "
      << o.count << " elements and took a message of ";
    if (count < 0) {
      s << other_type_taken(st, o.dtype) << ", sent " << wire_tag_origin(st.MPI_TAG) << ".";
      throw std::runtime_error(s.str());
    }
    s << count << ", sent " << wire_tag_origin(st.MPI_TAG)
      << ": a receive must be the size of its send (the transport's rule 4; MPI lets a shorter message in, "
         "NCCL does not) — one of the two views has the wrong size: the sender's (" << count
      << ") or this receive's (" << o.count << ").";
    throw std::runtime_error(s.str());
  }


  Wire wire_;
  std::vector<MPI_Request> requests_;  // kept between waits: no allocation per wait
  std::vector<MPI_Status> statuses_;
};

}  // namespace

std::unique_ptr<Backend> make_mpi(const Wire& wire) { return std::make_unique<Mpi>(wire); }

}  // namespace ringlab::transport
