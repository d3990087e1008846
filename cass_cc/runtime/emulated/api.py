"""The table the C shim calls: HIP function name -> Python implementation, for every function in
emuhip/api.txt (tests check that the two agree)."""

from __future__ import annotations

from . import (device, errors, graph_nodes, graph_params, graphs, managed_hints, memory, modules,  # noqa: F401
               pitched3d, pools, registration, streams, transfers)  # importing them registers their functions
from . import textures  # noqa: F401
from .registry import API, hip_api, peek_last_error, take_last_error
from .cmem import c_string


@hip_api(status=False)
def hipGetLastError() -> int:
    return take_last_error()


@hip_api(status=False)
def hipPeekAtLastError() -> int:
    return peek_last_error()


@hip_api(status=False)
def hipGetErrorName(code: int) -> int:
    return c_string(errors.name(code))


@hip_api(status=False)
def hipGetErrorString(code: int) -> int:
    return c_string(errors.text(code))


# The per-thread default stream variants (-fgpu-default-stream=per-thread): every stream of
# the emulator is synchronous, so they are the plain functions.
PER_THREAD_STREAM_VARIANTS = (
    "hipMemcpy", "hipMemcpyToSymbol", "hipMemcpyFromSymbol", "hipMemcpy2D", "hipMemset",
    "hipMemset2D", "hipMemcpyAsync", "hipStreamQuery", "hipStreamSynchronize",
    "hipStreamGetPriority", "hipStreamWaitEvent", "hipStreamGetFlags",
    "hipLaunchCooperativeKernel", "hipLaunchKernel")
for _name in PER_THREAD_STREAM_VARIANTS:
    API[f"{_name}_spt"] = API[_name]

__all__ = ["API"]
