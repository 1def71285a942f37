// The MPI datatype of each of the kit's element types (base/dtype.hpp): the one place where the
// element types meet MPI, so that the layers below the communicator build without it.
#pragma once
#include <mpi.h>

#include <string>

#include "ringlab/base/dtype.hpp"

namespace ringlab {

inline MPI_Datatype mpi_datatype(DType t) {
  const MPI_Datatype types[] = {MPI_FLOAT, MPI_DOUBLE, MPI_INT32_T, MPI_INT64_T};  // in DType's order
  return types[static_cast<int>(t)];
}

// A received message's length in the receive's elements; -1 when its bytes are not a whole
// number of them (MPI_Get_count says MPI_UNDEFINED): then the two sides moved different types.
inline long long received_count(const MPI_Status& st, DType t) {
  int count = 0;
  MPI_Get_count(&st, mpi_datatype(t), &count);
  return count == MPI_UNDEFINED ? -1 : count;
}

// What a transport's size check says of such a message: its bytes, and why they cannot fit.
inline std::string other_type_taken(const MPI_Status& st, DType t) {
  int bytes = 0;
  MPI_Get_count(&st, MPI_BYTE, &bytes);
  return std::to_string(bytes) + " bytes, not a whole number of this receive's " + dtype_name(t) + " elements (" +
         std::to_string(dtype_size(t)) + " bytes each): the send and the receive move different element " +
         "types, one side has the wrong T (a send's View<T> and its receive's must have the same T)";
}

}  // namespace ringlab
