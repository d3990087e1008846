"""Compiler macros. hip-clang defines __HIPCC__ where nvcc defines __CUDACC__. __CUDA_ARCH__
has two uses: a defined-test asks "is this the device pass?" (__HIP_DEVICE_COMPILE__); a
number picks code for an NVIDIA architecture, and there the compatibility header's
CASS_CUDA_ARCH stands in: undefined (0) in the host pass as in CUDA, and in the device pass the
architecture whose features HIP plus the compatibility header provide."""

FAMILY = "macros"

RENAMES = {
    "__CUDACC__": "__HIPCC__",
    # Include guards of the CUDA headers, which projects test to see what is available
    # (`#ifdef __DRIVER_TYPES_H__` in the CUDA samples' helper_cuda.h): the HIP headers' guards.
    "__DRIVER_TYPES_H__": "HIP_INCLUDE_HIP_DRIVER_TYPES_H",
    "__CUDA_RUNTIME_H__": "HIP_INCLUDE_HIP_HIP_RUNTIME_H",
    "__CUDA_RUNTIME_API_H__": "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H",
    "__cuda_cuda_h__": "HIP_INCLUDE_HIP_HIP_RUNTIME_H",
    "__CUDA_FP16_H__": "HIP_INCLUDE_HIP_HIP_FP16_H",
    "CU_COMPLEX_H_": "HIP_INCLUDE_HIP_HIP_COMPLEX_H",
    "__VECTOR_TYPES_H__": "HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H",
    "__TEXTURE_TYPES_H__": "HIP_INCLUDE_HIP_TEXTURE_TYPES_H",
}

# Calling-convention macros of the CUDA headers (empty on Linux).
COMPAT = """
CUDART_CB CUDARTAPI CUDAAPI
"""

# What a code base tests to take its own HIP port (`#ifdef __HIPCC__`): nvcc defines none of
# them, and cass-nvcc compiles the code as nvcc does (its CUDA path, hipified, with the
# compatibility header); a HIP port's direct hip* calls would bypass that header (the CUDA
# Handbook's error macros made texture objects HIP refuses on MI300, and hid the failure).
HIP_PORT_MACROS = frozenset(("__HIPCC__", "__HIP__", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__"))
UNDEFINED_UNDER_NVCC = "CASS_UNDEFINED_UNDER_NVCC"

# `defined(__CUDA_ARCH__)` / `#ifdef __CUDA_ARCH__` mean "compiling device code".
DEVICE_PASS_MACRO = ("__CUDA_ARCH__", "__HIP_DEVICE_COMPILE__")
# `__CUDA_ARCH__ >= 600` and other numeric uses.
ARCH_NUMBER_MACRO = ("__CUDA_ARCH__", "CASS_CUDA_ARCH")
ARCH_NUMBER = 700   # Volta: warp _sync functions, match, half, double atomics; no tensor cores

UNSUPPORTED = {
    "CUDART_VERSION": "there is no CUDA runtime version under HIP; compare HIP_VERSION instead",
    "CUDA_VERSION": "there is no CUDA version under HIP; compare HIP_VERSION instead",
    "__CUDACC_VER_MAJOR__": "nvcc's version is not defined by hipcc",
    "__CUDACC_VER_MINOR__": "nvcc's version is not defined by hipcc",
}
