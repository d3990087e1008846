"""Compiler macros. hip-clang defines __HIPCC__ where nvcc defines __CUDACC__; __CUDA_ARCH__
has no numeric counterpart and is handled by the translator (defined-tests only)."""

FAMILY = "macros"

RENAMES = {
    "__CUDACC__": "__HIPCC__",
}

# Calling-convention macros of the CUDA headers (empty on Linux).
COMPAT = """
CUDART_CB CUDARTAPI CUDAAPI
"""

# `defined(__CUDA_ARCH__)` / `#ifdef __CUDA_ARCH__` mean "compiling device code".
DEVICE_PASS_MACRO = ("__CUDA_ARCH__", "__HIP_DEVICE_COMPILE__")

UNSUPPORTED = {
    "CUDART_VERSION": "there is no CUDA runtime version under HIP; compare HIP_VERSION instead",
    "CUDA_VERSION": "there is no CUDA version under HIP; compare HIP_VERSION instead",
    "__CUDACC_VER_MAJOR__": "nvcc's version is not defined by hipcc",
    "__CUDACC_VER_MINOR__": "nvcc's version is not defined by hipcc",
}
