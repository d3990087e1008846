"""Graph nodes made one by one (hipGraphAdd*Node): each is the operation its stream-ordered
counterpart would enqueue, with the parameters as they were when the node was added (CUDA's
and HIP's graphs copy them), placed in the graph after its dependencies (graphs.add_node)."""

from __future__ import annotations

import ctypes
from typing import Callable

from . import errors, kernels, modules, pitched3d, registration, streams, transfers
from .graphs import GRAPHS, add_node, operations, replay
from .registry import hip_api

KERNEL, MEMCPY, MEMSET, HOST, GRAPH, EMPTY, WAIT_EVENT, EVENT_RECORD = range(1, 9)  # hipGraphNodeType
MEMCPY_1D = 9
_HOST_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class _Dim3(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint32), ("y", ctypes.c_uint32), ("z", ctypes.c_uint32)]


class KernelNodeParams(ctypes.Structure):
    """hipKernelNodeParams."""
    _fields_ = [("blockDim", _Dim3), ("extra", ctypes.c_void_p), ("func", ctypes.c_void_p),
                ("gridDim", _Dim3), ("kernelParams", ctypes.c_void_p), ("sharedMemBytes", ctypes.c_uint)]


class MemsetParams(ctypes.Structure):
    """hipMemsetParams."""
    _fields_ = [("dst", ctypes.c_void_p), ("elementSize", ctypes.c_uint), ("height", ctypes.c_size_t),
                ("pitch", ctypes.c_size_t), ("value", ctypes.c_uint), ("width", ctypes.c_size_t)]


class HostNodeParams(ctypes.Structure):
    """hipHostNodeParams."""
    _fields_ = [("fn", ctypes.c_void_p), ("userData", ctypes.c_void_p)]


def _kernel(function: int) -> tuple[kernels.Image, str]:
    """A module's function (hipFunction_t) or a registered kernel's host address."""
    found = modules.FUNCTIONS.get(function) or registration.HOST_FUNCTIONS.get(function)
    if found is None:
        raise errors.HipFailure(errors.INVALID_DEVICE_FUNCTION, f"{function or 0:#x} is not a kernel")
    return found


def _params(params: int, structure: type[ctypes.Structure]):
    if not params:
        raise errors.HipFailure(errors.INVALID_VALUE, "no node parameters")
    return structure.from_address(params)


def kernel_operation(params: int) -> Callable[[], int]:
    """The launch a hipKernelNodeParams describes, its arguments copied now."""
    p = _params(params, KernelNodeParams)
    image, name = _kernel(p.func)
    if p.kernelParams and p.extra:
        raise errors.HipFailure(errors.INVALID_VALUE, "both kernelParams and extra")
    if p.extra:
        kernarg = kernels.pack_from_extra(p.extra)
    else:
        kernarg = kernels.pack_from_pointers(image.kernel(name), p.kernelParams or 0)
    grid, block = (p.gridDim.x, p.gridDim.y, p.gridDim.z), (p.blockDim.x, p.blockDim.y, p.blockDim.z)
    shared = p.sharedMemBytes
    # Stream 0 runs it at once: the graph's launch is already in its stream's order.
    return lambda: kernels.run(image, name, grid, block, kernarg, shared, 0)


def memset_operation(params: int) -> Callable[[], int]:
    p = _params(params, MemsetParams)
    dst, element, value, width, height, pitch = p.dst, p.elementSize, p.value, p.width, p.height, p.pitch
    if not dst or element not in (1, 2, 4) or (height > 1 and pitch < width * element):
        raise errors.HipFailure(errors.INVALID_VALUE, "memset node parameters")

    def fill_rows() -> int:
        for row in range(height):
            code = transfers.fill(dst + row * pitch, value, width, element)
            if code:
                return code
        return 0

    return fill_rows


def host_operation(params: int) -> Callable[[], int]:
    p = _params(params, HostNodeParams)
    if not p.fn:
        raise errors.HipFailure(errors.INVALID_VALUE, "a host node without a function")
    function, data = _HOST_FN(p.fn), p.userData
    return lambda: function(data) or 0


def copy_1d_operation(dst: int, src: int, size: int, kind: int) -> Callable[[], int]:
    return lambda: transfers.copy(dst, src, size, kind)


def _saved(params: int, structure: type[ctypes.Structure]) -> bytes:
    return bytes(structure.from_address(params)) if params else b""


@hip_api
def hipGraphAddKernelNode(out: int, graph: int, dependencies: int, count: int, params: int) -> int:
    return add_node(out, graph, dependencies, count, KERNEL, kernel_operation(params))


@hip_api
def hipGraphAddMemcpyNode(out: int, graph: int, dependencies: int, count: int, params: int) -> int:
    if not params:
        return errors.INVALID_VALUE
    kept = ctypes.create_string_buffer(bytes(pitched3d.Memcpy3DParms.from_address(params)))
    return add_node(out, graph, dependencies, count, MEMCPY, lambda: pitched3d.copy_3d(ctypes.addressof(kept)))


@hip_api
def hipGraphAddMemcpyNode1D(out: int, graph: int, dependencies: int, count: int, dst: int, src: int,
                            size: int, kind: int) -> int:
    return add_node(out, graph, dependencies, count, MEMCPY_1D, copy_1d_operation(dst, src, size, kind))


@hip_api
def hipGraphAddMemsetNode(out: int, graph: int, dependencies: int, count: int, params: int) -> int:
    return add_node(out, graph, dependencies, count, MEMSET, memset_operation(params),
                    _saved(params, MemsetParams))


@hip_api
def hipGraphAddHostNode(out: int, graph: int, dependencies: int, count: int, params: int) -> int:
    return add_node(out, graph, dependencies, count, HOST, host_operation(params), _saved(params, HostNodeParams))


@hip_api
def hipGraphAddEmptyNode(out: int, graph: int, dependencies: int, count: int) -> int:
    return add_node(out, graph, dependencies, count, EMPTY, lambda: 0)


@hip_api
def hipGraphAddChildGraphNode(out: int, graph: int, dependencies: int, count: int, child: int) -> int:
    """The child graph as it is now (CUDA copies it into the node)."""
    if child not in GRAPHS:
        return errors.INVALID_VALUE
    steps = operations(GRAPHS[child])
    if steps is None:
        return errors.INVALID_VALUE
    return add_node(out, graph, dependencies, count, GRAPH, lambda: replay(steps))


@hip_api
def hipGraphAddEventRecordNode(out: int, graph: int, dependencies: int, count: int, event: int) -> int:
    streams.check_event(event)
    return add_node(out, graph, dependencies, count, EVENT_RECORD, lambda: streams.record(event) or 0)


@hip_api
def hipGraphAddEventWaitNode(out: int, graph: int, dependencies: int, count: int, event: int) -> int:
    """Every operation the event can stand for has run by then: the emulator runs each when issued."""
    streams.check_event(event)
    return add_node(out, graph, dependencies, count, WAIT_EVENT, lambda: 0)
