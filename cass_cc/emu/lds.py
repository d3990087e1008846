"""DS instructions: LDS loads, stores and atomics of the workgroup's LDS (addresses are the 32-bit
sum of the address VGPR and the offset), ds_append/ds_consume (counters at M0 + offset), and
the cross-lane ds_swizzle_b32, ds_permute_b32 and ds_bpermute_b32 (which route data without
touching LDS)."""

from __future__ import annotations

import re

import numpy as np

from .decode import Instr
from .fault import Unimplemented
from .spaces import LDS, atomic
from .state import EXEC, M0
from .vmem import NBYTES, active_lanes, read_vgprs, write_vgprs, load_to_dwords, store_loaded

LOAD = re.compile(r"^ds_load_(?P<two>2addr_(?P<s64>stride64_)?)?(?P<t>b32|b64|b96|b128|u8|i8|u16|i16)(?P<d16>_d16(_hi)?)?$")
STORE = re.compile(r"^ds_store_(?P<two>2addr_(?P<s64>stride64_)?)?(?P<t>b8|b16|b32|b64|b96|b128)(?P<hi>_d16_hi)?$")
ATOMIC = re.compile(r"^ds_(?P<op>add|sub|rsub|inc|dec|min|max|and|or|xor|mskor|storexchg|cmpstore|swap)(?P<rtn>_rtn)?_(?P<t>[uibf](32|64))$")
LANE = np.arange(32)


def build_ds(instr: Instr):
    m = instr.mnemonic
    ops = instr.operands
    mods = instr.mods
    if m in ("ds_swizzle_b32", "ds_permute_b32", "ds_bpermute_b32"):
        return _cross_lane(m, ops, mods)
    if m in ("ds_append", "ds_consume"):
        return _append_consume(m == "ds_append", ops[0], int(mods.get("offset", 0)), "gds" in mods)
    if (lm := LOAD.match(m)):
        t = lm.group("t")
        nb = NBYTES[t]
        vdst, vaddr = ops[0], ops[1]
        d16 = lm.group("d16")
        kind = None if not d16 else ("d16_hi_" if d16.endswith("_hi") else "d16_")
        addrs = _addresses(lm, mods, nb)
        if t == "b32" and not kind and len(addrs) == 1:
            return _load_dword(vdst.reg, vaddr.reg, addrs[0])

        def load(st, w):
            wave, lane, _ = active_lanes(st, w)
            base = st.V[wave, vaddr.reg, lane].astype(np.int64)
            for i, off in enumerate(addrs):
                raw = LDS.read(st, wave, lane, (base + off) & 0xFFFFFFFF, nb)
                if kind:
                    store_loaded(st, wave, lane, vdst.reg, raw, kind, t)
                else:
                    write_vgprs(st, wave, lane, vdst.reg + i * max(1, nb // 4), load_to_dwords(raw, t))
            return False
        return load
    if (sm := STORE.match(m)):
        t = sm.group("t")
        nb = NBYTES[t]
        vaddr, datas = ops[0], ops[1:]
        hi = bool(sm.group("hi"))
        addrs = _addresses(sm, mods, nb)
        if t == "b32" and len(addrs) == 1:
            return _store_dword(datas[0].reg, vaddr.reg, addrs[0])

        def store(st, w):
            wave, lane, _ = active_lanes(st, w)
            base = st.V[wave, vaddr.reg, lane].astype(np.int64)
            for off, vdata in zip(addrs, datas):
                data = read_vgprs(st, wave, lane, vdata.reg, max(1, nb // 4))
                data = data[:, 2:2 + nb] if hi else data[:, :nb]
                LDS.write(st, wave, lane, (base + off) & 0xFFFFFFFF, np.ascontiguousarray(data))
            return False
        return store
    if (am := ATOMIC.match(m)):
        name, t = am.group("op"), am.group("t")
        name = {"swap": "storexchg"}.get(name, name)
        returns = bool(am.group("rtn"))
        vdst = ops[0] if returns else None
        rest = ops[1:] if returns else ops
        vaddr, datas = rest[0], rest[1:]
        offset = int(mods.get("offset", 0))
        words = 2 if t.endswith("64") else 1
        dtype = {"u32": np.uint32, "i32": np.int32, "b32": np.uint32, "f32": np.float32, "u64": np.uint64,
                 "i64": np.int64, "b64": np.uint64, "f64": np.float64}[t]

        def ds_atomic(st, w):
            wave, lane, _ = active_lanes(st, w)
            a = (st.V[wave, vaddr.reg, lane].astype(np.int64) + offset) & 0xFFFFFFFF   # 32-bit wrap
            vals = [read_vgprs(st, wave, lane, d.reg, words).view(dtype).reshape(-1) for d in datas]
            if name == "mskor":      # (old & ~mask) | data
                old = _mskor(st, wave, lane, a, vals[0], vals[1], t)
            elif name == "cmpstore":
                old = atomic(LDS, st, wave, lane, a, "cmpstore", t, vals[0], vals[1])
            else:
                old = atomic(LDS, st, wave, lane, a, name, t, vals[0])
            if vdst is not None:
                write_vgprs(st, wave, lane, vdst.reg, np.ascontiguousarray(old).view(np.uint32).reshape(-1, words))
            return False
        return ds_atomic
    return None


def _dword_addresses(st, w, vaddr: int, offset: int, write: bool):
    """The active lanes and their dword-aligned LDS addresses, or None when one is unaligned
    (the byte-wise path handles those); out-of-range addresses fault."""
    wave, lane, _ = active_lanes(st, w)
    addr = (st.V[wave, vaddr, lane].astype(np.int64) + offset) & 0xFFFFFFFF
    LDS.check(st, lane, addr, 4, write)
    if (addr & 3).any():
        return None
    return wave, lane, addr >> 2


def _load_dword(vdst: int, vaddr: int, offset: int):
    """ds_load_b32, the common case, as one gather."""
    def load_dword(st, w):
        found = _dword_addresses(st, w, vaddr, offset, False)
        if found is None:
            wave, lane, _ = active_lanes(st, w)
            a = (st.V[wave, vaddr, lane].astype(np.int64) + offset) & 0xFFFFFFFF
            write_vgprs(st, wave, lane, vdst, load_to_dwords(LDS.read(st, wave, lane, a, 4), "b32"))
            return False
        wave, lane, index = found
        st.V[wave, vdst, lane] = st.lds.view(np.uint32)[st.wg[wave], index]
        return False
    return load_dword


def _store_dword(vdata: int, vaddr: int, offset: int):
    """ds_store_b32, the common case, as one scatter (lanes in order: the last one wins)."""
    def store_dword(st, w):
        found = _dword_addresses(st, w, vaddr, offset, True)
        if found is None:
            wave, lane, _ = active_lanes(st, w)
            a = (st.V[wave, vaddr, lane].astype(np.int64) + offset) & 0xFFFFFFFF
            LDS.write(st, wave, lane, a, read_vgprs(st, wave, lane, vdata, 1))
            return False
        wave, lane, index = found
        words, groups = st.lds.view(np.uint32), st.wg[wave]
        if st.lds_changed:
            words[groups, index] = st.V[wave, vdata, lane]
            return False
        before = words[groups, index]     # compared after the store: the last of equal addresses wins
        words[groups, index] = st.V[wave, vdata, lane]
        st.lds_changed = not np.array_equal(before, words[groups, index])
        return False
    return store_dword


def _append_consume(append: bool, vdst, offset: int, gds: bool):
    """ds_append/ds_consume: the LDS dword at M0 + offset grows (shrinks) by the number of active
    lanes; every active lane gets the value from before. Waves at the same pc go in wave order."""
    if gds:
        raise Unimplemented("GDS is not emulated (gfx1100 compute kernels use LDS)")

    def append_consume(st, w):
        for wv in w:
            bits = int(st.mask_bits(np.array([wv]), EXEC)[0])
            active = bits.bit_count()
            if active == 0:
                continue
            wave, lane = np.array([wv]), np.array([(bits & -bits).bit_length() - 1])
            addr = np.array([(int(st.S[wv, M0]) + offset) & 0xFFFFFFFF])
            old = LDS.read(st, wave, lane, addr, 4).view(np.uint32)[0, 0]
            new = (int(old) + (active if append else -active)) & 0xFFFFFFFF
            LDS.write(st, wave, lane, addr, np.array([[new]], np.uint32).view(np.uint8))
            st.V[wv, vdst.reg] = np.where(st.exec_mask(np.array([wv]))[0], old, st.V[wv, vdst.reg])
        return False
    return append_consume


def _mskor(st, wave, lane, a, mask, data, t):
    dtype = mask.dtype
    old_all = np.zeros(len(a), dtype)
    for i in range(len(a)):          # lane order; rare instruction
        sel = np.array([i])
        old = LDS.read(st, wave[sel], lane[sel], a[sel], dtype.itemsize).view(dtype)[0]
        new = (old & ~mask[i]) | data[i]
        LDS.write(st, wave[sel], lane[sel], a[sel], np.ascontiguousarray(new).view(np.uint8).reshape(1, -1))
        old_all[i] = old[0]
    return old_all


def _addresses(match, mods, nb):
    """Byte offsets from the address VGPR: [offset] or, for 2addr forms, [offset0, offset1] scaled."""
    if not match.group("two"):
        return [int(mods.get("offset", 0))]
    scale = nb * (64 if match.group("s64") else 1)
    return [int(mods.get("offset0", 0)) * scale, int(mods.get("offset1", 0)) * scale]


def swizzle_lanes(offset) -> np.ndarray:
    """Source lane of each of 32 lanes for ds_swizzle_b32's offset (raw number or swizzle(...)
    form); a wave64 swizzles each half of 32 lanes alike."""
    if not isinstance(offset, int):
        mode, *args = offset.value
        if mode == "QUAD_PERM":
            return (LANE & ~3) | np.array(args)[LANE & 3]
        if mode == "SWAP":
            and_mask, or_mask, xor_mask = 0x1F, 0, args[0]
        elif mode == "REVERSE":
            and_mask, or_mask, xor_mask = 0x1F, 0, args[0] - 1
        elif mode == "BROADCAST":
            and_mask, or_mask, xor_mask = 0x1F & ~(args[0] - 1), args[1], 0
        elif mode == "BITMASK_PERM":
            and_mask = or_mask = xor_mask = 0
            for bit, c in enumerate(reversed(args[0])):
                and_mask |= (c in "pi") << bit
                or_mask |= (c == "1") << bit
                xor_mask |= (c == "i") << bit
        else:
            raise Unimplemented(f"swizzle mode {mode}")
    else:
        if offset & 0x8000:
            return (LANE & ~3) | ((offset >> (2 * (LANE & 3))) & 3)
        and_mask, or_mask, xor_mask = offset & 0x1F, (offset >> 5) & 0x1F, (offset >> 10) & 0x1F
    return ((LANE & and_mask) | or_mask) ^ xor_mask


def _cross_lane(m, ops, mods):
    if m == "ds_swizzle_b32":
        vdst, vsrc = ops
        half = swizzle_lanes(mods.get("offset", 0))
        by_lanes = {32: half, 64: np.concatenate([half, half + 32])}

        def swizzle(st, w):
            src = by_lanes[st.lanes]
            ex = st.exec_mask(w)
            vals = np.where(ex[:, src], st.V[w, vsrc.reg][:, src], np.uint32(0))
            st.V[w, vdst.reg] = np.where(ex, vals, st.V[w, vdst.reg])
            return False
        return swizzle
    vdst, vaddr, vdata = ops
    offset = int(mods.get("offset", 0))
    if m == "ds_bpermute_b32":
        def bpermute(st, w):
            ex = st.exec_mask(w)
            src = ((st.V[w, vaddr.reg].astype(np.int64) + offset) >> 2) & (st.lanes - 1)
            vals = np.take_along_axis(st.V[w, vdata.reg], src, axis=1)
            st.V[w, vdst.reg] = np.where(ex, vals, st.V[w, vdst.reg])
            return False
        return bpermute

    def permute(st, w):
        ex = st.exec_mask(w)
        out = np.zeros((len(w), st.lanes), np.uint32)
        dst = ((st.V[w, vaddr.reg].astype(np.int64) + offset) >> 2) & (st.lanes - 1)
        wi, li = np.nonzero(ex)
        out[wi, dst[wi, li]] = st.V[w, vdata.reg][wi, li]
        st.V[w, vdst.reg] = np.where(ex, out, st.V[w, vdst.reg])
        return False
    return permute
