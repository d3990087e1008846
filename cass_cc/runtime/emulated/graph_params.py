"""Changing a graph node's parameters after it was added: in the graph (hipGraph*NodeSetParams,
which later instantiations see) or in one instantiated graph only (hipGraphExec*NodeSetParams,
which leave the graph as it was); and reading back the memset and host nodes' parameters."""

from __future__ import annotations

import ctypes
from typing import Callable

from . import cmem, errors
from .graph_nodes import (HOST, KERNEL, MEMCPY_1D, MEMSET, HostNodeParams, MemsetParams, copy_1d_operation,
                          host_operation, kernel_operation, memset_operation)
from .graphs import exec_of, node_of
from .registry import hip_api


def _set(handle: int, kind: int, operation: Callable[[], int], params: bytes = b"") -> int:
    node = node_of(handle, kind)
    node.operation, node.params = operation, params
    return 0


def _set_in_exec(exec_handle: int, handle: int, kind: int, operation: Callable[[], int]) -> int:
    node_of(handle, kind)
    found = exec_of(exec_handle)
    if handle not in found.operations:
        return errors.INVALID_VALUE  # the node is not one of the instantiated graph's
    found.operations[handle] = operation
    return 0


def _get(handle: int, kind: int, out: int, structure: type[ctypes.Structure]) -> int:
    node = node_of(handle, kind)
    if not out:
        return errors.INVALID_VALUE
    ctypes.memmove(out, node.params, ctypes.sizeof(structure))
    return 0


@hip_api
def hipGraphKernelNodeSetParams(node: int, params: int) -> int:
    return _set(node, KERNEL, kernel_operation(params))


@hip_api
def hipGraphMemsetNodeSetParams(node: int, params: int) -> int:
    return _set(node, MEMSET, memset_operation(params), cmem.get_bytes(params, ctypes.sizeof(MemsetParams)))


@hip_api
def hipGraphHostNodeSetParams(node: int, params: int) -> int:
    return _set(node, HOST, host_operation(params), cmem.get_bytes(params, ctypes.sizeof(HostNodeParams)))


@hip_api
def hipGraphMemsetNodeGetParams(node: int, out: int) -> int:
    return _get(node, MEMSET, out, MemsetParams)


@hip_api
def hipGraphHostNodeGetParams(node: int, out: int) -> int:
    return _get(node, HOST, out, HostNodeParams)


@hip_api
def hipGraphExecKernelNodeSetParams(exec_handle: int, node: int, params: int) -> int:
    return _set_in_exec(exec_handle, node, KERNEL, kernel_operation(params))


@hip_api
def hipGraphExecMemsetNodeSetParams(exec_handle: int, node: int, params: int) -> int:
    return _set_in_exec(exec_handle, node, MEMSET, memset_operation(params))


@hip_api
def hipGraphExecHostNodeSetParams(exec_handle: int, node: int, params: int) -> int:
    return _set_in_exec(exec_handle, node, HOST, host_operation(params))


@hip_api
def hipGraphExecMemcpyNodeSetParams1D(exec_handle: int, node: int, dst: int, src: int, size: int, kind: int) -> int:
    return _set_in_exec(exec_handle, node, MEMCPY_1D, copy_1d_operation(dst, src, size, kind))
