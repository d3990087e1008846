"""Other generations' spellings of the gfx11 instructions the emulator implements.

The emulator's tables name instructions as llvm-objdump prints them for gfx11. LLVM prints some
of the same operations under other names for gfx12, gfx10.3 (RDNA2) and gfx9 (CDNA): the
decoder maps those names to the gfx11 ones, so one implementation serves every generation whose
semantics match. The pairs are checked against llvm-mc-22 (tests/emu/test_isa_names.py): the
gfx11 spelling, assembled for the other processor, is printed under the other name with the same
operands (or, where llvm-mc knows no gfx11 spelling there, the other name assembles as written).

GFX9 and GFX10 memory instructions are named by size in dwords and by C type (global_load_dword,
global_load_ubyte_d16_hi, ds_read2st64_b32, global_atomic_smin_x2); gfx11 by bits and
signedness (global_load_b32, global_load_d16_hi_u8, ds_load_2addr_stride64_b32,
global_atomic_min_i64): `_memory_name` spells one as the other by rule.
"""

from __future__ import annotations

import re
import zlib

_SCALAR_GFX10 = {
    "s_andn2_b32": "s_and_not1_b32", "s_andn2_b64": "s_and_not1_b64",
    "s_orn2_b32": "s_or_not1_b32", "s_orn2_b64": "s_or_not1_b64",
    "s_ff1_i32_b32": "s_ctz_i32_b32", "s_ff1_i32_b64": "s_ctz_i32_b64",
    "s_flbit_i32_b32": "s_clz_i32_u32", "s_flbit_i32_b64": "s_clz_i32_u64",
    "s_flbit_i32": "s_cls_i32", "s_flbit_i32_i64": "s_cls_i32_i64",
}
_VECTOR_GFX10 = {
    "v_ffbh_u32": "v_clz_i32_u32", "v_ffbl_b32": "v_ctz_i32_b32", "v_ffbh_i32": "v_cls_i32",
    "v_cvt_flr_i32_f32": "v_cvt_floor_i32_f32", "v_cvt_rpi_i32_f32": "v_cvt_nearest_i32_f32",
    "v_cvt_pkrtz_f16_f32": "v_cvt_pk_rtz_f16_f32",
    "v_dot2c_f32_f16": "v_dot2acc_f32_f16",
}
# GFX9's VALU integer adds: no carry is v_add_u32 (gfx11 v_add_nc_u32); the carry forms end in _co
_VECTOR_GFX9 = {
    "v_add_u32": "v_add_nc_u32", "v_sub_u32": "v_sub_nc_u32", "v_subrev_u32": "v_subrev_nc_u32",
    "v_addc_co_u32": "v_add_co_ci_u32", "v_subb_co_u32": "v_sub_co_ci_u32",
    "v_subbrev_co_u32": "v_subrev_co_ci_u32",
    "v_add_i32": "v_add_nc_i32", "v_sub_i32": "v_sub_nc_i32",
    "v_add_u16": "v_add_nc_u16", "v_sub_u16": "v_sub_nc_u16",
    "v_add_i16": "v_add_nc_i16", "v_sub_i16": "v_sub_nc_i16",
    # GFX8's 16-bit VOP3 ops, which clear bits 31:16 (sdwa.zeroes_high_half)
    "v_mad_legacy_u16": "v_mad_u16", "v_mad_legacy_i16": "v_mad_i16", "v_fma_legacy_f16": "v_fma_f16",
    "v_div_fixup_legacy_f16": "v_div_fixup_f16",
}

RENAMED: dict[str, dict[str, str]] = {
    "gfx12": {
        "v_mad_co_u64_u32": "v_mad_u64_u32",
        "v_mad_co_i64_i32": "v_mad_i64_i32",
        "s_add_co_u32": "s_add_u32",
        "s_add_co_i32": "s_add_i32",
        "s_add_co_ci_u32": "s_addc_u32",
        "s_sub_co_u32": "s_sub_u32",
        "s_sub_co_i32": "s_sub_i32",
        "s_sub_co_ci_u32": "s_subb_u32",
        "s_addk_co_i32": "s_addk_i32",
        # gfx12 splits the workgroup barrier into s_barrier_signal -1 and s_barrier_wait -1 (the
        # workgroup's own barrier). A wave's arrival is taken at the wait: what it does between
        # the two cannot be ordered against the other waves by the barrier anyway.
        "s_barrier_wait": "s_barrier",
    },
    "gfx10.3": {**_SCALAR_GFX10, **_VECTOR_GFX10},
    "gfx9": {**_SCALAR_GFX10, **_VECTOR_GFX10, **_VECTOR_GFX9},
}

# GFX9/GFX10 ds_cmpst compares with its first data operand and stores its second; gfx11's
# ds_cmpstore takes them the other way round (LLVM selects the same cmpxchg so: tests/emu)
DATA_SWAPPED = {"gfx9": ("ds_cmpst_",), "gfx10.3": ("ds_cmpst_",)}

# Waits on gfx12's split counters (s_wait_loadcnt, s_wait_kmcnt, s_wait_loadcnt_dscnt, ...) and
# its ALU dependency wait: no effect in an emulator that completes every access when it is made.
NO_OP_PATTERN = (r"s_wait_(?:load|store|ds|km|sample|bvh|exp)cnt\w*|s_wait_alu|"
                 r"global_inv|global_wb|"  # cache invalidate/write-back: the emulator has no caches
                 r"buffer_wbl2|buffer_inv|buffer_invl2")  # gfx90a/gfx942's cache write-back and invalidate

_LOAD_TYPES = {"dword": "b32", "dwordx2": "b64", "dwordx3": "b96", "dwordx4": "b128",
               "ubyte": "u8", "sbyte": "i8", "ushort": "u16", "sshort": "i16"}
_D16_TYPES = {"ubyte": "u8", "sbyte": "i8", "byte": "b8", "short": "b16"}   # loads say ubyte, stores byte
_STORE_TYPES = {"byte": "b8", "short": "b16", **_LOAD_TYPES}
_ATOMIC_OPS = {"add": "add_u", "sub": "sub_u", "swap": "swap_b", "cmpswap": "cmpswap_b", "smin": "min_i",
               "umin": "min_u", "smax": "max_i", "umax": "max_u", "and": "and_b", "or": "or_b", "xor": "xor_b",
               "inc": "inc_u", "dec": "dec_u"}
_VMEM = re.compile(r"^(?P<space>global|flat|scratch|buffer)_(?P<what>load|store|atomic)_(?P<rest>\w+)$")
_DS = re.compile(r"^ds_(?P<what>read|write)(?P<two>2st64|2)?_(?P<t>\w+)$")


def _memory_name(m: str) -> str | None:
    """The gfx11 spelling of a GFX9/GFX10 memory instruction, None when it has no other one."""
    vm = _VMEM.match(m)
    if vm:
        space, what, rest = vm.group("space", "what", "rest")
        if what == "atomic":
            wide = rest.endswith("_x2")
            op = rest[:-3] if wide else rest
            return f"{space}_atomic_{_ATOMIC_OPS[op]}{64 if wide else 32}" if op in _ATOMIC_OPS else None
        d16 = re.fullmatch(r"(\w+?)_d16(_hi)?", rest)
        if d16:
            t = _D16_TYPES.get(d16.group(1))
            return f"{space}_{what}_d16{d16.group(2) or ''}_{t}" if t else None
        t = (_LOAD_TYPES if what == "load" else _STORE_TYPES).get(rest)
        return f"{space}_{what}_{t}" if t else None
    ds = _DS.match(m)
    if ds:
        what = "load" if ds.group("what") == "read" else "store"
        two = {"2": "_2addr", "2st64": "_2addr_stride64"}.get(ds.group("two") or "", "")
        return f"ds_{what}{two}_{ds.group('t')}"
    if m.startswith("ds_wrxchg_rtn_"):
        return "ds_storexchg_rtn_" + m[len("ds_wrxchg_rtn_"):]
    if m.startswith("ds_cmpst_"):
        return "ds_cmpstore_" + m[len("ds_cmpst_"):]
    return None


# part of the decode cache's key: cached decodings carry the names mapped when they were made
_TABLES = (sorted((k, sorted(v.items())) for k, v in RENAMED.items()), DATA_SWAPPED, _LOAD_TYPES, _STORE_TYPES,
           _D16_TYPES, _ATOMIC_OPS)
NAMES_VERSION = f"{zlib.crc32(repr(_TABLES).encode()):08x}"


def gfx11_mnemonic(mnemonic: str, isa: str) -> str:
    """The gfx11 name of `mnemonic` as LLVM prints it for the ISA generation `isa`."""
    renamed = RENAMED.get(isa, {})
    found = renamed.get(mnemonic)
    if found is not None:
        return found
    if isa in ("gfx9", "gfx10.3"):
        base = re.sub(r"(_e32|_e64|_dpp|_sdwa)+$", "", mnemonic)
        if base != mnemonic and base in renamed:         # v_add_u32_e32 -> v_add_nc_u32_e32
            return renamed[base] + mnemonic[len(base):]
        return _memory_name(mnemonic) or mnemonic
    return mnemonic


def swaps_data(mnemonic: str, isa: str) -> bool:
    """Whether the instruction (by its name for `isa`) takes its two data operands in the
    opposite order to its gfx11 spelling."""
    return mnemonic.startswith(DATA_SWAPPED.get(isa, ()))
