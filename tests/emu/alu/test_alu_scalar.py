"""SALU ops against Python-int references from the ISA pseudocode, including SCC."""
from __future__ import annotations

import pytest

from alu_reference import call, int_columns, wrap
from cass_cc.emu.alu import SCALAR_OPS

M32, M64 = 2**32 - 1, 2**64 - 1


def sext(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def bfe(a, s, nbits, signed):
    """S_BFE_[IU]: (S0 >> offset) & ((1 << width) - 1), the shift arithmetic for the I forms."""
    off, width = s & (nbits - 1), min((s >> 16) & 0x7F, nbits)
    field = (sext(a, nbits) if signed else a) >> off & ((1 << width) - 1)
    return sext(field, width) if signed and width else field


def nz(r, t):
    r = wrap(r, t)
    return r, r != 0


def overflow32(r):
    return not -2**31 <= r < 2**31


# name -> reference returning (result, scc) or a plain result for ops without SCC.
REFERENCES = {
    "s_add_u32": lambda a, b: (a + b, a + b > M32),
    "s_sub_u32": lambda a, b: (a - b, b > a),
    "s_add_i32": lambda a, b: (a + b, overflow32(a + b)),
    "s_sub_i32": lambda a, b: (a - b, overflow32(a - b)),
    "s_min_i32": lambda a, b: (min(a, b), a < b),
    "s_max_u32": lambda a, b: (max(a, b), a >= b),
    "s_absdiff_i32": lambda a, b: nz(abs(wrap(a - b, "i32")), "i32"),
    "s_abs_i32": lambda a: nz(abs(a), "i32"),
    "s_mul_i32": lambda a, b: a * b,
    "s_mul_hi_u32": lambda a, b: (a * b) >> 32,
    "s_mul_hi_i32": lambda a, b: (a * b) >> 32,
    "s_lshl2_add_u32": lambda a, b: ((a << 2) + b, (a << 2) + b > M32),
    "s_lshl4_add_u32": lambda a, b: ((a << 4) + b, (a << 4) + b > M32),
    "s_and_b32": lambda a, b: nz(a & b, "b32"),
    "s_nand_b64": lambda a, b: nz(~(a & b), "b64"),
    "s_xnor_b32": lambda a, b: nz(~(a ^ b), "b32"),
    "s_and_not1_b64": lambda a, b: nz(a & ~b, "b64"),
    "s_or_not1_b32": lambda a, b: nz(a | ~b, "b32"),
    "s_not_b64": lambda a: nz(~a, "b64"),
    "s_lshl_b32": lambda a, s: nz(a << (s & 31), "b32"),
    "s_lshr_b64": lambda a, s: nz(a >> (s & 63), "b64"),
    "s_ashr_i32": lambda a, s: nz(a >> (s & 31), "i32"),
    "s_ashr_i64": lambda a, s: nz(a >> (s & 63), "i64"),
    "s_lshl_b64": lambda a, s: nz(a << (s & 63), "b64"),
    "s_bfm_b32": lambda w, o: ((1 << (w & 31)) - 1) << (o & 31),
    "s_bfm_b64": lambda w, o: ((1 << (w & 63)) - 1) << (o & 63),
    "s_bfe_u32": lambda a, s: nz(bfe(a, s, 32, False), "u32"),
    "s_bfe_i32": lambda a, s: nz(bfe(a & M32, s, 32, True), "i32"),
    "s_bfe_u64": lambda a, s: nz(bfe(a, s, 64, False), "u64"),
    "s_bfe_i64": lambda a, s: nz(bfe(a & M64, s, 64, True), "i64"),
    "s_brev_b32": lambda a: int(f"{a:032b}"[::-1], 2),
    "s_brev_b64": lambda a: int(f"{a:064b}"[::-1], 2),
    "s_bcnt1_i32_b64": lambda a: nz(bin(a).count("1"), "i32"),
    "s_bcnt0_i32_b32": lambda a: nz(32 - bin(a).count("1"), "i32"),
    "s_ctz_i32_b64": lambda a: (a & -a).bit_length() - 1 if a else -1,
    "s_clz_i32_u32": lambda a: 32 - a.bit_length() if a else -1,
    "s_clz_i32_u64": lambda a: 64 - a.bit_length() if a else -1,
    "s_cls_i32": lambda a: (32 - (((a & M32) ^ M32) if a < 0 else a).bit_length()) if a not in (0, -1) else -1,
    "s_sext_i32_i8": lambda a: sext(a, 8),
    "s_sext_i32_i16": lambda a: sext(a, 16),
    "s_pack_ll_b32_b16": lambda a, b: (a & 0xFFFF) | (b & 0xFFFF) << 16,
    "s_pack_lh_b32_b16": lambda a, b: (a & 0xFFFF) | (b >> 16) << 16,
    "s_pack_hh_b32_b16": lambda a, b: (a >> 16) | (b >> 16) << 16,
    "s_pack_hl_b32_b16": lambda a, b: (a >> 16) | (b & 0xFFFF) << 16,
    "s_movk_i32": lambda k: k,
    "s_mulk_i32": lambda k, d: k * d,
    "s_addk_i32": lambda k, d: (k + d, overflow32(k + d)),
    "s_bitset1_b32": lambda p, d: d | 1 << (p & 31),
    "s_bitset0_b64": lambda p, d: d & ~(1 << (p & 63)),
    "s_wqm_b32": lambda a: nz(sum(0xF << 4 * i for i in range(8) if (a >> 4 * i) & 0xF), "b32"),
    "s_quadmask_b32": lambda a: nz(sum(1 << i for i in range(8) if (a >> 4 * i) & 0xF), "b32"),
    "s_bitreplicate_b64_b32": lambda a: sum(3 << 2 * i for i in range(32) if (a >> i) & 1),
    "s_mov_b32": lambda a: a, "s_mov_b64": lambda a: a,
    "s_and_b64": lambda a, b: nz(a & b, "b64"), "s_or_b32": lambda a, b: nz(a | b, "b32"),
    "s_or_b64": lambda a, b: nz(a | b, "b64"), "s_xor_b32": lambda a, b: nz(a ^ b, "b32"),
    "s_xor_b64": lambda a, b: nz(a ^ b, "b64"), "s_nand_b32": lambda a, b: nz(~(a & b), "b32"),
    "s_nor_b32": lambda a, b: nz(~(a | b), "b32"), "s_nor_b64": lambda a, b: nz(~(a | b), "b64"),
    "s_xnor_b64": lambda a, b: nz(~(a ^ b), "b64"), "s_and_not1_b32": lambda a, b: nz(a & ~b, "b32"),
    "s_or_not1_b64": lambda a, b: nz(a | ~b, "b64"), "s_not_b32": lambda a: nz(~a, "b32"),
    "s_lshr_b32": lambda a, s: nz(a >> (s & 31), "b32"),
    "s_max_i32": lambda a, b: (max(a, b), a >= b), "s_min_u32": lambda a, b: (min(a, b), a < b),
    "s_lshl1_add_u32": lambda a, b: ((a << 1) + b, (a << 1) + b > M32),
    "s_lshl3_add_u32": lambda a, b: ((a << 3) + b, (a << 3) + b > M32),
    "s_bcnt0_i32_b64": lambda a: nz(64 - bin(a).count("1"), "i32"),
    "s_bcnt1_i32_b32": lambda a: nz(bin(a).count("1"), "i32"),
    "s_ctz_i32_b32": lambda a: (a & -a).bit_length() - 1 if a else -1,
    "s_cls_i32_i64": lambda a: (64 - (((a & M64) ^ M64) if a < 0 else a).bit_length()) if a not in (0, -1) else -1,
    "s_bitset0_b32": lambda p, d: d & ~(1 << (p & 31)),
    "s_bitset1_b64": lambda p, d: d | 1 << (p & 63),
    "s_wqm_b64": lambda a: nz(sum(0xF << 4 * i for i in range(16) if (a >> 4 * i) & 0xF), "b64"),
    "s_quadmask_b64": lambda a: nz(sum(1 << i for i in range(16) if (a >> 4 * i) & 0xF), "b64"),
}


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_scalar_op_matches_reference(name):
    o = SCALAR_OPS[name]
    cols = int_columns(o.srcs, n=120, seed=5)
    got = call(name, *cols)
    for i, args in enumerate(zip(*cols)):
        want = REFERENCES[name](*args)
        if "scc_out" in o.flags:
            want_value, want_scc = want
            assert (int(got[0][i]), bool(got[1][i])) == (wrap(want_value, o.dst), want_scc), (name, args)
        else:
            assert int(got[i]) == wrap(want, o.dst), (name, args)


def test_add_with_carry_chain():
    """s_add_u32 + s_addc_u32: a 64-bit scalar add."""
    a, b = [0xFFFFFFFF_FFFFFFFF, 0x1_FFFFFFFF, 5], [1, 1, 7]
    lo, scc = call("s_add_u32", [x & M32 for x in a], [y & M32 for y in b])
    hi, scc_out = call("s_addc_u32", [x >> 32 for x in a], [y >> 32 for y in b], scc=scc)
    assert [(int(h) << 32) | int(low) for h, low in zip(hi, lo)] == [(x + y) & M64 for x, y in zip(a, b)]
    assert list(map(bool, scc_out)) == [True, False, False]


def test_sub_with_borrow_chain():
    a, b = [0x1_00000000, 5], [1, 7]
    lo, scc = call("s_sub_u32", [x & M32 for x in a], [y & M32 for y in b])
    hi, _ = call("s_subb_u32", [x >> 32 for x in a], [y >> 32 for y in b], scc=scc)
    assert [(int(h) << 32) | int(low) for h, low in zip(hi, lo)] == [(x - y) & M64 for x, y in zip(a, b)]


def test_cselect_and_cmov_read_scc():
    assert list(call("s_cselect_b32", [1, 2], [10, 20], scc=[True, False])) == [1, 20]
    assert list(call("s_cselect_b64", [2**40, 2], [10, 2**63], scc=[True, False])) == [2**40, 2**63]
    assert list(call("s_cmov_b32", [1, 2], [10, 20], scc=[False, True])) == [10, 2]
    assert list(call("s_cmov_b64", [1, 2], [10, 20], scc=[True, False])) == [1, 20]
    assert list(call("s_cmovk_i32", [-5, -5], [10, 20], scc=[False, True])) == [10, -5]


COMPARE = {"eq": lambda a, b: a == b, "lg": lambda a, b: a != b, "gt": lambda a, b: a > b,
           "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b, "le": lambda a, b: a <= b}


@pytest.mark.parametrize("pred", sorted(COMPARE))
@pytest.mark.parametrize("form", ["s_cmp_{}_i32", "s_cmp_{}_u32", "s_cmpk_{}_i32", "s_cmpk_{}_u32", "s_cmp_{}_u64"])
def test_every_scalar_compare(pred, form):
    name = form.format(pred)
    if name not in SCALAR_OPS:
        assert form == "s_cmp_{}_u64" and pred not in ("eq", "lg")  # gfx11 has only eq/lg for u64
        return
    o = SCALAR_OPS[name]
    a, b = int_columns(o.srcs, n=100, seed=11)
    assert list(map(bool, call(name, a, b))) == [COMPARE[pred](x, y) for x, y in zip(a, b)]


@pytest.mark.parametrize("name, a, b, want", [
    ("s_cmp_lt_i32", [-1, 1, 5], [0, -1, 5], [True, False, False]),
    ("s_cmp_lt_u32", [0xFFFFFFFF, 1, 5], [0, 0xFFFFFFFF, 5], [False, True, False]),
    ("s_cmp_ge_i32", [-1, 1, 5], [0, -1, 5], [False, True, True]),
    ("s_cmp_lg_u64", [2**63, 1, 0], [2**63, 2, 0], [False, True, False]),
    ("s_cmpk_lt_i32", [-2, 0, 5], [-1, -1, 5], [True, False, False]),
    ("s_cmpk_gt_u32", [0xFFFFFFFF, 0, 5], [0xFFFF, 1, 5], [True, False, False]),
    ("s_bitcmp1_b32", [0x80000000, 0x80000000, 1], [31, 63, 0], [True, True, True]),
    ("s_bitcmp0_b64", [2**40, 2**40, 0], [40, 104, 63], [False, False, True]),
])
def test_scalar_compares(name, a, b, want):
    assert list(map(bool, call(name, a, b))) == want
