"""A CUDA program of texture and surface corner cases, its H200 output and a host model of it."""
