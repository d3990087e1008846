"""libcassrt: the CUDA runtime API and the CUDA driver API implemented on the HIP API (C, in this
folder), built on first use into the cache. Programs from cass-nvcc's binary route link it instead
of cudart, and, through the `libcuda.so` beside it, instead of libcuda when they name -lcuda."""

from .build import driver_symbols, library_dir, library_path, nvidia_library_dir, runtime_symbols

__all__ = ["driver_symbols", "library_dir", "library_path", "nvidia_library_dir", "runtime_symbols"]
