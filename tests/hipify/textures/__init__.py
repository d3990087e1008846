"""CUDA programs of the wave64 warp tests, their H200 outputs and a host model of them."""
