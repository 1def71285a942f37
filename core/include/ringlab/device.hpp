// GPUs, when the kit was built with CUDA: how many this process can see, and which one a rank
// uses. The rule is Horovod's `torch.cuda.set_device(hvd.local_rank())`: one GPU per local
// rank, wrapping around when there are more ranks on a host than GPUs.
#pragma once
#include <string>

namespace ringlab {

bool built_with_cuda();
int cuda_device_count();  // 0 without CUDA or without a GPU
// "cuda:N" for this local rank, or "cpu".
std::string device_for_local_rank(int local_rank);

}  // namespace ringlab
