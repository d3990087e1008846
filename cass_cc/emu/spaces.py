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


class GlobalSpace:
    name = ""

    def read(self, st, wave, lane, addr, nbytes):
        try:
            return st.mem.read(addr.astype(np.uint64), nbytes)
        except AccessError as e:
            raise _lane_error(e, lane) from None

    def write(self, st, wave, lane, addr, data):
        try:
            st.mem.write(addr.astype(np.uint64), data)
        except AccessError as e:
            raise _lane_error(e, lane) from None


class _OffsetSpace:
    """Bounds-checked byte arrays indexed by (owner, offset)."""
    name = ""

    def _check(self, st, lane, addr, nbytes, write):
        limit = self._size(st)
        bad = (addr < 0) | (addr + nbytes > limit)
        if bad.any():
            i = int(np.argmax(bad))
            err = AccessError(i, int(addr[i]) & 0xFFFFFFFF, nbytes, write, self.name)
            raise _lane_error(err, lane)

    def read(self, st, wave, lane, addr, nbytes):
        addr = addr.astype(np.int64)
        self._check(st, lane, addr, nbytes, False)
        if nbytes % 4 == 0 and not (addr & 3).any():       # whole aligned dwords: 4x fewer elements
            words = self._array(st).view(np.uint32)[self._index(st, wave, lane, addr >> 2, nbytes // 4)]
            return words.view(np.uint8).reshape(len(addr), nbytes)
        return self._array(st)[self._index(st, wave, lane, addr, nbytes)]

    def write(self, st, wave, lane, addr, data):
        addr = addr.astype(np.int64)
        nbytes = data.shape[1]
        self._check(st, lane, addr, nbytes, True)
        if nbytes % 4 == 0 and not (addr & 3).any():
            words = np.ascontiguousarray(data).view(np.uint32).reshape(len(addr), nbytes // 4)
            self._array(st).view(np.uint32)[self._index(st, wave, lane, addr >> 2, nbytes // 4)] = words
            return
        self._array(st)[self._index(st, wave, lane, addr, nbytes)] = data


class LdsSpace(_OffsetSpace):
    name = "lds"

    def _size(self, st):
        return st.lds_bytes

    def _array(self, st):
        return st.lds

    def _index(self, st, wave, lane, addr, count):
        return st.wg[wave][:, None], addr[:, None] + np.arange(count)


class ScratchSpace(_OffsetSpace):
    name = "scratch"

    def _size(self, st):
        return st.scratch_bytes

    def _array(self, st):
        return st.scratch

    def _index(self, st, wave, lane, addr, count):
        return wave[:, None], lane[:, None], addr[:, None] + np.arange(count)


GLOBAL, LDS, SCRATCH = GlobalSpace(), LdsSpace(), ScratchSpace()


# --- atomics ----------------------------------------------------------------------------

def _inc(old, data):
    return np.where(old >= data, old.dtype.type(0), old + old.dtype.type(1))


def _dec(old, data):
    return np.where((old == 0) | (old > data), data, old - old.dtype.type(1))


ATOMIC_OPS = {
    "swap": lambda o, d: d, "storexchg": lambda o, d: d,
    "add": lambda o, d: o + d, "sub": lambda o, d: o - d, "rsub": lambda o, d: d - o,
    "csub": lambda o, d: np.where(o >= d, o - d, o.dtype.type(0)),
    "min": np.minimum, "max": np.maximum, "fmin": np.fmin, "fmax": np.fmax,
    "and": lambda o, d: o & d, "or": lambda o, d: o | d, "xor": lambda o, d: o ^ d,
    "inc": _inc, "dec": _dec,
}
ATOMIC_TYPES = {"u32": np.uint32, "i32": np.int32, "b32": np.uint32, "f32": np.float32,
                "u64": np.uint64, "i64": np.int64, "b64": np.uint64, "f64": np.float64}


def atomic(space, st, wave, lane, addr, name: str, typ: str, data, cmp=None):
    """Apply atomic `name` lane by lane in lane order (vectorised over distinct addresses);
    returns the old values (m,) of dtype typ."""
    dtype = np.dtype(ATOMIC_TYPES[typ])
    nb = dtype.itemsize
    data = data.astype(dtype.newbyteorder("=")) if data.dtype != dtype else data
    old_all = np.zeros(len(addr), dtype)
    pending = np.arange(len(addr))
    while len(pending):
        _, first = np.unique(addr[pending], return_index=True)
        now = pending[np.sort(first)]
        raw = space.read(st, wave[now], lane[now], addr[now], nb)
        old = raw.view(dtype).reshape(-1)
        if name in ("cmpswap", "cmpstore"):
            new = np.where(old == cmp[now], data[now], old)
        else:
            new = ATOMIC_OPS[name](old, data[now]).astype(dtype)
        space.write(st, wave[now], lane[now], addr[now], np.ascontiguousarray(new).view(np.uint8).reshape(-1, nb))
        old_all[now] = old
        pending = np.setdiff1d(pending, now, assume_unique=True)
    return old_all
