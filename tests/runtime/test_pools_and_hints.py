"""The emulated runtime's memory pools and unified-memory hints, called as the C shim calls them
(integers for pointers, through api.API): what ROCm 5.2's libamdhip64 answers, checked by value."""

from __future__ import annotations

import ctypes

from cass_cc.runtime.emulated import errors, pools
from cass_cc.runtime.emulated.api import API

READ_MOSTLY, PREFERRED, ACCESSED_BY, LAST_PREFETCH = 1, 2, 3, 4
SET_READ_MOSTLY, UNSET_READ_MOSTLY, SET_PREFERRED = 1, 2, 3
CPU, INVALID = -1, -2


def _addr(obj) -> int:
    return ctypes.addressof(obj)


def test_a_created_pool_allocates_counts_and_is_destroyed():
    props = pools.MemPoolProps(allocType=pools.ALLOCATION_TYPE_PINNED,
                               location=pools.MemLocation(pools.LOCATION_TYPE_DEVICE, 0))
    handle = ctypes.c_void_p()
    assert API["hipMemPoolCreate"](_addr(handle), _addr(props)) == 0
    ptr = ctypes.c_void_p()
    assert API["hipMallocFromPoolAsync"](_addr(ptr), 4096, handle.value, 0) == 0
    used = ctypes.c_uint64()
    assert API["hipMemPoolGetAttribute"](handle.value, pools.USED_CURRENT, _addr(used)) == 0
    assert used.value == 4096
    assert API["hipFreeAsync"](ptr.value, 0) == 0
    assert API["hipMemPoolGetAttribute"](handle.value, pools.USED_CURRENT, _addr(used)) == 0
    assert used.value == 0
    high = ctypes.c_uint64()
    assert API["hipMemPoolGetAttribute"](handle.value, pools.USED_HIGH, _addr(high)) == 0
    assert high.value == 4096
    zero, one = ctypes.c_uint64(0), ctypes.c_uint64(1)
    assert API["hipMemPoolSetAttribute"](handle.value, pools.USED_HIGH, _addr(zero)) == 0
    assert API["hipMemPoolSetAttribute"](handle.value, pools.USED_HIGH, _addr(one)) == errors.INVALID_VALUE
    assert API["hipMemPoolDestroy"](handle.value) == 0
    assert API["hipMemPoolTrimTo"](handle.value, 0) == errors.INVALID_VALUE


def test_the_default_pool_is_the_device_pool_and_stays():
    default, current = ctypes.c_void_p(), ctypes.c_void_p()
    assert API["hipDeviceGetDefaultMemPool"](_addr(default), 0) == 0
    assert API["hipDeviceGetMemPool"](_addr(current), 0) == 0
    assert default.value == current.value
    assert API["hipMemPoolDestroy"](default.value) == errors.INVALID_VALUE
    assert API["hipDeviceGetDefaultMemPool"](_addr(default), 1) == errors.INVALID_DEVICE
    props = pools.MemPoolProps(allocType=pools.ALLOCATION_TYPE_PINNED,
                               location=pools.MemLocation(pools.LOCATION_TYPE_DEVICE, 1))
    assert API["hipMemPoolCreate"](_addr(ctypes.c_void_p()), _addr(props)) == errors.INVALID_VALUE


def _attribute(attribute: int, address: int, count: int) -> int:
    value = ctypes.c_int(12345)
    assert API["hipMemRangeGetAttribute"](_addr(value), 4, attribute, address, count) == 0
    return value.value


def test_a_range_answers_only_where_every_byte_agrees():
    managed = ctypes.c_void_p()
    assert API["hipMallocManaged"](_addr(managed), 8192, 1) == 0
    base, half = managed.value, 4096
    assert _attribute(PREFERRED, base, 2 * half) == INVALID
    assert API["hipMemAdvise"](base, 2 * half, SET_READ_MOSTLY, 0) == 0
    assert API["hipMemAdvise"](base + half, half, UNSET_READ_MOSTLY, 0) == 0
    assert (_attribute(READ_MOSTLY, base, 2 * half), _attribute(READ_MOSTLY, base, half),
            _attribute(READ_MOSTLY, base + half, half)) == (0, 1, 0)
    assert API["hipMemAdvise"](base, 2 * half, SET_PREFERRED, 0) == 0
    assert API["hipMemAdvise"](base + half, half, SET_PREFERRED, CPU) == 0
    assert (_attribute(PREFERRED, base, 2 * half), _attribute(PREFERRED, base, half),
            _attribute(PREFERRED, base + half, half)) == (INVALID, 0, CPU)
    assert API["hipMemPrefetchAsync"](base, half, 0, 0) == 0
    assert _attribute(LAST_PREFETCH, base, half) == 0
    assert _attribute(LAST_PREFETCH, base, 2 * half) == INVALID
    by = (ctypes.c_int * 3)()
    assert API["hipMemAdvise"](base, half, 5, 0) == 0   # hipMemAdviseSetAccessedBy
    assert API["hipMemRangeGetAttribute"](_addr(by), ctypes.sizeof(by), ACCESSED_BY, base, half) == 0
    assert list(by) == [0, INVALID, INVALID]
    assert API["hipFree"](base) == 0


def test_memory_that_is_not_managed_has_no_range_attributes():
    plain = ctypes.c_void_p()
    assert API["hipMalloc"](_addr(plain), 4096) == 0
    value = ctypes.c_int()
    assert API["hipMemRangeGetAttribute"](_addr(value), 4, READ_MOSTLY, plain.value, 4096) == errors.INVALID_VALUE
    assert API["hipMemAdvise"](plain.value, 4096, SET_READ_MOSTLY, 0) == 0   # accepted, changes nothing
    assert API["hipFree"](plain.value) == 0
