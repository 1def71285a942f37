# Detects CUDA and NCCL. Sets RINGLAB_HAVE_CUDA / RINGLAB_HAVE_NCCL and, when found, the
# imported target ringlab_cuda_deps. Without them the build says so in one line and goes on.
set(RINGLAB_HAVE_CUDA OFF)
set(RINGLAB_HAVE_NCCL OFF)
option(RINGLAB_ENABLE_CUDA "Build the CUDA/NCCL parts when a toolkit is found" ON)

if(RINGLAB_ENABLE_CUDA)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
endif()

if(RINGLAB_ENABLE_CUDA AND CMAKE_CUDA_COMPILER)
  # No GPU here to ask ("native"), so name the architectures: Ampere and Hopper by default.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 80 90)
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit QUIET)
endif()

if(CUDAToolkit_FOUND)
  set(RINGLAB_HAVE_CUDA ON)
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} ${CUDAToolkit_LIBRARY_ROOT}/include)
  find_library(NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/lib64)
  if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
    set(RINGLAB_HAVE_NCCL ON)
  endif()
  message(STATUS "ringlab: CUDA ${CUDAToolkit_VERSION} found (NCCL: ${RINGLAB_HAVE_NCCL}); GPU parts will build")
else()
  message(STATUS "ringlab: nvcc not found, skipping GPU builds (the CPU kit is complete without it)")
endif()
