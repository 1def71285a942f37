// GPUs, when the kit was built with CUDA: how many this process can see, which one a rank
// uses, and what it is. The rule is Horovod's `torch.cuda.set_device(hvd.local_rank())`: one
// GPU per local rank, wrapping around when there are more ranks on a host than GPUs.
// No CUDA header here: lessons include this, and lessons are never compiled by nvcc.
#pragma once
#include <cstddef>
#include <string>

namespace ringlab {

// --device: where a lesson's collectives keep their data. sim: a GPU simulated in host memory
// (sim_device.hpp), where host code that touches device data stops as it would on a GPU.
enum class DeviceChoice { cpu, cuda, automatic, sim };
// --transport: how buffers move between ranks (ringlab/comm/transport.hpp lists each one, and
// the rules they share; mpi is what every CPU run uses unless it asks for strict).
enum class Transport { automatic, staged, ipc, nccl, strict, mpi };
const char* transport_name(Transport t);  // "auto", "staged", "ipc", "nccl", "strict", "mpi"

bool built_with_cuda();
int cuda_device_count();  // 0 without CUDA or without a GPU
// Why cuda_device_count() is 0, in one line (a driver too old for this CUDA says so); "" if not.
std::string why_no_gpu();
// "cuda:N" for this local rank, or "cpu".
std::string device_for_local_rank(int local_rank);

// Makes GPU `index` this process's device (cudaSetDevice). Throws without CUDA.
void use_gpu(int index);

struct GpuInfo {
  int index = -1;
  std::string name;        // "NVIDIA H100 80GB HBM3"
  std::string pci_bus_id;  // "0000:17:00.0": tells GPUs apart across processes, as NCCL does
  std::size_t memory_bytes = 0;
};
GpuInfo gpu_info(int index);

}  // namespace ringlab
