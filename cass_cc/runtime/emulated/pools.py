"""Stream-ordered allocation (hipMallocAsync, hipFreeAsync) and the memory pools it draws from
(ROCm 5.1+). The emulator runs every operation when it is issued (each stream is idle when a call
returns), so a pool keeps no freed memory for later: what it reports in use is also what it has
reserved, and trimming releases nothing."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field

from . import cmem, errors
from .registry import hip_api
from .state import DEVICE
from .streams import check_stream

# hipMemPoolAttr of HIP 5.2
REUSE_ATTRS = (0x1, 0x2, 0x3)          # int flags, all on by default as in CUDA
RELEASE_THRESHOLD = 0x4                # uint64_t
RESERVED_CURRENT, RESERVED_HIGH, USED_CURRENT, USED_HIGH = 0x5, 0x6, 0x7, 0x8
ALLOCATION_TYPE_PINNED = 0x1
LOCATION_TYPE_DEVICE = 0x1
ACCESS_READ_WRITE = 0x3


@dataclass
class Pool:
    reuse: dict[int, int] = field(default_factory=lambda: dict.fromkeys(REUSE_ATTRS, 1))
    release_threshold: int = 0
    used: int = 0
    used_high: int = 0
    reserved_high: int = 0
    allocations: dict[int, int] = field(default_factory=dict)   # address -> size

    def take(self, size: int) -> int:
        address = DEVICE.allocate(size, "device") if size else 0
        if address:
            self.allocations[address] = size
            self.used += size
            self.used_high = max(self.used_high, self.used)
            self.reserved_high = max(self.reserved_high, self.used)
        return address

    def give_back(self, address: int) -> None:
        DEVICE.free(address, ("device",))
        self.used -= self.allocations.pop(address)


class MemLocation(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int)]


class MemPoolProps(ctypes.Structure):
    """hipMemPoolProps of HIP 5.2."""
    _fields_ = [("allocType", ctypes.c_int), ("handleTypes", ctypes.c_int), ("location", MemLocation),
                ("win32SecurityAttributes", ctypes.c_void_p), ("reserved", ctypes.c_ubyte * 64)]


class MemAccessDesc(ctypes.Structure):
    _fields_ = [("location", MemLocation), ("flags", ctypes.c_int)]


DEFAULT_POOL = cmem.new_handle()
POOLS: dict[int, Pool] = {DEFAULT_POOL: Pool()}
_current = {"pool": DEFAULT_POOL}


def _pool(handle: int) -> Pool:
    pool = POOLS.get(handle)
    if pool is None:
        raise errors.HipFailure(errors.INVALID_VALUE, f"unknown memory pool {handle:#x}")
    return pool


def _device(device: int) -> None:
    if device != 0:
        raise errors.HipFailure(errors.INVALID_DEVICE)


def _on_device(location: MemLocation) -> bool:
    return location.type == LOCATION_TYPE_DEVICE and location.id == 0


def _malloc_from(out: int, size: int, handle: int, stream: int) -> int:
    if not out:
        return errors.INVALID_VALUE
    pool = _pool(handle)
    check_stream(stream)
    cmem.put_ptr(out, pool.take(size))
    return 0


@hip_api
def hipMallocAsync(out: int, size: int, stream: int) -> int:
    return _malloc_from(out, size, _current["pool"], stream)


@hip_api
def hipMallocFromPoolAsync(out: int, size: int, handle: int, stream: int) -> int:
    return _malloc_from(out, size, handle, stream)


@hip_api
def hipFreeAsync(address: int, stream: int) -> int:
    check_stream(stream)
    owner = next((p for p in POOLS.values() if address in p.allocations), None)
    if owner is None:   # allocated by hipMalloc: CUDA lets hipFreeAsync free it too
        DEVICE.free(address, ("device", "managed"))
    else:
        owner.give_back(address)
    return 0


@hip_api
def hipDeviceGetDefaultMemPool(out: int, device: int) -> int:
    _device(device)
    cmem.put_ptr(out, DEFAULT_POOL)
    return 0


@hip_api
def hipDeviceGetMemPool(out: int, device: int) -> int:
    _device(device)
    cmem.put_ptr(out, _current["pool"])
    return 0


@hip_api
def hipDeviceSetMemPool(device: int, handle: int) -> int:
    _device(device)
    _pool(handle)
    _current["pool"] = handle
    return 0


@hip_api
def hipMemPoolCreate(out: int, props_address: int) -> int:
    if not out or not props_address:
        return errors.INVALID_VALUE
    props = MemPoolProps.from_address(props_address)
    if props.allocType != ALLOCATION_TYPE_PINNED or not _on_device(props.location):
        return errors.INVALID_VALUE
    handle = cmem.new_handle()
    POOLS[handle] = Pool()
    cmem.put_ptr(out, handle)
    return 0


@hip_api
def hipMemPoolDestroy(handle: int) -> int:
    pool = _pool(handle)
    if handle == DEFAULT_POOL:
        return errors.INVALID_VALUE
    for address in list(pool.allocations):   # CUDA: outstanding allocations are freed with the pool
        pool.give_back(address)
    del POOLS[handle]
    if _current["pool"] == handle:
        _current["pool"] = DEFAULT_POOL
    return 0


@hip_api
def hipMemPoolTrimTo(handle: int, keep: int) -> int:
    _pool(handle)
    return 0


@hip_api
def hipMemPoolSetAttribute(handle: int, attr: int, value: int) -> int:
    pool = _pool(handle)
    if not value:
        return errors.INVALID_VALUE
    if attr in REUSE_ATTRS:
        pool.reuse[attr] = int(cmem.get_u32(value) != 0)
    elif attr == RELEASE_THRESHOLD:
        pool.release_threshold = cmem.get_u64(value)
    elif attr in (RESERVED_HIGH, USED_HIGH) and cmem.get_u64(value) == 0:   # only a reset to zero
        if attr == RESERVED_HIGH:
            pool.reserved_high = pool.used
        else:
            pool.used_high = pool.used
    else:
        return errors.INVALID_VALUE
    return 0


@hip_api
def hipMemPoolGetAttribute(handle: int, attr: int, value: int) -> int:
    pool = _pool(handle)
    if not value:
        return errors.INVALID_VALUE
    if attr in REUSE_ATTRS:
        cmem.put_int(value, pool.reuse[attr])
        return 0
    values = {RELEASE_THRESHOLD: pool.release_threshold, RESERVED_CURRENT: pool.used,
              RESERVED_HIGH: pool.reserved_high, USED_CURRENT: pool.used, USED_HIGH: pool.used_high}
    if attr not in values:
        return errors.INVALID_VALUE
    ctypes.c_uint64.from_address(value).value = values[attr]
    return 0


@hip_api
def hipMemPoolSetAccess(handle: int, descs: int, count: int) -> int:
    _pool(handle)
    array = (MemAccessDesc * count).from_address(descs) if count else ()
    if any(not _on_device(d.location) or d.flags != ACCESS_READ_WRITE for d in array):
        return errors.INVALID_VALUE   # one device, which always reads and writes its own pools
    return 0


@hip_api
def hipMemPoolGetAccess(flags: int, handle: int, location: int) -> int:
    _pool(handle)
    if not flags or not location or not _on_device(MemLocation.from_address(location)):
        return errors.INVALID_VALUE
    cmem.put_int(flags, ACCESS_READ_WRITE)
    return 0
