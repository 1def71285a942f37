#include "ringlab/comm/device.hpp"

namespace ringlab {
const char* transport_name(Transport t) {
  // In Transport's order.
  static const char* const kNames[] = {"auto", "staged", "ipc", "nccl", "strict", "mpi"};
  return kNames[static_cast<int>(t)];
}
}  // namespace ringlab
