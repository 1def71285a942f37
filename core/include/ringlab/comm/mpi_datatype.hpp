// The MPI datatype of each of the kit's element types (base/dtype.hpp): the one place where the
// element types meet MPI, so that the layers below the communicator build without it.
#pragma once
#include <mpi.h>

#include "ringlab/base/dtype.hpp"

namespace ringlab {

inline MPI_Datatype mpi_datatype(DType t) {
  const MPI_Datatype types[] = {MPI_FLOAT, MPI_DOUBLE, MPI_INT32_T, MPI_INT64_T};  // in DType's order
  return types[static_cast<int>(t)];
}

}  // namespace ringlab
