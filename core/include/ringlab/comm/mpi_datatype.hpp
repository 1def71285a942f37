// The MPI datatype of each of the kit's element types (base/dtype.hpp): the one place where the
// element types meet MPI, so that the layers below the communicator build without it.
#pragma once
#include <mpi.h>

#include "ringlab/base/dtype.hpp"

namespace ringlab {

inline MPI_Datatype mpi_datatype(DType t) {
  switch (t) {
    case DType::f32:
      return MPI_FLOAT;
    case DType::f64:
      return MPI_DOUBLE;
    case DType::i32:
      return MPI_INT32_T;
    case DType::i64:
      return MPI_INT64_T;
  }
  return MPI_BYTE;
}

}  // namespace ringlab
