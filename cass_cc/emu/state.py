"""The architectural state of the waves of one launch batch, and typed operand access.

Arrays are indexed by wave first, so the waves that share a pc are a fancy index `w`:
SGPRs S[w, 0..127] (vcc = 106/107, null = 124, m0 = 125, exec = 126/127), SCC scc[w],
VGPRs V[w, reg, lane], the pc, per-workgroup LDS and per-lane scratch.
A wave has 32 lanes (RDNA's wave32) or 64 (GFX9's CDNA waves): `lanes`. A lane mask (EXEC, VCC,
a compare's result) is one SGPR in wave32 and an SGPR pair (lo, hi) in wave64; mask bits are
(k,) uint32 or uint64 arrays accordingly (mask_bits, write_mask).
The hot paths spell S[w, reg] and V[w, reg] as S[:, reg][w] and V[:, reg][w]: the same copy (or
the same store), but numpy indexes a register's column by one array at a third to a half of the
cost of indexing by an array and an integer together.
"""

from __future__ import annotations

import struct

import numpy as np

from .alu.op import DTYPES
from .decode import Operand
from .fault import Unimplemented

VCC, NULL, M0, EXEC = 106, 124, 125, 126
SHARED_APERTURE_HI = 0x10000      # flat addresses 0x0001_0000_xxxx_xxxx are LDS offsets
PRIVATE_APERTURE_HI = 0x20000     # flat addresses 0x0002_0000_xxxx_xxxx are private (scratch) offsets
# GFX9's private segment buffer resource has this base (bits 47:32; no host pointer has them set):
# MUBUF accesses through it are the lane's scratch offsets
SCRATCH_BUFFER_HI = 0xFFFF
APERTURES = {"src_shared_base": SHARED_APERTURE_HI << 32, "src_shared_limit": (SHARED_APERTURE_HI << 32) | 0xFFFFFFFF,
             "src_private_base": PRIVATE_APERTURE_HI << 32,
             "src_private_limit": (PRIVATE_APERTURE_HI << 32) | 0xFFFFFFFF}

RUNNING, AT_BARRIER, DONE = 0, 1, 2
DEFAULT_MODE = 0x3F0          # MODE: round to nearest even, denormals kept, DX10 clamp, IEEE

WIDTH = {t: np.dtype(d).itemsize * 8 for t, d in DTYPES.items()}
UNSIGNED = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
FLOAT_SIGN = {"f16": 0x8000, "bf16": 0x8000, "f32": 0x80000000, "f64": 0x8000000000000000}


class Waves:
    """State of `n` waves: registers, pcs, LDS of their workgroups, scratch of their lanes."""

    def __init__(self, n: int, nvgpr: int, workgroups: int, lds_bytes: int, scratch_bytes: int, lanes: int = 32):
        self.n = n
        self.lanes = lanes
        self.mask_dtype = MASK_DTYPE[lanes]
        self.S = np.zeros((n, 128), np.uint32)
        self.scc = np.zeros(n, bool)
        self.V = np.zeros((n, nvgpr, lanes), np.uint32)
        self.pc = np.zeros(n, np.int64)
        self.status = np.zeros(n, np.int8)
        self.wg = np.zeros(n, np.int64)              # workgroup of each wave (index into lds)
        # sizes rounded up to whole dwords so aligned accesses can use a uint32 view
        self.lds = np.zeros((workgroups, -(-max(lds_bytes, 1) // 4) * 4), np.uint8)
        self.lds_bytes = lds_bytes
        self.scratch_bytes = scratch_bytes
        self.scratch = np.zeros((n, lanes, -(-max(scratch_bytes, 1) // 4) * 4), np.uint8)
        self.mode = np.full(n, DEFAULT_MODE, np.uint32)   # MODE of each wave (round, denormals, ...)
        self.mode_split = False                      # whether the waves' MODEs differ
        # for the hang detector (progress.py): whether a write changed LDS since it last looked,
        # and, while it compares wave states, how often each wave's scratch changed
        self.lds_changed = False
        self.watch_scratch = False
        self.scratch_version = np.zeros(n, np.int64)
        self._exec_of = self._exec_lanes = None      # exec_mask's last w and its mask

    def set_mode(self, w, mode: np.ndarray) -> None:
        self.mode[w] = mode
        self.mode_split = bool((self.mode != self.mode[0]).any())

    # --- masks --------------------------------------------------------------------------
    def exec_mask(self, w) -> np.ndarray:
        """(k, lanes) bool: the lanes EXEC enables (read-only). Kept for the last w asked about
        until exec_changed(): the scheduler runs one w for many instructions, few of them
        writing EXEC."""
        if w is self._exec_of:
            return self._exec_lanes
        bits = self.S[:, EXEC][w] if self.lanes == 32 else self.mask_bits(w, EXEC)
        mask = (all_lanes(len(bits), self.lanes) if (bits == ALL_ON[self.lanes]).all()   # all on: one shared array
                else unpack_mask(bits))
        self._exec_of, self._exec_lanes = w, mask
        return mask

    def exec_changed(self) -> None:
        """An instruction may have written EXEC (see program.writes_exec)."""
        self._exec_of = None

    def sgpr_mask(self, w, reg: int) -> np.ndarray:
        """(k, lanes) bool lane mask held in an SGPR (vcc_lo, s4, ...) or, in wave64, a pair."""
        if reg == NULL:
            return np.zeros((len(w), self.lanes), bool)
        return unpack_mask(self.S[:, reg][w] if self.lanes == 32 else self.mask_bits(w, reg))

    def mask_bits(self, w, reg: int) -> np.ndarray:
        """(k,) lane mask bits held at reg: uint32 in wave32, the pair reg, reg + 1 as uint64 in
        wave64."""
        if self.lanes == 32:
            return self.S[:, reg][w]
        return np.ascontiguousarray(self.S[w, reg:reg + 2]).view(np.uint64).reshape(-1)

    def write_mask(self, w, reg: int, bits: np.ndarray) -> None:
        """Store (k,) lane mask bits (of mask_dtype) at reg (a pair in wave64); null drops them."""
        if reg == NULL:
            return
        if self.lanes == 32:
            self.S[:, reg][w] = bits
        else:
            self.S[w, reg:reg + 2] = np.ascontiguousarray(bits, np.uint64).view(np.uint32).reshape(-1, 2)


MASK_DTYPE = {32: np.uint32, 64: np.uint64}
ALL_ON = {32: np.uint32(0xFFFFFFFF), 64: np.uint64(0xFFFFFFFFFFFFFFFF)}
_ALL_LANES: dict[tuple[int, int], np.ndarray] = {}


def all_lanes(k: int, lanes: int = 32) -> np.ndarray:
    """A read-only (k, lanes) all-true lane mask, shared."""
    mask = _ALL_LANES.get((k, lanes))
    if mask is None:
        mask = _ALL_LANES[k, lanes] = np.ones((k, lanes), bool)
        mask.flags.writeable = False
    return mask


def across_lanes(values: np.ndarray, lanes: int = 32) -> np.ndarray:
    """(k,) values -> a read-only (k, lanes) array giving each wave's value in every lane, without
    copying (np.broadcast_to does the same at several times the cost, on the hot path of every
    scalar operand of a vector instruction)."""
    values = np.ascontiguousarray(values)
    out = np.ndarray((len(values), lanes), values.dtype, values, 0, (values.itemsize, 0))
    out.flags.writeable = False
    return out


def only(mask: np.ndarray, lanes: np.ndarray) -> np.ndarray:
    """mask & lanes, skipping the operation when lanes is the shared all-true mask."""
    return mask if lanes is _ALL_LANES.get(lanes.shape) and mask.shape == lanes.shape else mask & lanes


def covers_all(mask: np.ndarray) -> bool:
    """Whether a (k, lanes) lane mask enables every lane (at once for the shared all-true one)."""
    return mask is _ALL_LANES.get(mask.shape) or bool(mask.all())


def unpack_mask(bits: np.ndarray) -> np.ndarray:
    """(k,) uint32 (or uint64) lane masks -> (k, 32) (or (k, 64)) bool (one numpy call: the
    hottest helper)."""
    bits = np.ascontiguousarray(bits)
    return np.unpackbits(bits.view(np.uint8), bitorder="little").reshape(-1, bits.itemsize * 8).view(bool)


def pack_mask(mask: np.ndarray) -> np.ndarray:
    """(k, lanes) bool -> (k,) lane mask bits, uint32 for 32 lanes, uint64 for 64."""
    mask = np.asarray(mask, bool)
    return np.packbits(mask, axis=-1, bitorder="little").view(MASK_DTYPE[mask.shape[-1]]).reshape(-1)


# --- constants ----------------------------------------------------------------------------

def constant_bits(op: Operand, t: str) -> int:
    """The bits an inline constant or literal operand gives an operand of type t."""
    width = WIDTH.get(t, 32)
    v = op.value
    # A constant of a packed 16-bit operand is one dword, not a value per half: an integer is
    # sign-extended to 32 bits, a float is its f16 bits over a zero upper half (f16 operations) or
    # its f32 bits (integer ones). op_sel_hi 0 reads the low half for both elements; LLVM selects
    # that to give both the same constant (LLVM's getInlineEncodingV216 states the hardware's rule).
    if op.is_float:
        if width == 64:
            return struct.unpack("<Q", struct.pack("<d", v))[0]
        if width == 16 or t == "pk_f16":
            return int(np.float16(v).view(np.uint16))
        return struct.unpack("<I", struct.pack("<f", v))[0]
    v = int(v)
    if width == 64:
        if t == "f64" and not -16 <= v <= 64 and 0 <= v < 2**32:
            return v << 32                            # a 32-bit literal is the high half of an f64
        return v & 0xFFFFFFFFFFFFFFFF
    return v & ((1 << max(width, 32)) - 1) if width != 16 else v & 0xFFFF


# --- scalar operands ----------------------------------------------------------------------

def read_scalar_bits(st: Waves, w, op: Operand, width: int) -> np.ndarray:
    """(k,) unsigned bits of a scalar operand (SGPR, constant, scc, aperture): what instructions
    that handle their operands themselves (s_or_saveexec_b32 s4, -1; v_readlane ...) read."""
    k = len(w)
    if op.kind == "s":
        if op.reg == NULL:
            return np.zeros(k, UNSIGNED[max(width, 32)])
        lo = st.S[:, op.reg][w]
        if width == 64:
            return lo.astype(np.uint64) | (st.S[:, op.reg + 1][w].astype(np.uint64) << np.uint64(32))
        return lo.copy()
    if op.kind == "scc":
        return st.scc[w].astype(UNSIGNED[max(width, 32)])
    if op.kind == "imm":
        return np.full(k, constant_bits(op, "b64" if width == 64 else "b32"), UNSIGNED[max(width, 32)])
    if op.kind == "aperture":
        value = APERTURES[op.name]
        return np.full(k, value if width == 64 else value & 0xFFFFFFFF, UNSIGNED[max(width, 32)])
    raise Unimplemented(f"operand {op.name or op.kind} as a scalar source")


def write_scalar_bits(st: Waves, w, reg: int, bits: np.ndarray, width: int) -> None:
    if reg == NULL:
        return
    if width == 64:
        bits = bits.astype(np.uint64)
        st.S[:, reg][w] = (bits & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        st.S[:, reg + 1][w] = (bits >> np.uint64(32)).astype(np.uint32)
    else:
        st.S[:, reg][w] = bits if bits.dtype == np.uint32 else bits.astype(np.uint32)


# --- typed conversion ---------------------------------------------------------------------

def bits_to_type(bits: np.ndarray, t: str) -> np.ndarray:
    """Raw unsigned bits (32 or 64 wide, or 16 for halves) -> array of the type's dtype."""
    dtype = np.dtype(DTYPES[t])
    width = dtype.itemsize * 8
    raw = bits.astype(UNSIGNED[width]) if bits.dtype.itemsize * 8 != width else bits
    return raw.view(dtype)


def type_to_bits(values, t: str, shape) -> np.ndarray:
    """A result array of type t -> unsigned bits of its width, broadcast to shape."""
    dtype = np.dtype(DTYPES[t])
    arr = np.asarray(values)
    if arr.dtype == dtype and arr.shape == shape and arr.flags.c_contiguous:
        return arr.view(UNSIGNED[dtype.itemsize * 8])
    if arr.dtype != dtype:
        if arr.dtype == bool or dtype.kind in "iu" and arr.dtype.kind in "iu":
            arr = arr.astype(dtype)
        elif dtype.kind in "iu" and arr.dtype.kind == "f":
            arr = arr.astype(np.int64).astype(dtype)
        else:
            arr = arr.astype(dtype)
    arr = np.broadcast_to(arr, shape)
    return np.ascontiguousarray(arr).view(UNSIGNED[dtype.itemsize * 8])


def apply_float_mods(bits: np.ndarray, t: str, neg: bool, abs_: bool) -> np.ndarray:
    """neg/abs source modifiers act on the sign bit of float operands."""
    sign = FLOAT_SIGN.get(t)
    if sign is None or not (neg or abs_):
        return bits
    s = bits.dtype.type(sign)
    if abs_:
        bits = bits & ~s
    if neg:
        bits = bits ^ s
    return bits
