// Receiving from whichever rank sends first (MPI_ANY_SOURCE), traced like Communicator::recv:
// the event names the rank the message actually came from. An asynchronous server (lesson 04)
// serves its workers in the order their messages arrive, not in rank order.
//   int from = ringlab::recv_from_any(comm, View<float>(buf));
#pragma once
#include <mpi.h>

#include <climits>
#include <stdexcept>

#include "ringlab/comm/comm.hpp"

namespace ringlab {

// How many receives recv_from_any has made in this process. Lesson 04's check asks it of the
// synchronous server, whose step takes the workers in rank order: in arrival order the sum's
// rounding would change from run to run.
inline long long& any_source_receives() {
  static long long count = 0;
  return count;
}

template <class T> int recv_from_any(Communicator& comm, View<T> buf, int tag = 0) {
  if (buf.where() != Where::host) throw std::runtime_error("recv_from_any: host buffers only");
  if (buf.size() > static_cast<std::size_t>(INT_MAX))
    throw std::length_error("recv_from_any: buffer too large");
  const double t0 = trace::enabled() ? trace::now_us() : 0;
  MPI_Status status;
  MPI_Recv(buf.data(), static_cast<int>(buf.size()), mpi_datatype(dtype_of<T>()), MPI_ANY_SOURCE, wire_tag(tag),
           comm.raw(), &status);
  ++any_source_receives();
  if (trace::enabled()) detail::record_local(trace::Op::recv, buf, t0, nullptr, status.MPI_SOURCE);
  return status.MPI_SOURCE;
}

}  // namespace ringlab
