"""Streams and events. The emulator runs every operation when it is issued, so each stream is
in order and always idle; events read the emulated device clock, so timings follow the work
between them. A stream that is capturing (hipStreamBeginCapture) records its operations for a
graph instead (graphs.py)."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Callable

from . import cmem, errors
from .registry import hip_api
from .state import DEVICE

DEFAULT_STREAMS = (0, 1, 2)  # NULL, hipStreamLegacy-like values, hipStreamPerThread
EVENT_DISABLE_TIMING = 0x2
GREATEST_PRIORITY, LEAST_PRIORITY = -1, 0
_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)


@dataclass
class Stream:
    flags: int = 0
    priority: int = 0
    capture: list[Callable[[], int]] | None = None  # operations recorded while capturing
    capture_id: int = 0


@dataclass
class Event:
    flags: int = 0
    time_s: float | None = None


STREAMS: dict[int, Stream] = {}
EVENTS: dict[int, Event] = {}


def check_stream(handle: int) -> Stream:
    if handle in DEFAULT_STREAMS:
        return Stream()
    stream = STREAMS.get(handle)
    if stream is None:
        raise errors.HipFailure(errors.INVALID_HANDLE, f"unknown stream {handle:#x}")
    return stream


def enqueue(handle: int, operation: Callable[[], int]) -> int:
    """Run a stream-ordered operation now, or record it when the stream is capturing."""
    stream = check_stream(handle)
    if stream.capture is not None:
        stream.capture.append(operation)
        return 0
    return operation()


def check_event(handle: int) -> Event:
    event = EVENTS.get(handle)
    if event is None:
        raise errors.HipFailure(errors.INVALID_HANDLE, f"unknown event {handle:#x}")
    return event


def _create_stream(out: int, flags: int, priority: int) -> int:
    handle = cmem.new_handle()
    priority = min(max(priority, GREATEST_PRIORITY), LEAST_PRIORITY)
    cmem.put_ptr(out, handle)
    STREAMS[handle] = Stream(flags, priority)
    return 0


@hip_api(status=False)
def hipGetStreamDeviceId(handle: int) -> int:
    """The stream's device (the emulator has one), or -1 for a handle that is no stream, as ROCm's."""
    return 0 if handle in DEFAULT_STREAMS or handle in STREAMS else -1


@hip_api
def hipStreamCreate(out: int) -> int:
    return _create_stream(out, 0, 0)


@hip_api
def hipStreamCreateWithFlags(out: int, flags: int) -> int:
    return _create_stream(out, flags, 0)


@hip_api
def hipStreamCreateWithPriority(out: int, flags: int, priority: int) -> int:
    return _create_stream(out, flags, priority)


@hip_api
def hipStreamDestroy(handle: int) -> int:
    if STREAMS.pop(handle, None) is None:
        return errors.INVALID_HANDLE
    return 0


@hip_api
def hipStreamSynchronize(handle: int) -> int:
    check_stream(handle)
    return 0


@hip_api
def hipStreamQuery(handle: int) -> int:
    check_stream(handle)
    return 0


@hip_api
def hipStreamWaitEvent(handle: int, event: int, flags: int) -> int:
    check_stream(handle)
    check_event(event)
    return 0


@hip_api
def hipStreamGetFlags(handle: int, flags: int) -> int:
    cmem.put_uint(flags, check_stream(handle).flags)
    return 0


@hip_api
def hipStreamGetPriority(handle: int, priority: int) -> int:
    cmem.put_int(priority, check_stream(handle).priority)
    return 0


@hip_api
def hipStreamAddCallback(handle: int, callback: int, user_data: int, flags: int) -> int:
    check_stream(handle)
    if not callback or flags:
        return errors.INVALID_VALUE
    function = _CALLBACK(callback)
    return enqueue(handle, lambda: function(handle or None, 0, user_data or None) or 0)


@hip_api
def hipDeviceGetStreamPriorityRange(least: int, greatest: int) -> int:
    if least:
        cmem.put_int(least, LEAST_PRIORITY)
    if greatest:
        cmem.put_int(greatest, GREATEST_PRIORITY)
    return 0


@hip_api
def hipDeviceSynchronize() -> int:
    return 0


@hip_api
def hipCtxSynchronize() -> int:
    return 0


def _create_event(out: int, flags: int) -> int:
    handle = cmem.new_handle()
    cmem.put_ptr(out, handle)
    EVENTS[handle] = Event(flags)
    return 0


@hip_api
def hipEventCreate(out: int) -> int:
    return _create_event(out, 0)


@hip_api
def hipEventCreateWithFlags(out: int, flags: int) -> int:
    return _create_event(out, flags)


@hip_api
def hipEventDestroy(handle: int) -> int:
    if EVENTS.pop(handle, None) is None:
        return errors.INVALID_HANDLE
    return 0


def record(handle: int) -> None:
    check_event(handle).time_s = DEVICE.clock_s


@hip_api
def hipEventRecord(handle: int, stream: int) -> int:
    check_event(handle)
    return enqueue(stream, lambda: record(handle) or 0)


@hip_api
def hipEventSynchronize(handle: int) -> int:
    check_event(handle)
    return 0


@hip_api
def hipEventQuery(handle: int) -> int:
    check_event(handle)
    return 0


@hip_api
def hipEventElapsedTime(ms: int, start: int, stop: int) -> int:
    first, last = check_event(start), check_event(stop)
    if first.time_s is None or last.time_s is None:
        return errors.INVALID_HANDLE
    if (first.flags | last.flags) & EVENT_DISABLE_TIMING:
        return errors.INVALID_HANDLE
    cmem.put_float(ms, (last.time_s - first.time_s) * 1e3)
    return 0
