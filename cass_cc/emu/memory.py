"""The emulated device address space.

Device pointers are real host addresses of numpy buffers this object owns (or that were registered),
so a runtime implements hipMemcpy as a plain memmove. Emulated accesses are checked against the
live allocations; an access outside every one raises AccessError (the executor reports it).

Like ROCm's, an allocation occupies whole pages: ROCr's device and system memory pools report
HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE = 4096 (kPageSize_, amd_memory_region.cpp), and hsa.h says
"the size of a buffer allocated in this region is a multiple of" it. So an access a few bytes past
the end of an allocation, inside its last page, does not fault on a GPU: here it reads the
zero-filled padding (or what an earlier such write left there) and writes land in the padding,
never in a neighbour. Such an access is a `PaddingAccess` (reported by the launch as a warning, or
a fault under strict); one past the page, or outside every allocation, raises AccessError.
Registered host memory (not ours to pad) reaches to the end of its last page, which the process
has mapped as the GPU would.

`changed` is set by every emulated write that changes the bytes it lands on (the hang detector's
evidence of progress, cass_cc.emu.progress); `read_grew` by a read that, all inside one
allocation, reaches past the range of it read so far (`read_ranges`: a loop that walks an array
makes progress, one that re-reads a flag does not); `host_read` by every access to host or managed
memory, which another host thread may change while a kernel polls it (and by a read of the clock,
which changes likewise: cass_cc.emu.salu); the launch clears them.
"""

from __future__ import annotations

import bisect
import ctypes

import numpy as np

from .fault import AccessError

ALIGN = 256
GRANULE = 4096          # bytes: ROCr's allocation granule (a page), see above
KINDS = ("device", "host", "managed", "kernarg", "global")
HOST_KINDS = ("host", "managed")   # memory a host thread may write while a kernel runs


class PaddingAccess:
    """An access that ends past its allocation but inside the allocation's last page."""

    def __init__(self, index: int, address: int, nbytes: int, write: bool, base: int, size: int):
        self.index, self.address, self.nbytes, self.write = index, address, nbytes, write
        self.base, self.size = base, size
        self.lane: int | None = None

    def describe(self) -> str:
        past = self.address + self.nbytes - (self.base + self.size)
        return (f"{'write' if self.write else 'read'} of {self.nbytes} bytes at {self.address:#x}: "
                f"{past} bytes past the end of the allocation at {self.base:#x} (size {self.size}), inside "
                f"its {GRANULE}-byte page, which a GPU maps")


class Memory:
    def __init__(self):
        self._bases: list[int] = []       # sorted
        self._allocs: dict[int, tuple[int, str, object]] = {}   # base -> (size, kind, owner buffer)
        self._caps: dict[int, int] = {}   # base -> bytes an access may reach (size padded to its page)
        self._starts = np.zeros(0, np.uint64)
        self._ends = np.zeros(0, np.uint64)
        self._limits = np.zeros(0, np.uint64)
        self.changed = False              # an emulated write changed memory (cleared by the launch)
        self.host_read = False            # an emulated access read memory the host may change meanwhile
        self.read_grew = False            # an emulated read reached bytes of an allocation not read before
        self.read_ranges: dict[int, tuple[int, int]] = {}   # base -> [lo, hi) read so far (the launch clears)
        self._host = np.zeros(0, bool)    # per allocation: host or managed memory
        self._any_host = False
        self.strict = False               # padding accesses fault instead of being recorded
        self.padding: list[PaddingAccess] = []   # padding accesses the launch has not yet seen
        self.padding_count = 0                   # padding accesses so far (instructions x lanes reported)
        self.padding_reported: set[tuple[str, int]] = set()   # (kernel, pc) already warned about
        self.warn = None                         # where launches send warnings (None: stderr)

    # --- allocations ---------------------------------------------------------------------
    def allocate(self, size: int, kind: str = "device") -> int:
        """A new zero-filled allocation of `size` bytes, 256-byte aligned; its address."""
        if kind not in KINDS:
            raise ValueError(f"unknown memory kind {kind!r}")
        size = max(int(size), 1)
        cap = -(-size // GRANULE) * GRANULE
        buf = np.zeros(cap + ALIGN, np.uint8)
        addr = buf.ctypes.data
        base = (addr + ALIGN - 1) & ~(ALIGN - 1)
        self._insert(base, size, kind, buf, cap)
        return base

    def free(self, addr: int) -> None:
        if addr not in self._allocs or self._allocs[addr][2] is None:
            raise ValueError(f"free of {addr:#x}: not an allocation of this memory")
        self._remove(addr)

    def register(self, addr: int, size: int, kind: str = "host") -> None:
        """Memory owned by someone else (hipHostRegister): emulated accesses to it become legal."""
        addr, size = int(addr), int(size)
        self._insert(addr, size, kind, None, -(-(addr + size) // GRANULE) * GRANULE - addr)

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

    def _insert(self, base, size, kind, owner, cap):
        if self.find(base) is not None:
            raise ValueError(f"{base:#x} overlaps an existing allocation")
        bisect.insort(self._bases, base)
        self._allocs[base] = (size, kind, owner)
        self._caps[base] = cap
        self._refresh()

    def _remove(self, base):
        self._bases.remove(base)
        del self._allocs[base]
        del self._caps[base]
        self._refresh()

    def _refresh(self):
        self._starts = np.array(self._bases, np.uint64)
        self._ends = np.array([b + self._allocs[b][0] for b in self._bases], np.uint64)
        # an access may reach the end of the page, but never into the next allocation
        limits = [b + self._caps[b] for b in self._bases]
        for i in range(len(limits) - 1):
            limits[i] = min(limits[i], self._bases[i + 1])
        self._limits = np.array(limits, np.uint64)
        self._host = np.array([self._allocs[b][1] in HOST_KINDS for b in self._bases], bool)
        self._any_host = bool(self._host.any())

    # --- emulated accesses (vectorised over lanes) ----------------------------------------
    def check(self, addrs: np.ndarray, nbytes: int, write: bool) -> tuple[int, int]:
        """Raise AccessError for the first address whose nbytes are not inside one allocation's
        pages; record (or, when strict, raise) the first that ends in an allocation's padding.
        The lowest and highest address."""
        a = addrs.astype(np.uint64, copy=False)
        lo, hi = int(a.min()), int(a.max())
        k = bisect.bisect_right(self._bases, lo) - 1
        if k >= 0:                         # the common case: every address inside one allocation
            base = self._bases[k]
            if hi + nbytes <= base + self._allocs[base][0]:
                if self._any_host and not self.host_read:
                    self.host_read = bool(self._host[k])
                if not write:
                    seen = self.read_ranges.get(base)
                    if seen is None or lo < seen[0] or hi + nbytes > seen[1]:
                        self.read_ranges[base] = ((lo, hi + nbytes) if seen is None else
                                                  (min(lo, seen[0]), max(hi + nbytes, seen[1])))
                        self.read_grew = True
                return lo, hi
        i = np.searchsorted(self._starts, a, side="right") - 1
        ok = i >= 0
        j = np.maximum(i, 0)
        end = a + np.uint64(nbytes)
        limits = self._limits[j] if len(self._limits) else np.zeros_like(a)
        ok &= end <= limits
        ok &= a <= end                     # no wrap-around
        if not ok.all():
            bad = int(np.argmin(ok))
            raise AccessError(bad, int(a[bad]), nbytes, write)
        if self._any_host and not self.host_read:
            self.host_read = bool(self._host[j].any())
        past = end > self._ends[j]
        if past.any():
            k = int(np.argmax(past))
            base = int(self._starts[j[k]])
            hit = PaddingAccess(k, int(a[k]), nbytes, write, base, self._allocs[base][0])
            if self.strict:
                raise AccessError(k, hit.address, nbytes, write, padding=hit)
            self.padding.append(hit)
        return lo, hi

    def read(self, addrs: np.ndarray, nbytes: int) -> np.ndarray:
        """Bytes at each address: (n, nbytes) uint8."""
        if addrs.size == 0:
            return np.zeros((0, nbytes), np.uint8)
        lo, hi = self.check(addrs, nbytes, False)
        span = _raw(lo, hi - lo + nbytes)
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
        lo, hi = self.check(addrs, nbytes, True)
        span = _raw(lo, hi - lo + nbytes)
        offsets = (addrs - np.uint64(lo)).astype(np.int64)
        if nbytes % 4 == 0 and lo % 4 == 0 and not (offsets & 3).any():
            words = np.ascontiguousarray(data).view(np.uint32).reshape(len(addrs), nbytes // 4)
            target, index = span[:len(span) // 4 * 4].view(np.uint32), (offsets >> 2)[:, None] + np.arange(nbytes // 4)
        else:
            target, index, words = span, offsets[:, None] + np.arange(nbytes), data
        if self.changed:
            target[index] = words
            return
        before = target[index]            # compared after the store: with repeated addresses the last lane wins
        target[index] = words
        self.changed = not np.array_equal(before, target[index])


def _raw(addr: int, size: int) -> np.ndarray:
    """uint8 view of host memory at addr (the caller has checked it is live)."""
    return np.ctypeslib.as_array((ctypes.c_uint8 * size).from_address(addr))
