"""Vector memory instructions (GLOBAL, FLAT, SCRATCH, MUBUF) and scalar memory (SMEM).

Loads and stores of every width: b8/u8/i8, b16/u16/i16, d16 (low/high half), b32..b128, and the
atomics with and without return. FLAT addresses in the shared/private apertures go to LDS and
scratch.
"""

from __future__ import annotations

import re

import numpy as np

from .decode import Instr
from .fault import AccessError, Unimplemented
from .spaces import ATOMIC_OPS, GLOBAL, LDS, OUT_OF_RANGE, SCRATCH, atomic
from .state import PRIVATE_APERTURE_HI, SCRATCH_BUFFER_HI, SHARED_APERTURE_HI, read_scalar_bits

LOAD = re.compile(r"^(global|flat|scratch|buffer)_load_(?P<kind>d16_hi_|d16_)?(?P<t>b32|b64|b96|b128|u8|i8|u16|i16|b16)$")
STORE = re.compile(r"^(global|flat|scratch|buffer)_store_(?P<kind>d16_hi_)?(?P<t>b8|b16|b32|b64|b96|b128|byte|short)$")
ATOMIC = re.compile(r"^(global|flat|buffer)_atomic_(?P<op>[a-z]+)_(?P<t>[uibf](32|64))$")
# b96 and the sub-dword loads (u8, i8, u16, i16) are gfx12's
SMEM = re.compile(r"^s_(buffer_)?load_(?P<t>b32|b64|b96|b128|b256|b512|dword(x\d+)?|[ui](?:8|16))$")
SUB_DWORD = {"u8": (8, False), "i8": (8, True), "u16": (16, False), "i16": (16, True)}
NBYTES = {"b8": 1, "u8": 1, "i8": 1, "b16": 2, "u16": 2, "i16": 2, "b32": 4, "b64": 8, "b96": 12, "b128": 16}


def active_lanes(st, w):
    """(wave index into st, lane) of every active lane, in wave then lane order."""
    wi, li = np.nonzero(st.exec_mask(w))
    return w[wi], li, wi


def read_vgprs(st, wave, lane, reg: int, count: int) -> np.ndarray:
    """(m, 4*count) uint8: `count` dwords from VGPRs reg.. of each (wave, lane)."""
    d = st.V[wave[:, None], reg + np.arange(count), lane[:, None]]
    return np.ascontiguousarray(d).view(np.uint8).reshape(len(wave), 4 * count)


def write_vgprs(st, wave, lane, reg: int, dwords: np.ndarray) -> None:
    """dwords (m, count) uint32 into VGPRs reg.. of each (wave, lane)."""
    st.V[wave[:, None], reg + np.arange(dwords.shape[1]), lane[:, None]] = dwords


def load_to_dwords(raw: np.ndarray, t: str) -> np.ndarray:
    """Loaded bytes -> (m, n) uint32 register values (sign/zero extended for sub-dword types)."""
    if t in ("b32", "b64", "b96", "b128"):
        return np.ascontiguousarray(raw).view(np.uint32)
    dtype = {"u8": np.uint8, "i8": np.int8, "u16": np.uint16, "i16": np.int16, "b16": np.uint16}[t]
    return np.ascontiguousarray(raw).view(dtype).astype(np.int64).astype(np.uint32).reshape(-1, 1)


def store_loaded(st, wave, lane, reg: int, raw: np.ndarray, kind: str | None, t: str) -> None:
    if kind is None:
        write_vgprs(st, wave, lane, reg, load_to_dwords(raw, t))
        return
    value = load_to_dwords(raw, t)[:, 0] & np.uint32(0xFFFF)
    old = st.V[wave, reg, lane]
    if kind == "d16_hi_":
        st.V[wave, reg, lane] = (old & np.uint32(0xFFFF)) | (value << np.uint32(16))
    else:
        st.V[wave, reg, lane] = (old & np.uint32(0xFFFF0000)) | value


# --- addressing ---------------------------------------------------------------------------

def _u32(st, wave, lane, op):
    return st.V[wave, op.reg, lane].astype(np.int64)


def _u64(st, wave, lane, op):
    return st.V[wave, op.reg, lane].astype(np.uint64) | (st.V[wave, op.reg + 1, lane].astype(np.uint64) << np.uint64(32))


def address_fn(seg: str, vaddr, saddr, offset: int, mods: dict, nbytes: int = 4, whole: bool = False):
    """addr(st, wave, lane, wi) -> (space, addresses) lists per space for one segment kind."""
    if seg == "global":
        if saddr is None or saddr.kind == "off":
            def addr(st, wave, lane, wi, w):
                return [(GLOBAL, slice(None), _u64(st, wave, lane, vaddr) + np.uint64(offset & 0xFFFFFFFFFFFFFFFF))]
        else:
            def addr(st, wave, lane, wi, w):
                base = read_scalar_bits(st, w, saddr, 64)[wi]
                return [(GLOBAL, slice(None), base + st.V[wave, vaddr.reg, lane].astype(np.uint64) + np.uint64(offset & 0xFFFFFFFFFFFFFFFF))]
        return addr
    if seg == "scratch":
        def addr(st, wave, lane, wi, w):
            a = np.full(len(wave), offset, np.int64)
            if vaddr is not None and vaddr.kind == "v":
                a += _u32(st, wave, lane, vaddr)
            if saddr is not None and saddr.kind != "off":
                a += read_scalar_bits(st, w, saddr, 32)[wi].astype(np.int64)
            return [(SCRATCH, slice(None), a & 0xFFFFFFFF)]
        return addr
    if seg == "flat":
        def addr(st, wave, lane, wi, w):
            a = _u64(st, wave, lane, vaddr) + np.uint64(offset & 0xFFFFFFFFFFFFFFFF)
            hi = a >> np.uint64(32)
            low = (a & np.uint64(0xFFFFFFFF)).astype(np.int64)
            shared, private = hi == SHARED_APERTURE_HI, hi == PRIVATE_APERTURE_HI
            if not shared.any() and not private.any():
                return [(GLOBAL, slice(None), a)]
            parts = []
            for space, sel, values in ((LDS, shared, low), (SCRATCH, private, low), (GLOBAL, ~(shared | private), a)):
                if sel.any():
                    idx = np.nonzero(sel)[0]
                    parts.append((space, idx, values[idx]))
            return parts
        return addr
    if seg == "buffer":
        return _buffer_address(vaddr, saddr, offset, mods, nbytes, whole)
    raise Unimplemented(f"{seg} addressing")


def _buffer_address(vaddr, operands, offset, mods, nbytes: int, whole: bool):
    """MUBUF addressing with the descriptor's range check (GFX11, as Mesa's radv documents
    OOB_SELECT, word3[29:28]): 0 structured: index >= NUM_RECORDS or offset+payload > STRIDE;
    1: index >= NUM_RECORDS; 2: NUM_RECORDS == 0; 3 (raw, what LLVM sets): with swizzling and a
    stride as 0, else offset+payload > NUM_RECORDS. The SGPR offset is outside the check (LLVM's
    buffer intrinsics: "soffset ... excluded from bounds checking"). Lanes out of range go to
    OUT_OF_RANGE: their loads read 0, their stores and atomics are dropped, as the hardware does.
    A raw load or store of several dwords is checked dword by dword (LLVM's AMDGPUUsage: "the
    voffset ... will be range-checked for each 32-bit word independently"): a lane whose first
    dwords are inside goes to a ClippedSpace; an atomic (`whole`) is inside or outside at once."""
    desc, soffset = operands

    def addr(st, wave, lane, wi, w):
        d = st.S[w[wi], desc.reg:desc.reg + 4]           # the buffer resource descriptor
        base = d[:, 0].astype(np.uint64) | ((d[:, 1] & np.uint32(0xFFFF)).astype(np.uint64) << np.uint64(32))
        stride = ((d[:, 1] >> np.uint32(16)) & np.uint32(0x3FFF)).astype(np.uint64)
        swizzle = (d[:, 1] >> np.uint32(30)) != 0
        records = d[:, 2].astype(np.uint64)
        select = (d[:, 3] >> np.uint32(28)) & np.uint32(3)
        off = np.full(len(wave), offset, np.uint64)
        index = np.zeros(len(wave), np.uint64)
        reg = vaddr.reg if vaddr is not None and vaddr.kind == "v" else None
        if mods.get("idxen"):
            index = st.V[wave, reg, lane].astype(np.uint64)
            reg += 1
        if mods.get("offen"):
            off = off + st.V[wave, reg, lane].astype(np.uint64)
        end = off + np.uint64(nbytes)
        structured = (index >= records) | (end > stride)
        out = np.where(select == 0, structured,
                       np.where(select == 1, index >= records,
                                np.where(select == 2, records == 0,
                                         np.where(swizzle & (stride != 0), structured,
                                                  index * stride + end > records))))
        a = base + index * stride + off
        wave_offset = np.zeros(len(wave), np.uint64)
        if soffset.kind == "s":
            wave_offset = read_scalar_bits(st, w, soffset, 32)[wi].astype(np.uint64)
        elif soffset.kind == "imm":
            wave_offset = np.full(len(wave), soffset.value, np.uint64)
        if ((base >> np.uint64(32)) == SCRATCH_BUFFER_HI).all():
            # GFX9's private segment buffer (launch.py): each lane's own scratch. The hardware
            # interleaves the lanes' dwords, so the SGPR offset counts bytes of the whole wave
            # (LLVM's stack pointer grows by a lane's frame times the wave size)
            lane_offset = off + wave_offset // np.uint64(st.lanes)
            return [(SCRATCH, slice(None), (lane_offset & np.uint64(0xFFFFFFFF)).astype(np.int64))]
        a += wave_offset
        clipped = np.zeros(len(wave), bool)
        if not whole and nbytes > 4:
            raw = (select == 3) & ~(swizzle & (stride != 0))
            start = index * stride + off
            clipped = raw & out & (start + np.uint64(4) <= records)
            out &= ~clipped
        if not out.any() and not clipped.any():
            return [(GLOBAL, slice(None), a)]
        parts = []
        for space, sel in ((OUT_OF_RANGE, out), (None, clipped), (GLOBAL, ~(out | clipped))):
            if sel.any():
                if space is None:
                    space = ClippedSpace(((records - start)[sel] // np.uint64(4)).astype(np.int64))
                parts.append((space, np.nonzero(sel)[0], a[sel]))
        return parts
    return addr


class ClippedSpace:
    """Global memory seen through a buffer range that ends inside each lane's access: lane j
    reaches its first dwords[j] dwords; the rest read 0 and are not written."""
    name = ""

    def __init__(self, dwords: np.ndarray):
        self.dwords = dwords

    def read(self, st, wave, lane, addr, nbytes):
        out = np.zeros((len(addr), nbytes), np.uint8)
        for i in range(nbytes // 4):
            k = np.nonzero(self.dwords > i)[0]
            if len(k):
                out[k, 4 * i:4 * i + 4] = GLOBAL.read(st, wave[k], lane[k], addr[k] + np.uint64(4 * i), 4)
        return out

    def write(self, st, wave, lane, addr, data):
        for i in range(data.shape[1] // 4):
            k = np.nonzero(self.dwords > i)[0]
            if len(k):
                GLOBAL.write(st, wave[k], lane[k], addr[k] + np.uint64(4 * i),
                             np.ascontiguousarray(data[k, 4 * i:4 * i + 4]))


def build_vmem(instr: Instr):
    m = instr.mnemonic
    if not m.startswith(("global_", "flat_", "scratch_", "buffer_")):
        return None
    offset = int(instr.mods.get("offset", 0))
    seg = m.split("_", 1)[0]
    ops = instr.operands
    for mod in ("lds", "tfe", "lwe"):   # GFX9's load into LDS (M0), texture-fault status dwords
        if instr.mods.get(mod):
            raise Unimplemented(f"the {mod} modifier")
    if (lm := LOAD.match(m)):
        kind, t = lm.group("kind"), lm.group("t")
        nb = NBYTES[t]
        vdst = ops[0]
        addr = _addr_for(seg, ops[1:], offset, instr.mods, nb)

        def load(st, w):
            wave, lane, wi = active_lanes(st, w)
            for space, sel, a in addr(st, wave, lane, wi, w):
                raw = space.read(st, wave[sel], lane[sel], a, nb)
                store_loaded(st, wave[sel], lane[sel], vdst.reg, raw, kind, t)
            return False
        return load
    if (sm := STORE.match(m)):
        kind, t = sm.group("kind"), {"byte": "b8", "short": "b16"}.get(sm.group("t"), sm.group("t"))
        nb = NBYTES[t]
        if seg == "buffer":     # MUBUF: vdata, vaddr, srsrc, soffset
            vdata, addr_ops = ops[0], ops[1:]
        else:                   # vaddr, vdata[, saddr]
            vdata, addr_ops = ops[1], [ops[0]] + ops[2:]
        addr = _addr_for(seg, addr_ops, offset, instr.mods, nb)

        def store(st, w):
            wave, lane, wi = active_lanes(st, w)
            data = read_vgprs(st, wave, lane, vdata.reg, max(1, nb // 4))
            if kind == "d16_hi_":
                data = data[:, 2:2 + nb]
            else:
                data = data[:, :nb]
            for space, sel, a in addr(st, wave, lane, wi, w):
                space.write(st, wave[sel], lane[sel], a, np.ascontiguousarray(data[sel]))
            return False
        return store
    if (am := ATOMIC.match(m)):
        name, t = am.group("op"), am.group("t")
        if name not in ATOMIC_OPS and name != "cmpswap":
            raise Unimplemented(f"atomic operation '{name}'")
        # gfx9-gfx11 ask for the old value with glc (gfx942 calls that bit sc0), gfx12 with a th:
        # policy that says RETURN
        returns = bool(instr.mods.get("glc") or instr.mods.get("sc0")) or "RETURN" in str(instr.mods.get("th", ""))
        if seg == "buffer":     # MUBUF has no vdst: a returning atomic writes the old value over vdata
            vdata, vaddr, rest = ops[0], ops[1], ops
            vdst = vdata if returns else None
        else:
            vdst = ops[0] if returns else None
            rest = ops[1:] if returns else ops
            vaddr, vdata = rest[0], rest[1]
        width = 8 if t.endswith("64") else 4
        addr = _addr_for(seg, [vaddr] + rest[2:], offset, instr.mods, width, whole=True)
        words = width // 4

        def atomic_op(st, w):
            wave, lane, wi = active_lanes(st, w)
            data = read_vgprs(st, wave, lane, vdata.reg, words * (2 if name == "cmpswap" else 1))
            for space, sel, a in addr(st, wave, lane, wi, w):
                d = np.ascontiguousarray(data[sel])
                src = d[:, :width].copy().view(_dtype(t)).reshape(-1)
                cmp = d[:, width:].copy().view(_dtype(t)).reshape(-1) if name == "cmpswap" else None
                if space is OUT_OF_RANGE:   # not performed; returns 0
                    old = np.zeros(len(a), _dtype(t))
                else:
                    old = atomic(space, st, wave[sel], lane[sel], a, name, t, src, cmp)
                if vdst is not None:
                    write_vgprs(st, wave[sel], lane[sel], vdst.reg, np.ascontiguousarray(old).view(np.uint32).reshape(-1, words))
            return False
        return atomic_op
    return None


def _dtype(t):
    return {"u32": np.uint32, "i32": np.int32, "b32": np.uint32, "f32": np.float32,
            "u64": np.uint64, "i64": np.int64, "b64": np.uint64, "f64": np.float64}[t]


def _addr_for(seg, ops, offset, mods, nbytes: int, whole: bool = False):
    """ops: the address operands after the data operand(s): [vaddr, saddr] (global/scratch),
    [vaddr] (flat), [vaddr, desc, soffset] (buffer); nbytes: the access size (buffers' range check)."""
    if seg == "buffer":
        return address_fn(seg, ops[0], (ops[1], ops[2]), offset, mods, nbytes, whole)
    vaddr = ops[0]
    saddr = ops[1] if len(ops) > 1 else None
    if seg == "scratch" and vaddr.kind == "off":
        vaddr = None
    return address_fn(seg, vaddr, saddr, offset, mods)


def build_smem(instr: Instr):
    sm = SMEM.match(instr.mnemonic)
    if not sm:
        return None
    t = sm.group("t")
    narrow = SUB_DWORD.get(t)   # (bits, signed): one dword read, the value extracted from it
    if narrow:
        t = "b32"
    dwords = {"b32": 1, "b64": 2, "b96": 3, "b128": 4, "b256": 8, "b512": 16, "dword": 1}.get(t) or int(t[len("dwordx"):])
    buffer = bool(sm.group(1))
    dst, base, off = instr.operands[0], instr.operands[1], instr.operands[2] if len(instr.operands) > 2 else None
    imm = int(instr.mods.get("offset", 0))

    def sload(st, w):
        if buffer:
            b = read_scalar_bits(st, w, base, 64) & np.uint64(0xFFFFFFFFFFFF)
        else:
            b = read_scalar_bits(st, w, base, 64)
        a = b + np.uint64(imm)
        if off is not None and off.kind == "imm":
            a = a + np.uint64(off.value & 0xFFFFFFFF)
        elif off is not None and off.kind == "s" and off.reg != 124:
            a = a + read_scalar_bits(st, w, off, 32).astype(np.uint64)
        byte = (a & np.uint64(3)).astype(np.uint32)
        a = a & ~np.uint64(3)
        if buffer:      # dwords past the descriptor's NUM_RECORDS bytes read 0 (not read at all)
            vals = _scalar_buffer_read(st, w, a, a - b, st.S[w, base.reg + 2].astype(np.uint64), dwords)
        else:
            vals = _scalar_read(st, w, a, dwords)
        if narrow:
            bits, signed = narrow
            field = (vals[:, 0] >> (np.uint32(8) * byte)) & np.uint32((1 << bits) - 1)
            if signed:
                field = ((field ^ np.uint32(1 << (bits - 1))) - np.uint32(1 << (bits - 1))).astype(np.uint32)
            vals = field[:, None]
        for i in range(dwords):
            if dst.reg + i != 124:
                st.S[w, dst.reg + i] = vals[:, i]
        return False
    return sload


def _scalar_buffer_read(st, w, addr, offset, records, dwords: int) -> np.ndarray:
    """s_buffer_load: (k, dwords) uint32, 0 for each dword not inside the first `records` bytes."""
    inside = offset[:, None] + np.uint64(4) * (np.arange(dwords, dtype=np.uint64) + np.uint64(1)) <= records[:, None]
    if inside.all():
        return _scalar_read(st, w, addr, dwords)
    out = np.zeros((len(w), dwords), np.uint32)
    for i in range(dwords):
        k = np.nonzero(inside[:, i])[0]
        if len(k):
            out[k, i] = _scalar_read(st, w[k], addr[k] + np.uint64(4 * i), 1)[:, 0]
    return out


def _scalar_read(st, w, addr, dwords: int) -> np.ndarray:
    """(k, dwords) uint32 at addr. The compiler widens scalar loads (three dwords loaded as
    s_load_b128), so the dwords after the first are its, not the program's: past the end of an
    allocation they read what its page holds without a warning, and past the page as zero (a GPU
    would fault there only when the next page is unmapped); only the first must be inside one."""
    lane = np.zeros(len(w), np.int64)
    mem = st.mem
    first = len(mem.padding)
    try:
        raw = GLOBAL.read(st, w, lane, addr, 4 * dwords)
    except AccessError:
        out = np.zeros((len(w), dwords), np.uint32)
        for i in range(dwords):
            try:
                out[:, i] = GLOBAL.read(st, w, lane, addr + np.uint64(4 * i), 4).view(np.uint32)[:, 0]
            except AccessError as inner:
                if i == 0:
                    raise inner from None
        raw = out
    if len(mem.padding) > first:        # report the first dword's own access only, of no lane
        del mem.padding[first:]
        GLOBAL.read(st, w, lane, addr, 4)
        del mem.padding[first + 1:]
        for hit in mem.padding[first:]:
            hit.lane = None
    return np.ascontiguousarray(raw).view(np.uint32)
