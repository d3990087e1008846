"""libcassrt: the CUDA runtime API implemented on the HIP API (C, in this folder), built on first
use into the cache. Programs from cass-nvcc's binary route link it instead of cudart."""

from .build import library_dir, library_path, runtime_symbols

__all__ = ["library_dir", "library_path", "runtime_symbols"]
