"""CUDA headers -> HIP headers. Library headers use ROCm's <lib>/<lib>.h layout (ROCm >= 5.2)."""

FAMILY = "headers"

HEADERS = {
    "cuda_runtime.h": "hip/hip_runtime.h",
    "cuda_runtime_api.h": "hip/hip_runtime_api.h",
    "cuda.h": "hip/hip_runtime.h",
    "device_launch_parameters.h": "hip/hip_runtime.h",
    "device_functions.h": "hip/device_functions.h",
    "cuda_device_runtime_api.h": "hip/hip_runtime.h",
    "driver_types.h": "hip/driver_types.h",
    "vector_types.h": "hip/hip_vector_types.h",
    "vector_functions.h": "hip/hip_vector_types.h",
    "texture_types.h": "hip/texture_types.h",
    "surface_types.h": "hip/surface_types.h",
    "channel_descriptor.h": "hip/channel_descriptor.h",
    "math_functions.h": "hip/math_functions.h",
    "library_types.h": "hip/library_types.h",
    "cuda_profiler_api.h": "hip/hip_runtime_api.h",
    "cuda_fp16.h": "hip/hip_fp16.h",
    "cuda_bf16.h": "hip/hip_bfloat16.h",
    "cuComplex.h": "hip/hip_complex.h",
    "cooperative_groups.h": "hip/hip_cooperative_groups.h",
    # cg::reduce and its operators come from the compatibility header.
    "cooperative_groups/reduce.h": "hip/hip_cooperative_groups.h",
    "cooperative_groups/scan.h": "hip/hip_cooperative_groups.h",
    "cooperative_groups/memcpy_async.h": "hip/hip_cooperative_groups.h",
    # __pipeline_memcpy_async and kin come from the compatibility header too.
    "cuda_pipeline.h": "hip/hip_runtime.h",
    "cuda_pipeline_primitives.h": "hip/hip_runtime.h",
    # libcu++'s atomics: cuda::atomic, cuda::atomic_ref, cuda::std::atomic (compatibility header).
    "cuda/atomic": "hip/hip_runtime.h",
    "cuda/std/atomic": "hip/hip_runtime.h",
    # libcu++'s barriers, pipelines and memcpy_async (compatibility header, copies synchronous).
    "cuda/barrier": "hip/hip_runtime.h",
    "cuda/std/barrier": "hip/hip_runtime.h",
    "cuda/pipeline": "hip/hip_runtime.h",
    # nvcuda::wmma (compatibility header).
    "mma.h": "hip/hip_runtime.h",
    "nvrtc.h": "hip/hiprtc.h",
    "cublas.h": "hipblas/hipblas.h",
    "cublas_v2.h": "hipblas/hipblas.h",
    "cublas_api.h": "hipblas/hipblas.h",
    "curand.h": "hiprand/hiprand.h",
    "curand_kernel.h": "hiprand/hiprand_kernel.h",
    "cufft.h": "hipfft/hipfft.h",
    "cufftXt.h": "hipfft/hipfftXt.h",
    "cusparse.h": "hipsparse/hipsparse.h",
    "cusparse_v2.h": "hipsparse/hipsparse.h",
    "cub/cub.cuh": "hipcub/hipcub.hpp",
}

# CUDA headers without a HIP counterpart here: an include is reported (and kept).
UNSUPPORTED = {
    "cuda_awbarrier.h": "arrive/wait barriers have no HIP 5.2 counterpart",
    "cuda_fp8.h": "HIP 5.2 has no fp8 types",
    "nvToolsExt.h": "NVTX maps to roctx (roctracer), whose API differs",
    "nvtx3/nvToolsExt.h": "NVTX maps to roctx (roctracer), whose API differs",
    "cudnn.h": "cuDNN maps to MIOpen, whose API differs; port by hand",
    "cusolverDn.h": "cuSOLVER maps to hipSOLVER, which this translator does not cover",
    "nccl.h": "NCCL maps to RCCL (rccl/rccl.h, same API); not rewritten here",
}
# libcu++ (<cuda/std/atomic>, <cuda/barrier>, ...) has no HIP 5.2 counterpart.
UNSUPPORTED_PREFIX = ("cuda/", "libcu++ (the CUDA C++ standard library) has no HIP 5.2 counterpart")

# CUDA headers whose contents only the compatibility header provides.
CUDA_NEEDING_COMPAT = frozenset({"cuda/atomic", "cuda/std/atomic", "cuda/barrier", "cuda/std/barrier",
                                 "cuda/pipeline", "mma.h"})

# The HIP headers that declare the runtime and the kernel built-ins (threadIdx, __syncthreads):
# nvcc includes cuda_runtime.h into every .cu file; a .cu file that includes none of these gets
# the compatibility header (which includes them) instead.
RUNTIME = frozenset({"hip/hip_runtime.h"})

# HIP headers that need the compatibility header in front: HIP 5.2's cooperative groups assume
# 64-lane wavefronts on gfx11 unless told otherwise, and HIP 5.2's bfloat16 lacks CUDA's
# function names.
NEEDS_COMPAT = frozenset({"hip/hip_cooperative_groups.h", "hip/hip_bfloat16.h"})

# Folder prefixes: a folder maps to a folder (thrust's CUDA backend is rocThrust's HIP one) or
# to one umbrella header (any cub/ header is hipCUB).
HEADER_PREFIXES = {
    "thrust/system/cuda/": "thrust/system/hip/",
    "cub/": "hipcub/hipcub.hpp",
}
