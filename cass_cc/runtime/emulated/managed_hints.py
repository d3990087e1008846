"""Unified-memory hints (hipMemAdvise, hipMemPrefetchAsync) and the range queries that read them
back (hipMemRangeGetAttribute(s)), as ROCm answers them for managed memory. The emulator keeps
managed memory in one place, so a hint changes nothing but what the queries say. A range's answer
holds only where every byte of it agrees; hints about memory that is not managed are accepted and
change nothing."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

from . import cmem, errors
from .registry import hip_api
from .state import DEVICE
from .streams import check_stream

# hipMemoryAdvise: (kind, set) of each advice; hipMemRangeAttribute
ADVICE = {1: ("read_mostly", True), 2: ("read_mostly", False), 3: ("preferred", True),
          4: ("preferred", False), 5: ("accessed_by", True), 6: ("accessed_by", False)}
COARSE_GRAIN_ADVICE = (100, 101)   # a coherence choice: the emulator's memory is coherent either way
READ_MOSTLY, PREFERRED_LOCATION, ACCESSED_BY, LAST_PREFETCH_LOCATION = 1, 2, 3, 4
CPU_DEVICE_ID, INVALID_DEVICE_ID = -1, -2
DEVICE_COUNT = 1


@dataclass
class Hint:
    base: int            # the managed allocation's address: the hint goes with it
    start: int
    end: int
    kind: str
    set: bool
    device: int          # a device's ordinal, or CPU_DEVICE_ID


HINTS: list[Hint] = []   # later after earlier: the last one covering a byte holds


def _managed_base(address: int, count: int) -> int | None:
    alloc = DEVICE.find(address)
    if alloc is None or alloc.kind != "managed" or not count or address + count > alloc.address + alloc.size:
        return None
    return alloc.address


def _hint(address: int, count: int, kind: str, is_set: bool, device: int) -> int:
    if device != CPU_DEVICE_ID and not 0 <= device < DEVICE_COUNT:
        return errors.INVALID_DEVICE
    base = _managed_base(address, count)
    if base is None:
        DEVICE.check_range(address, count)
        return 0
    live = {a.address for a in DEVICE.allocations.values()}
    HINTS[:] = [h for h in HINTS if h.base in live]   # those of freed allocations go
    HINTS.append(Hint(base, address, address + count, kind, is_set, device))
    return 0


def _last(at: int, kind: str, who: int | None) -> Hint | None:
    found = None
    for h in HINTS:
        if h.kind == kind and h.start <= at < h.end and (who is None or h.device == who):
            found = h
    return found


def _uniform(address: int, count: int, kind: str, who: int | None = None) -> int | None:
    """The device every byte of the range was set to by a hint of `kind`, or None."""
    end = address + count
    # Hints change only at their ends: the range's first byte and every end inside it decide.
    points = {address} | {p for h in HINTS for p in (h.start, h.end) if address < p < end}
    devices = set()
    for at in points:
        h = _last(at, kind, who)
        if h is None or not h.set:
            return None
        devices.add(h.device)
    return devices.pop() if len(devices) == 1 else None


@hip_api
def hipMemAdvise(address: int, count: int, advice: int, device: int) -> int:
    if advice in COARSE_GRAIN_ADVICE:
        DEVICE.check_range(address, count)
        return 0
    if advice not in ADVICE:
        return errors.INVALID_VALUE
    kind, is_set = ADVICE[advice]
    return _hint(address, count, kind, is_set, device)


@hip_api
def hipMemPrefetchAsync(address: int, count: int, device: int, stream: int) -> int:
    """Recorded when asked: a query that reads it comes after the program waited for the stream."""
    check_stream(stream)
    return _hint(address, count, "prefetch", True, device)


def _attribute(data: int, size: int, attribute: int, address: int, count: int) -> int:
    if not data or _managed_base(address, count) is None:
        return errors.INVALID_VALUE
    if attribute == ACCESSED_BY:
        if size == 0 or size % 4:
            return errors.INVALID_VALUE
        found = [d for d in [*range(DEVICE_COUNT), CPU_DEVICE_ID]
                 if _uniform(address, count, "accessed_by", d) is not None]
        values = (found + [INVALID_DEVICE_ID] * (size // 4))[:size // 4]
        (ctypes.c_int * len(values)).from_address(data)[:] = values
        return 0
    if size != 4:
        return errors.INVALID_VALUE
    if attribute == READ_MOSTLY:
        value = int(_uniform(address, count, "read_mostly") is not None)
    elif attribute in (PREFERRED_LOCATION, LAST_PREFETCH_LOCATION):
        device = _uniform(address, count, "preferred" if attribute == PREFERRED_LOCATION else "prefetch")
        value = INVALID_DEVICE_ID if device is None else device
    else:
        return errors.INVALID_VALUE
    cmem.put_int(data, value)
    return 0


@hip_api
def hipMemRangeGetAttribute(data: int, size: int, attribute: int, address: int, count: int) -> int:
    return _attribute(data, size, attribute, address, count)


@hip_api
def hipMemRangeGetAttributes(data: int, sizes: int, attributes: int, number: int, address: int,
                             count: int) -> int:
    if not data or not sizes or not attributes or not number:
        return errors.INVALID_VALUE
    pointers = (ctypes.c_void_p * number).from_address(data)
    lengths = (ctypes.c_size_t * number).from_address(sizes)
    kinds = (ctypes.c_int * number).from_address(attributes)
    for i in range(number):
        e = _attribute(pointers[i] or 0, lengths[i], kinds[i], address, count)
        if e:
            return e
    return 0
