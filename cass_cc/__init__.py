"""cass-cc: build CUDA programs for AMD RDNA3 GPUs."""

__version__ = "0.1.0"
