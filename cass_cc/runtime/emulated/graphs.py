"""Graphs made by stream capture: between hipStreamBeginCapture and hipStreamEndCapture a
stream records its operations (kernel launches with their arguments as they were, copies,
fills, event records, host callbacks) instead of running them; an instantiated graph replays
them in order on hipGraphLaunch. Graphs built node by node (hipGraphAdd*Node) are not
supported."""

from __future__ import annotations

import ctypes
import itertools
from dataclasses import dataclass, field
from typing import Callable

from . import cmem, errors
from .registry import hip_api
from .streams import DEFAULT_STREAMS, check_stream, enqueue

CAPTURE_NONE, CAPTURE_ACTIVE = 0, 1  # hipStreamCaptureStatus
_capture_ids = itertools.count(1)


@dataclass
class Graph:
    operations: list[Callable[[], int]]
    nodes: list[int] = field(default_factory=list)  # a handle per operation, made on demand


GRAPHS: dict[int, Graph] = {}
EXECS: dict[int, list[Callable[[], int]]] = {}


def _graph(handle: int) -> Graph:
    graph = GRAPHS.get(handle)
    if graph is None:
        raise errors.HipFailure(errors.INVALID_VALUE, f"unknown graph {handle:#x}")
    return graph


def _new_graph(out: int, operations: list[Callable[[], int]]) -> int:
    handle = cmem.new_handle()
    cmem.put_ptr(out, handle)
    GRAPHS[handle] = Graph(operations)
    return 0


@hip_api
def hipStreamBeginCapture(stream: int, mode: int) -> int:
    if stream in DEFAULT_STREAMS:
        return errors.STREAM_CAPTURE_UNSUPPORTED
    s = check_stream(stream)
    if s.capture is not None:
        return errors.ILLEGAL_STATE
    s.capture, s.capture_id = [], next(_capture_ids)
    return 0


@hip_api
def hipStreamEndCapture(stream: int, out: int) -> int:
    s = check_stream(stream)
    if s.capture is None:
        return errors.ILLEGAL_STATE
    operations, s.capture = s.capture, None
    return _new_graph(out, operations)


@hip_api
def hipStreamIsCapturing(stream: int, status: int) -> int:
    cmem.put_int(status, CAPTURE_NONE if check_stream(stream).capture is None else CAPTURE_ACTIVE)
    return 0


@hip_api
def hipStreamGetCaptureInfo(stream: int, status: int, capture_id: int) -> int:
    s = check_stream(stream)
    cmem.put_int(status, CAPTURE_NONE if s.capture is None else CAPTURE_ACTIVE)
    if capture_id and s.capture is not None:
        cmem.put_ptr(capture_id, s.capture_id)
    return 0


@hip_api
def hipGraphCreate(out: int, flags: int) -> int:
    return _new_graph(out, [])


@hip_api
def hipGraphDestroy(handle: int) -> int:
    _graph(handle)
    del GRAPHS[handle]
    return 0


def _put_nodes(graph: Graph, nodes: int, count: int, wanted: int) -> int:
    """hipGraphGetNodes' protocol: with no array, the count; else up to *count handles."""
    while len(graph.nodes) < len(graph.operations):
        graph.nodes.append(cmem.new_handle())
    if not count:
        return errors.INVALID_VALUE
    if nodes:
        room = ctypes.c_size_t.from_address(count).value
        for i, node in enumerate(graph.nodes[:min(room, wanted)]):
            cmem.put_ptr(nodes + 8 * i, node)
    cmem.put_size(count, wanted)
    return 0


@hip_api
def hipGraphGetNodes(handle: int, nodes: int, count: int) -> int:
    graph = _graph(handle)
    return _put_nodes(graph, nodes, count, len(graph.operations))


@hip_api
def hipGraphGetRootNodes(handle: int, nodes: int, count: int) -> int:
    graph = _graph(handle)  # captured from one stream: a chain, so one root
    return _put_nodes(graph, nodes, count, min(1, len(graph.operations)))


def _instantiate(out: int, graph: int) -> int:
    handle = cmem.new_handle()
    cmem.put_ptr(out, handle)
    EXECS[handle] = list(_graph(graph).operations)
    return 0


@hip_api
def hipGraphInstantiate(out: int, graph: int, error_node: int, log: int, log_size: int) -> int:
    return _instantiate(out, graph)


@hip_api
def hipGraphInstantiateWithFlags(out: int, graph: int, flags: int) -> int:
    return _instantiate(out, graph)


@hip_api
def hipGraphLaunch(handle: int, stream: int) -> int:
    operations = EXECS.get(handle)
    if operations is None:
        return errors.INVALID_VALUE

    def replay() -> int:
        for operation in operations:
            code = operation()
            if code:
                return code
        return 0

    return enqueue(stream, replay)


@hip_api
def hipGraphExecDestroy(handle: int) -> int:
    if EXECS.pop(handle, None) is None:
        return errors.INVALID_VALUE
    return 0
