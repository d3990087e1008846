"""cass-cc's cuBLAS and cuRAND: CUDA sources built by cass-nvcc into shared libraries in the cache."""

from .build import LIBRARIES, header_dirs, library_dir, link_name

__all__ = ["LIBRARIES", "header_dirs", "library_dir", "link_name"]
