"""The table the C shim calls: HIP function name -> Python implementation, for every function in
emuhip/api.txt (tests check that the two agree)."""

from __future__ import annotations

from . import device, errors, memory, modules, registration, streams  # noqa: F401 - they register
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


__all__ = ["API"]
