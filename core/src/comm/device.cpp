#include "ringlab/comm/device.hpp"

namespace ringlab {
const char* transport_name(Transport t) {
  switch (t) {
    case Transport::staged:
      return "staged";
    case Transport::ipc:
      return "ipc";
    case Transport::nccl:
      return "nccl";
    case Transport::strict:
      return "strict";
    case Transport::mpi:
      return "mpi";
    default:
      return "auto";
  }
}
}  // namespace ringlab
