"""The emulated device address space.

Device pointers are real host addresses of numpy buffers this object owns (or that were registered),
so a runtime implements hipMemcpy as a plain memmove. Emulated accesses are checked against the
live allocations; an access outside every one raises AccessError (the executor reports it).
"""

from __future__ import annotations

import bisect
import ctypes

import numpy as np

from .fault import AccessError

ALIGN = 256
KINDS = ("device", "host", "managed", "kernarg", "global")


class Memory:
    def __init__(self):
        self._bases: list[int] = []       # sorted
        self._allocs: dict[int, tuple[int, str, object]] = {}   # base -> (size, kind, owner buffer)
        self._starts = np.zeros(0, np.uint64)
        self._ends = np.zeros(0, np.uint64)

    # --- allocations ---------------------------------------------------------------------
    def allocate(self, size: int, kind: str = "device") -> int:
        """A new zero-filled allocation of `size` bytes, 256-byte aligned; its address."""
        if kind not in KINDS:
            raise ValueError(f"unknown memory kind {kind!r}")
        buf = np.zeros(max(int(size), 1) + ALIGN, np.uint8)
        addr = buf.ctypes.data
        base = (addr + ALIGN - 1) & ~(ALIGN - 1)
        self._insert(base, max(int(size), 1), kind, buf)
        return base

    def free(self, addr: int) -> None:
        if addr not in self._allocs or self._allocs[addr][2] is None:
            raise ValueError(f"free of {addr:#x}: not an allocation of this memory")
        self._remove(addr)

    def register(self, addr: int, size: int, kind: str = "host") -> None:
        """Memory owned by someone else (hipHostRegister): emulated accesses to it become legal."""
        self._insert(int(addr), int(size), kind, None)

    def unregister(self, addr: int) -> None:
        if addr not in self._allocs or self._allocs[addr][2] is not None:
            raise ValueError(f"unregister of {addr:#x}: not registered")
        self._remove(addr)

    def find(self, addr: int) -> tuple[int, int, str] | None:
        """(base, size, kind) of the allocation containing addr, or None."""
        i = bisect.bisect_right(self._bases, addr) - 1
        if i >= 0:
            base = self._bases[i]
            size, kind, _ = self._allocs[base]
            if addr < base + size:
                return base, size, kind
        return None

    def view(self, addr: int, size: int) -> np.ndarray:
        """A writable uint8 view of [addr, addr+size) (which must lie in one allocation)."""
        found = self.find(addr)
        if found is None or addr + size > found[0] + found[1]:
            raise AccessError(0, addr, size, False)
        return _raw(addr, size)

    def _insert(self, base, size, kind, owner):
        if self.find(base) is not None:
            raise ValueError(f"{base:#x} overlaps an existing allocation")
        bisect.insort(self._bases, base)
        self._allocs[base] = (size, kind, owner)
        self._refresh()

    def _remove(self, base):
        self._bases.remove(base)
        del self._allocs[base]
        self._refresh()

    def _refresh(self):
        self._starts = np.array(self._bases, np.uint64)
        self._ends = np.array([b + self._allocs[b][0] for b in self._bases], np.uint64)

    # --- emulated accesses (vectorised over lanes) ----------------------------------------
    def check(self, addrs: np.ndarray, nbytes: int, write: bool) -> None:
        """Raise AccessError for the first address whose nbytes are not inside one allocation."""
        a = addrs.astype(np.uint64, copy=False)
        i = np.searchsorted(self._starts, a, side="right") - 1
        ok = i >= 0
        ends = self._ends[np.maximum(i, 0)] if len(self._ends) else np.zeros_like(a)
        ok &= (a + np.uint64(nbytes)) <= ends
        ok &= a <= a + np.uint64(nbytes)   # no wrap-around
        if not ok.all():
            bad = int(np.argmin(ok))
            raise AccessError(bad, int(a[bad]), nbytes, write)

    def read(self, addrs: np.ndarray, nbytes: int) -> np.ndarray:
        """Bytes at each address: (n, nbytes) uint8."""
        if addrs.size == 0:
            return np.zeros((0, nbytes), np.uint8)
        self.check(addrs, nbytes, False)
        lo = int(addrs.min())
        span = _raw(lo, int(addrs.max()) - lo + nbytes)
        offsets = (addrs - np.uint64(lo)).astype(np.int64)
        if nbytes % 4 == 0 and lo % 4 == 0 and not (offsets & 3).any():   # aligned dwords
            words = span[:len(span) // 4 * 4].view(np.uint32)[(offsets >> 2)[:, None] + np.arange(nbytes // 4)]
            return words.view(np.uint8).reshape(len(addrs), nbytes)
        return span[offsets[:, None] + np.arange(nbytes)]

    def write(self, addrs: np.ndarray, data: np.ndarray) -> None:
        """Store data[i] (nbytes uint8) at addrs[i], in order (later lanes win)."""
        if addrs.size == 0:
            return
        nbytes = data.shape[1]
        self.check(addrs, nbytes, True)
        lo = int(addrs.min())
        span = _raw(lo, int(addrs.max()) - lo + nbytes)
        offsets = (addrs - np.uint64(lo)).astype(np.int64)
        if nbytes % 4 == 0 and lo % 4 == 0 and not (offsets & 3).any():
            words = np.ascontiguousarray(data).view(np.uint32).reshape(len(addrs), nbytes // 4)
            span[:len(span) // 4 * 4].view(np.uint32)[(offsets >> 2)[:, None] + np.arange(nbytes // 4)] = words
            return
        span[offsets[:, None] + np.arange(nbytes)] = data


def _raw(addr: int, size: int) -> np.ndarray:
    """uint8 view of host memory at addr (the caller has checked it is live)."""
    return np.ctypeslib.as_array((ctypes.c_uint8 * size).from_address(addr))
