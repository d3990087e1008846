"""Graphs: nodes, each one stream-ordered operation, and the dependencies between them. A graph
comes from stream capture (between hipStreamBeginCapture and hipStreamEndCapture a stream
records its operations: kernel launches with their arguments as they were, copies, fills, event
records, host callbacks; each depends on the one before) or is built node by node
(hipGraphAdd*Node, graph_nodes.py; their parameters change in graph_params.py). An instantiated
graph is its operations in an order that respects every dependency (the emulator runs one
operation at a time, so any such order is a schedule CUDA allows), replayed on hipGraphLaunch;
hipGraphExecUpdate gives it the operations of a graph of the same shape."""

from __future__ import annotations

import ctypes
import itertools
from dataclasses import dataclass, field
from typing import Callable

from . import cmem, errors
from .registry import hip_api
from .streams import DEFAULT_STREAMS, check_stream, enqueue

CAPTURE_NONE, CAPTURE_ACTIVE = 0, 1  # hipStreamCaptureStatus
CAPTURED = 0  # the node type of a captured operation: not kept (hipGraphNodeType starts at 1)
_capture_ids = itertools.count(1)


@dataclass
class Node:
    graph: int
    kind: int  # hipGraphNodeType, or CAPTURED
    operation: Callable[[], int]
    dependencies: list[int] = field(default_factory=list)
    original: int = 0  # the node this one is a clone of (hipGraphNodeFindInClone)
    params: bytes = b""  # its parameter structure as given, for hipGraph*NodeGetParams


@dataclass
class Graph:
    nodes: list[int] = field(default_factory=list)  # in the order they were added


GRAPHS: dict[int, Graph] = {}
NODES: dict[int, Node] = {}


@dataclass
class Exec:
    """An instantiated graph: its nodes in a dependency order, each with its operation (which
    hipGraphExec*SetParams replace without touching the graph)."""
    order: list[int]
    operations: dict[int, Callable[[], int]]
    source: list[int]  # the graph's nodes when it was instantiated, in the order they were added
    shape: list[tuple[int, list[int]]]  # their types and dependencies (as positions in source)


EXECS: dict[int, Exec] = {}


def _graph(handle: int) -> Graph:
    graph = GRAPHS.get(handle)
    if graph is None:
        raise errors.HipFailure(errors.INVALID_VALUE, f"unknown graph {handle:#x}")
    return graph


def _node(handle: int) -> Node:
    node = NODES.get(handle)
    if node is None:
        raise errors.HipFailure(errors.INVALID_VALUE, f"unknown graph node {handle:#x}")
    return node


def _handles(array: int, count: int) -> list[int]:
    if count and not array:
        raise errors.HipFailure(errors.INVALID_VALUE, "no array of nodes")
    return [cmem.get_u64(array + 8 * i) for i in range(count)]


def add_node(out: int, graph_handle: int, dependencies: int, count: int, kind: int,
             operation: Callable[[], int], params: bytes = b"") -> int:
    """A new node of the graph after the given ones (each must be the graph's, once)."""
    graph = _graph(graph_handle)
    after = _handles(dependencies, count)
    if not out or len(set(after)) != len(after) or any(d not in NODES or NODES[d].graph != graph_handle
                                                       for d in after):
        return errors.INVALID_VALUE
    handle = cmem.new_handle()
    NODES[handle] = Node(graph_handle, kind, operation, after, params=params)
    graph.nodes.append(handle)
    cmem.put_ptr(out, handle)
    return 0


def _new_graph(out: int, operations: list[Callable[[], int]]) -> int:
    handle = cmem.new_handle()
    GRAPHS[handle] = graph = Graph()
    for operation in operations:  # a chain, in the stream's order
        node = cmem.new_handle()
        NODES[node] = Node(handle, CAPTURED, operation, graph.nodes[-1:])
        graph.nodes.append(node)
    cmem.put_ptr(out, handle)
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
    for node in _graph(handle).nodes:
        del NODES[node]
    del GRAPHS[handle]
    return 0


def _put_handles(found: list[int], array: int, count: int) -> int:
    """The protocol of the graph queries: with no array, *count is how many there are; with one,
    up to *count of them are written, the rest of it NULL, and *count is how many were."""
    if not count:
        return errors.INVALID_VALUE
    if not array:
        cmem.put_size(count, len(found))
        return 0
    room = ctypes.c_size_t.from_address(count).value
    for i in range(room):
        cmem.put_ptr(array + 8 * i, found[i] if i < len(found) else 0)
    cmem.put_size(count, min(room, len(found)))
    return 0


@hip_api
def hipGraphGetNodes(handle: int, nodes: int, count: int) -> int:
    return _put_handles(_graph(handle).nodes, nodes, count)


@hip_api
def hipGraphGetRootNodes(handle: int, nodes: int, count: int) -> int:
    roots = [n for n in _graph(handle).nodes if not NODES[n].dependencies]
    return _put_handles(roots, nodes, count)


def _edges(graph: Graph) -> list[tuple[int, int]]:
    return [(d, n) for n in graph.nodes for d in NODES[n].dependencies]


@hip_api
def hipGraphGetEdges(handle: int, sources: int, targets: int, count: int) -> int:
    edges = _edges(_graph(handle))
    if not count or bool(sources) != bool(targets):
        return errors.INVALID_VALUE
    room = ctypes.c_size_t.from_address(count).value
    _put_handles([s for s, _ in edges], sources, count)
    if sources:
        cmem.put_size(count, room)  # the second array has the same room
        _put_handles([t for _, t in edges], targets, count)
    return 0


@hip_api
def hipGraphNodeGetDependencies(handle: int, nodes: int, count: int) -> int:
    return _put_handles(list(_node(handle).dependencies), nodes, count)


@hip_api
def hipGraphNodeGetDependentNodes(handle: int, nodes: int, count: int) -> int:
    node = _node(handle)
    dependents = [n for n in GRAPHS[node.graph].nodes if handle in NODES[n].dependencies]
    return _put_handles(dependents, nodes, count)


@hip_api
def hipGraphNodeGetType(handle: int, out: int) -> int:
    node = _node(handle)
    if node.kind == CAPTURED:
        raise errors.HipFailure(errors.NOT_SUPPORTED, "the type of a node made by stream capture is not kept")
    cmem.put_int(out, node.kind)
    return 0


def _pairs(graph_handle: int, sources: int, targets: int, count: int) -> list[tuple[Node, int]]:
    _graph(graph_handle)
    pairs = list(zip(_handles(sources, count), _handles(targets, count)))
    for source, target in pairs:
        if _node(source).graph != graph_handle or _node(target).graph != graph_handle or source == target:
            raise errors.HipFailure(errors.INVALID_VALUE, "an edge between nodes of another graph")
    return [(NODES[t], s) for s, t in pairs]


@hip_api
def hipGraphAddDependencies(graph: int, sources: int, targets: int, count: int) -> int:
    pairs = _pairs(graph, sources, targets, count)
    if any(s in target.dependencies for target, s in pairs):
        return errors.INVALID_VALUE
    for target, source in pairs:
        target.dependencies.append(source)
    return 0


@hip_api
def hipGraphRemoveDependencies(graph: int, sources: int, targets: int, count: int) -> int:
    pairs = _pairs(graph, sources, targets, count)
    if any(s not in target.dependencies for target, s in pairs):
        return errors.INVALID_VALUE
    for target, source in pairs:
        target.dependencies.remove(source)
    return 0


@hip_api
def hipGraphDestroyNode(handle: int) -> int:
    node = _node(handle)
    graph = GRAPHS[node.graph]
    graph.nodes.remove(handle)
    for other in graph.nodes:
        if handle in NODES[other].dependencies:
            NODES[other].dependencies.remove(handle)
    del NODES[handle]
    return 0


@hip_api
def hipGraphClone(out: int, handle: int) -> int:
    graph = _graph(handle)
    if not out:
        return errors.INVALID_VALUE
    clone = cmem.new_handle()
    GRAPHS[clone] = copy = Graph()
    new = {node: cmem.new_handle() for node in graph.nodes}
    for node in graph.nodes:
        old = NODES[node]
        NODES[new[node]] = Node(clone, old.kind, old.operation, [new[d] for d in old.dependencies], node,
                                old.params)
        copy.nodes.append(new[node])
    cmem.put_ptr(out, clone)
    return 0


@hip_api
def hipGraphNodeFindInClone(out: int, original: int, clone: int) -> int:
    found = next((n for n in _graph(clone).nodes if NODES[n].original == original), None)
    if not out or found is None:
        return errors.INVALID_VALUE
    cmem.put_ptr(out, found)
    return 0


def schedule(graph: Graph) -> list[int] | None:
    """The nodes in an order where each comes after its dependencies (the order they were added
    where that allows), or None where the dependencies make a cycle."""
    done: set[int] = set()
    order: list[int] = []
    while len(order) < len(graph.nodes):
        ready = next((n for n in graph.nodes if n not in done and all(d in done for d in NODES[n].dependencies)),
                     None)
        if ready is None:
            return None
        done.add(ready)
        order.append(ready)
    return order


def operations(graph: Graph) -> list[Callable[[], int]] | None:
    """The graph's operations in a dependency order (None for a cycle), as they are now."""
    order = schedule(graph)
    return None if order is None else [NODES[n].operation for n in order]


def replay(steps: list[Callable[[], int]]) -> int:
    for operation in steps:
        code = operation()
        if code:
            return code
    return 0


def _instantiate(out: int, graph: int) -> int:
    order = schedule(_graph(graph))
    if order is None:
        return errors.INVALID_VALUE
    handle = cmem.new_handle()
    cmem.put_ptr(out, handle)
    EXECS[handle] = Exec(order, {n: NODES[n].operation for n in order}, list(_graph(graph).nodes),
                         _shape(_graph(graph)))
    return 0


def _shape(graph: Graph) -> list[tuple[int, list[int]]]:
    position = {n: i for i, n in enumerate(graph.nodes)}
    return [(NODES[n].kind, [position[d] for d in NODES[n].dependencies]) for n in graph.nodes]


@hip_api
def hipGraphExecUpdate(exec_handle: int, graph_handle: int, error_node: int, result: int) -> int:
    """The instantiated graph takes the operations of a graph of the same shape (nodes paired in
    the order they were added, with the same types and dependencies), as CUDA's update does."""
    found, graph = exec_of(exec_handle), _graph(graph_handle)
    shape = _shape(graph)
    outcome, culprit = 0, 0  # hipGraphExecUpdateSuccess
    if len(shape) != len(found.shape):
        outcome = 2  # hipGraphExecUpdateErrorTopologyChanged
    else:
        for new, (kind, after), (old_kind, old_after) in zip(graph.nodes, shape, found.shape):
            if kind != old_kind or after != old_after:
                outcome, culprit = (3 if kind != old_kind else 2), new  # ...ErrorNodeTypeChanged
                break
    if error_node:
        cmem.put_ptr(error_node, culprit)
    if result:
        cmem.put_int(result, outcome)
    if outcome:
        return errors.GRAPH_EXEC_UPDATE_FAILURE
    for old, new in zip(found.source, graph.nodes):
        found.operations[old] = NODES[new].operation
    return 0


def exec_of(handle: int) -> Exec:
    found = EXECS.get(handle)
    if found is None:
        raise errors.HipFailure(errors.INVALID_VALUE, f"unknown graph exec {handle:#x}")
    return found


def node_of(handle: int, kind: int) -> Node:
    """A node that must be of the given type (its parameters are that type's)."""
    node = _node(handle)
    if node.kind != kind:
        raise errors.HipFailure(errors.INVALID_VALUE, f"graph node {handle:#x} is not of type {kind}")
    return node


@hip_api
def hipGraphInstantiate(out: int, graph: int, error_node: int, log: int, log_size: int) -> int:
    return _instantiate(out, graph)


@hip_api
def hipGraphInstantiateWithFlags(out: int, graph: int, flags: int) -> int:
    return _instantiate(out, graph)


@hip_api
def hipGraphLaunch(handle: int, stream: int) -> int:
    found = EXECS.get(handle)
    if found is None:
        return errors.INVALID_VALUE
    return enqueue(stream, lambda: replay([found.operations[n] for n in found.order]))


@hip_api
def hipGraphExecDestroy(handle: int) -> int:
    if EXECS.pop(handle, None) is None:
        return errors.INVALID_VALUE
    return 0
