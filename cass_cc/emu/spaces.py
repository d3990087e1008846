"""The three places a lane's access can land: global memory (Memory, by device address), the
workgroup's LDS (by offset), and the lane's private segment (scratch, by offset).

Accesses are vectorised over the active lanes: `wave` and `lane` (m,) say whose access each is,
`addr` (m,) where. Out-of-range accesses raise AccessError naming the lane.
"""

from __future__ import annotations

import numpy as np

from .fault import AccessError


def _lane_error(err: AccessError, lane: np.ndarray) -> AccessError:
    err.lane = int(lane[err.index])
    return err


def _padding_lanes(mem, first: int, lane: np.ndarray) -> None:
    """Name the lane of the padding accesses Memory recorded from index `first` on."""
    for hit in mem.padding[first:]:
        if hit.lane is None:
            hit.lane = int(lane[hit.index])


class GlobalSpace:
    name = ""

    def key(self, st, wave, lane, addr):
        """Identity of each accessed location (addresses of different owners differ)."""
        return addr.astype(np.uint64)

    def read(self, st, wave, lane, addr, nbytes):
        first = len(st.mem.padding)
        try:
            data = st.mem.read(addr.astype(np.uint64), nbytes)
        except AccessError as e:
            raise _lane_error(e, lane) from None
        if len(st.mem.padding) > first:
            _padding_lanes(st.mem, first, lane)
        return data

    def write(self, st, wave, lane, addr, data):
        first = len(st.mem.padding)
        try:
            st.mem.write(addr.astype(np.uint64), data)
        except AccessError as e:
            raise _lane_error(e, lane) from None
        if len(st.mem.padding) > first:
            _padding_lanes(st.mem, first, lane)


class _OffsetSpace:
    """Bounds-checked byte arrays indexed by (owner, offset)."""
    name = ""

    def check(self, st, lane, addr, nbytes, write):
        """Raise AccessError (naming the lane) if an access leaves the space."""
        limit = self._size(st)
        bad = (addr < 0) | (addr + nbytes > limit)
        if bad.any():
            i = int(np.argmax(bad))
            err = AccessError(i, int(addr[i]) & 0xFFFFFFFF, nbytes, write, self.name)
            raise _lane_error(err, lane)

    def read(self, st, wave, lane, addr, nbytes):
        addr = addr.astype(np.int64)
        self.check(st, lane, addr, nbytes, False)
        if nbytes % 4 == 0 and not (addr & 3).any():       # whole aligned dwords: 4x fewer elements
            words = self._array(st).view(np.uint32)[self._index(st, wave, lane, addr >> 2, nbytes // 4)]
            return words.view(np.uint8).reshape(len(addr), nbytes)
        return self._array(st)[self._index(st, wave, lane, addr, nbytes)]

    def write(self, st, wave, lane, addr, data):
        addr = addr.astype(np.int64)
        nbytes = data.shape[1]
        self.check(st, lane, addr, nbytes, True)
        if nbytes % 4 == 0 and not (addr & 3).any():
            words = np.ascontiguousarray(data).view(np.uint32).reshape(len(addr), nbytes // 4)
            target, index = self._array(st).view(np.uint32), self._index(st, wave, lane, addr >> 2, nbytes // 4)
        else:
            target, index, words = self._array(st), self._index(st, wave, lane, addr, nbytes), data
        if not self.watched(st):
            target[index] = words
            return
        before = target[index]            # compared after the store: the last of equal addresses wins
        target[index] = words
        self.note_change(st, wave, before != target[index])

    def watched(self, st) -> bool:
        """Whether the hang detector needs to know which writes change this space."""
        return False

    def note_change(self, st, wave, differs: np.ndarray) -> None:
        """differs: per accessed element, whether the write changed it."""


class LdsSpace(_OffsetSpace):
    """Changes of LDS are progress: other waves of the workgroup see them."""
    name = "lds"

    def watched(self, st):
        return not st.lds_changed

    def note_change(self, st, wave, differs):
        st.lds_changed = bool(differs.any())

    def key(self, st, wave, lane, addr):
        return (st.wg[wave].astype(np.int64) << 32) | addr.astype(np.int64)

    def _size(self, st):
        return st.lds_bytes

    def _array(self, st):
        return st.lds

    def _index(self, st, wave, lane, addr, count):
        return st.wg[wave][:, None], addr[:, None] + np.arange(count)


class ScratchSpace(_OffsetSpace):
    """A lane's private memory is part of its wave's state, like its registers: no other wave sees
    it, so changing it is not progress; while the hang detector looks for repeated states it
    counts each wave's scratch changes (st.scratch_version) instead of comparing scratch."""
    name = "scratch"

    def watched(self, st):
        return st.watch_scratch

    def note_change(self, st, wave, differs):
        changed = differs.reshape(len(wave), -1).any(axis=1)
        if changed.any():
            np.add.at(st.scratch_version, wave[changed], 1)

    def key(self, st, wave, lane, addr):
        return ((wave.astype(np.int64) * st.lanes + lane) << 32) | addr.astype(np.int64)

    def _size(self, st):
        return st.scratch_bytes

    def _array(self, st):
        return st.scratch

    def _index(self, st, wave, lane, addr, count):
        return wave[:, None], lane[:, None], addr[:, None] + np.arange(count)


class OutOfRangeSpace:
    """Where buffer accesses outside their descriptor's range go: reads return 0, writes are
    dropped (so an atomic returns 0 and changes nothing)."""
    name = "out of range"

    def key(self, st, wave, lane, addr):
        return addr.astype(np.uint64)

    def read(self, st, wave, lane, addr, nbytes):
        return np.zeros((len(addr), nbytes), np.uint8)

    def write(self, st, wave, lane, addr, data):
        return None


GLOBAL, LDS, SCRATCH, OUT_OF_RANGE = GlobalSpace(), LdsSpace(), ScratchSpace(), OutOfRangeSpace()


# --- atomics ----------------------------------------------------------------------------

def _inc(old, data):
    return np.where(old >= data, old.dtype.type(0), old + old.dtype.type(1))


def _dec(old, data):
    return np.where((old == 0) | (old > data), data, old - old.dtype.type(1))


ATOMIC_OPS = {
    "swap": lambda o, d: d, "storexchg": lambda o, d: d,
    "add": lambda o, d: o + d, "sub": lambda o, d: o - d, "rsub": lambda o, d: d - o,
    "csub": lambda o, d: np.where(o >= d, o - d, o.dtype.type(0)),
    "min": np.fmin, "max": np.fmax, "fmin": np.fmin, "fmax": np.fmax,     # NaN-ignoring for floats
    "and": lambda o, d: o & d, "or": lambda o, d: o | d, "xor": lambda o, d: o ^ d,
    "inc": _inc, "dec": _dec,
}
ATOMIC_TYPES = {"u32": np.uint32, "i32": np.int32, "b32": np.uint32, "f32": np.float32,
                "u64": np.uint64, "i64": np.int64, "b64": np.uint64, "f64": np.float64}


def atomic(space, st, wave, lane, addr, name: str, typ: str, data, cmp=None):
    """Apply atomic `name` lane by lane in lane order; returns the old values (m,) of dtype typ.
    Each location is read and written once; lanes that share one are applied in order."""
    dtype = np.dtype(ATOMIC_TYPES[typ])
    nb = dtype.itemsize
    data = data.astype(dtype) if data.dtype != dtype else data
    keys = space.key(st, wave, lane, addr)
    _, first, inv = np.unique(keys, return_index=True, return_inverse=True)
    cur = space.read(st, wave[first], lane[first], addr[first], nb).view(dtype).reshape(-1).copy()
    if len(first) == len(addr):                       # no two lanes share a location
        old = cur[inv]
        if name in ("cmpswap", "cmpstore"):
            new = np.where(old == cmp, data, old)
        else:
            new = ATOMIC_OPS[name](old, data).astype(dtype)
        cur[inv] = new
    else:
        old = np.empty(len(addr), dtype)
        step = SEQUENTIAL_OPS[name]
        zero = dtype.type(0)
        others = cmp if cmp is not None else data
        for i, j in enumerate(inv.tolist()):
            o = cur[j]
            old[i] = o
            cur[j] = step(o, data[i], others[i], zero)
    space.write(st, wave[first], lane[first], addr[first], np.ascontiguousarray(cur).view(np.uint8).reshape(-1, nb))
    return old


# One lane's update on numpy scalars: (old, data, cmp-or-data, zero) -> new
SEQUENTIAL_OPS = {
    "swap": lambda o, d, c, z: d, "storexchg": lambda o, d, c, z: d,
    "cmpswap": lambda o, d, c, z: d if o == c else o, "cmpstore": lambda o, d, c, z: d if o == c else o,
    "add": lambda o, d, c, z: o + d, "sub": lambda o, d, c, z: o - d, "rsub": lambda o, d, c, z: d - o,
    "csub": lambda o, d, c, z: o - d if o >= d else z,
    "min": lambda o, d, c, z: d if d < o or o != o else o, "max": lambda o, d, c, z: d if d > o or o != o else o,
    "fmin": lambda o, d, c, z: d if d < o or o != o else o, "fmax": lambda o, d, c, z: d if d > o or o != o else o,
    "and": lambda o, d, c, z: o & d, "or": lambda o, d, c, z: o | d, "xor": lambda o, d, c, z: o ^ d,
    "inc": lambda o, d, c, z: z if o >= d else o + type(o)(1),
    "dec": lambda o, d, c, z: d if o == z or o > d else o - type(o)(1),
}
