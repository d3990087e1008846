"""Bitwise integer operations: LOP3/PLOP3 truth tables, funnel shifts (SHF), SHL/SHR, PRMT byte
permutes, POPC, FLO, BREV, BMSK, SGXT, and predicate packing (P2R/R2P)."""

from __future__ import annotations

import dataclasses

from llvmlite import ir

from .core import I1, I32, I64, Imm, Lifter, Reg, handles, unsupported
from .integer import split


def truth_table(ctx: Lifter, lut: int, values: list[ir.Value]) -> ir.Value:
    """Evaluate a 2^n-entry truth table over `values` (first value is the most significant index
    bit, as in LOP3's 0xF0/0xCC/0xAA convention) by Shannon expansion, folding the cases that
    give AND/OR/XOR/NOT directly."""
    b = ctx.b
    ty = values[0].type
    ones = ir.Constant(ty, -1)
    zero = ir.Constant(ty, 0)

    def build(table: tuple[int, ...], vs: list[ir.Value]) -> ir.Value:
        if all(t == 0 for t in table):
            return zero
        if all(t == 1 for t in table):
            return ones
        half = len(table) // 2
        f0, f1 = table[:half], table[half:]    # variable vs[0] = 0 / 1
        v, rest = vs[0], vs[1:]
        if f0 == f1:
            return build(f0, rest)
        if all(x != y for x, y in zip(f0, f1)):
            return b.xor(v, build(f0, rest))
        if all(t == 0 for t in f0):
            return b.and_(v, build(f1, rest))
        if all(t == 0 for t in f1):
            return b.and_(b.not_(v), build(f0, rest))
        if all(t == 1 for t in f1):
            return b.or_(v, build(f0, rest))
        if all(t == 1 for t in f0):
            return b.or_(b.not_(v), build(f1, rest))
        return b.or_(b.and_(v, build(f1, rest)), b.and_(b.not_(v), build(f0, rest)))

    n = len(values)
    table = tuple((lut >> i) & 1 for i in range(1 << n))
    return build(table, values)


@handles("LOP3", "ULOP3")
def lop3(ctx: Lifter, ins) -> None:
    """LOP3.LUT [P,] d, a, b, c, lut, Pq: d = lut(a, b, c); P = (d != 0) | Pq."""
    ctx.check(ins, {"LUT"})
    ops = list(ins.operands)
    pdest = ops.pop(0) if isinstance(ops[0], Reg) and ops[0].kind in ("P", "UP") else None
    if len(ops) != 6:
        raise unsupported(ins, "operand count")
    d, a, bb, c, lut, pq = ops
    if not isinstance(lut, Imm):
        raise unsupported(ins, "register truth table")
    r = truth_table(ctx, ctx.imm_bits32(lut) & 0xFF, [ctx.u32(a), ctx.u32(bb), ctx.u32(c)])
    ctx.set32(d, r)
    if pdest is not None:
        # P = (d != 0) OR Pq: nvcc passes !PT (false) when there is nothing to combine, and
        # chains a 64-bit "is non-zero" test as ISETP.NE lo -> P0; LOP3 P0, hi & mask, P0
        nonzero = ctx.b.icmp_unsigned("!=", r, ir.Constant(I32, 0))
        ctx.setp(pdest, ctx.b.or_(nonzero, ctx.pred(pq)))


@handles("LOP", "ULOP")
def lop(ctx: Lifter, ins) -> None:
    ops = {"AND": 0xC0, "OR": 0xFC, "XOR": 0x3C, "PASS_B": 0xCC}
    ctx.check(ins, set(ops))
    d, a, bb = ctx.operands(ins, 3)
    lut = next(ops[m] for m in ins.modifiers)
    ctx.set32(d, truth_table(ctx, lut, [ctx.u32(a), ctx.u32(bb), ir.Constant(I32, 0)]))


@handles("PLOP3", "UPLOP3")
def plop3(ctx: Lifter, ins) -> None:
    """PLOP3.LUT P, Q, a, b, c, lut, lut2."""
    ctx.check(ins, {"LUT"})
    p, q, a, bb, c, lut, lut2 = ctx.operands(ins, 7)
    vals = [ctx.pred(a), ctx.pred(bb), ctx.pred(c)]
    ctx.setp(p, truth_table(ctx, ctx.imm_bits32(lut) & 0xFF, vals))
    ctx.setp(q, truth_table(ctx, ctx.imm_bits32(lut2) & 0xFF, vals))


@handles("SHF", "USHF")
def shf(ctx: Lifter, ins) -> None:
    """SHF.{L,R}[.W].{U32,S32,U64,S64}[.HI] d, lo, n, hi: shift the 64-bit hi:lo by n (clamped to
    the type's width, or modulo it with .W) and keep the low word (the high one with .HI)."""
    ctx.check(ins, {"L", "R", "W", "U32", "S32", "U64", "S64", "HI"})
    b = ctx.b
    d, lo, n, hi = ctx.operands(ins, 4)
    left = "L" in ins.modifiers
    width = 64 if ("U64" in ins.modifiers or "S64" in ins.modifiers) else 32
    signed = "S32" in ins.modifiers or "S64" in ins.modifiers
    value = ctx.join64(ctx.u32(lo), ctx.u32(hi))
    amount = b.zext(ctx.u32(n), I64)
    if "W" in ins.modifiers:
        amount = b.and_(amount, ir.Constant(I64, width - 1))
    else:
        amount = b.select(b.icmp_unsigned(">", amount, ir.Constant(I64, width)), ir.Constant(I64, width), amount)
    safe = b.select(b.icmp_unsigned(">", amount, ir.Constant(I64, 63)), ir.Constant(I64, 63), amount)
    if left:
        r = b.select(b.icmp_unsigned(">", amount, ir.Constant(I64, 63)), ir.Constant(I64, 0), b.shl(value, safe))
    elif signed:
        r = b.ashr(value, safe)
    else:
        r = b.select(b.icmp_unsigned(">", amount, ir.Constant(I64, 63)), ir.Constant(I64, 0), b.lshr(value, safe))
    lo32, hi32 = ctx.split64(r)
    ctx.set32(d, hi32 if "HI" in ins.modifiers else lo32)


@handles("SHL", "USHL", "SHR", "USHR")
def shl_shr(ctx: Lifter, ins) -> None:
    ctx.check(ins, {"U32", "S32", "W"})
    b = ctx.b
    d, a, n = ctx.operands(ins, 3)
    v, s = ctx.u32(a), ctx.u32(n)
    if "W" in ins.modifiers:
        s = b.and_(s, ir.Constant(I32, 31))
    big = b.icmp_unsigned(">", s, ir.Constant(I32, 31))
    safe = b.select(big, ir.Constant(I32, 31), s)
    if ins.opcode.endswith("SHL"):
        r = b.select(big, ir.Constant(I32, 0), b.shl(v, safe))
    elif "U32" in ins.modifiers:
        r = b.select(big, ir.Constant(I32, 0), b.lshr(v, safe))
    else:
        r = b.ashr(v, safe)
    ctx.set32(d, r)


# PTX prmt modes: the byte of b:a that result byte i takes, from the selector's low bits s
PRMT_MODES = {
    "F4E": lambda s, i: (s + i) % 8, "B4E": lambda s, i: (s - i) % 8, "RC8": lambda s, i: s,
    "ECL": lambda s, i: max(i, s), "ECR": lambda s, i: min(i, s),
    "RC16": lambda s, i: 2 * (s & 1) + (i & 1),
}


@handles("PRMT", "UPRMT")
def prmt(ctx: Lifter, ins) -> None:
    """PRMT d, a, sel, b: default mode: result byte i = byte sel[4i+2:4i] of b:a, replicating its
    sign when sel bit 4i+3 is set; .F4E/.B4E/.RC8/.ECL/.ECR/.RC16 as PTX's prmt modes."""
    ctx.check(ins, set(PRMT_MODES))
    b = ctx.b
    d, a, s, bb = ctx.operands(ins, 4)
    mode = ins.modifiers[0] if ins.modifiers else None
    if mode is None and ins.opcode == "PRMT" and not isinstance(s, Imm):
        ctx.set32(d, _permute(ctx, ctx.u32(a), ctx.u32(bb), ctx.u32(s)))
        return
    pool = ctx.join64(ctx.u32(a), ctx.u32(bb))
    sel = ctx.u32(s)
    out = ir.Constant(I32, 0)
    for i in range(4):
        if mode is None:
            nib = b.lshr(sel, ir.Constant(I32, 4 * i))
            idx = b.and_(nib, ir.Constant(I32, 7))
        else:                                   # the index as a select over the 4 selector values
            low = b.and_(sel, ir.Constant(I32, 3))
            idx = ir.Constant(I32, PRMT_MODES[mode](3, i))
            for v in (2, 1, 0):
                idx = b.select(b.icmp_unsigned("==", low, ir.Constant(I32, v)), ir.Constant(I32, PRMT_MODES[mode](v, i)), idx)
        shift = b.zext(b.mul(idx, ir.Constant(I32, 8)), I64)
        byte = b.trunc(b.and_(b.lshr(pool, shift), ir.Constant(I64, 0xFF)), I32)
        if mode is None:
            sign = b.icmp_unsigned("!=", b.and_(nib, ir.Constant(I32, 8)), ir.Constant(I32, 0))
            neg = b.icmp_unsigned("!=", b.and_(byte, ir.Constant(I32, 0x80)), ir.Constant(I32, 0))
            byte = b.select(sign, b.select(neg, ir.Constant(I32, 0xFF), ir.Constant(I32, 0)), byte)
        out = b.or_(out, b.shl(byte, ir.Constant(I32, 8 * i)))
    ctx.set32(d, out)


def _permute(ctx: Lifter, a: ir.Value, bb: ir.Value, sel: ir.Value) -> ir.Value:
    """PRMT's default mode for a selector in a register, on v_perm_b32 (whose selector bytes 0-7
    pick the bytes of {bb, a} as PRMT's nibbles do), then the sign fill where a nibble asks for
    it (v_perm's own sign codes cover the odd bytes only). Built byte by byte instead, a selector
    chosen at run time cost ~30 instructions (64-bit shifts per byte): ptxas's 16-bit
    compare-and-swap loop runs three such PRMTs a round. A constant selector keeps the byte-wise
    form, which LLVM folds to the shortest code (a v_bfe_i32 for a sign-extending 0x9910)."""
    b = ctx.b
    k = lambda v: ir.Constant(I32, v)       # noqa: E731

    def spread(nibbles: ir.Value) -> ir.Value:      # nibble i -> byte i
        return b.or_(b.or_(b.and_(nibbles, k(0xF)), b.shl(b.and_(nibbles, k(0xF0)), k(4))),
                     b.or_(b.shl(b.and_(nibbles, k(0xF00)), k(8)), b.shl(b.and_(nibbles, k(0xF000)), k(12))))
    moved = ctx.call("llvm.amdgcn.perm", I32, [bb, a, spread(b.and_(sel, k(0x7777)))])
    fill = b.mul(spread(b.and_(b.lshr(sel, k(3)), k(0x1111))), k(0xFF))          # 0xFF where a sign is asked
    signs = b.mul(b.and_(b.lshr(moved, k(7)), k(0x01010101)), k(0xFF))          # each byte's sign, spread
    return b.or_(b.and_(moved, b.not_(fill)), b.and_(signs, fill))


@handles("POPC", "UPOPC")
def popc(ctx: Lifter, ins) -> None:
    ctx.check(ins, set())
    d, a = ctx.operands(ins, 2)
    ctx.set32(d, ctx.call("llvm.ctpop.i32", I32, [ctx.u32(a)]))


@handles("BREV", "UBREV")
def brev(ctx: Lifter, ins) -> None:
    ctx.check(ins, set())
    d, a = ctx.operands(ins, 2)
    ctx.set32(d, ctx.call("llvm.bitreverse.i32", I32, [ctx.u32(a)]))


@handles("FLO", "UFLO")
def flo(ctx: Lifter, ins) -> None:
    """FLO: bit index of the most significant 1 (.U32) or of the first bit differing from the
    sign (.S32, the default: bfind.s32 is a plain FLO), 0xffffffff if none; .SH gives the shift
    amount (31 - index) instead."""
    ctx.check(ins, {"U32", "S32", "SH"})
    b = ctx.b
    d, a = ctx.operands(ins, 2)
    v = ctx.u32(a)
    if "U32" not in ins.modifiers:
        v = b.select(b.icmp_signed("<", v, ir.Constant(I32, 0)), b.not_(v), v)
    clz = ctx.call("llvm.ctlz.i32", I32, [v, ir.Constant(I1, 0)])
    none = b.icmp_unsigned("==", v, ir.Constant(I32, 0))
    r = clz if "SH" in ins.modifiers else b.sub(ir.Constant(I32, 31), clz)
    ctx.set32(d, b.select(none, ir.Constant(I32, -1), r))


@handles("BMSK", "UBMSK")
def bmsk(ctx: Lifter, ins) -> None:
    """BMSK d, pos, width: `width` ones from bit `pos` (.W: both modulo 32, else clamped)."""
    ctx.check(ins, {"W", "C"})
    b = ctx.b
    d, pos, width = ctx.operands(ins, 3)
    p, w = ctx.u32(pos), ctx.u32(width)
    if "W" in ins.modifiers:
        p, w = b.and_(p, ir.Constant(I32, 31)), b.and_(w, ir.Constant(I32, 31))
    mask = b.sub(b.shl(ir.Constant(I64, 1), b.zext(b.select(b.icmp_unsigned(">", w, ir.Constant(I32, 32)), ir.Constant(I32, 32), w), I64)), ir.Constant(I64, 1))
    shifted = b.shl(mask, b.zext(b.select(b.icmp_unsigned(">", p, ir.Constant(I32, 32)), ir.Constant(I32, 32), p), I64))
    ctx.set32(d, b.trunc(shifted, I32))


@handles("SGXT", "USGXT")
def sgxt(ctx: Lifter, ins) -> None:
    """SGXT d, a, n: sign-extend (zero-extend with .U32) the low n bits of a."""
    ctx.check(ins, {"U32", "W"})
    b = ctx.b
    d, a, n = ctx.operands(ins, 3)
    v, bits = ctx.u32(a), ctx.u32(n)
    bits = b.and_(bits, ir.Constant(I32, 31)) if "W" in ins.modifiers else \
        b.select(b.icmp_unsigned(">", bits, ir.Constant(I32, 32)), ir.Constant(I32, 32), bits)
    keep = b.select(b.icmp_unsigned("==", bits, ir.Constant(I32, 0)), ir.Constant(I32, 32), b.sub(ir.Constant(I32, 32), bits))
    keep = b.select(b.icmp_unsigned("==", bits, ir.Constant(I32, 32)), ir.Constant(I32, 0), keep)
    up = b.shl(v, keep)
    r = b.lshr(up, keep) if "U32" in ins.modifiers else b.ashr(up, keep)
    ctx.set32(d, b.select(b.icmp_unsigned("==", bits, ir.Constant(I32, 0)), ir.Constant(I32, 0), r))


def _pr_bits(ctx: Lifter, kind: str) -> ir.Value:
    v = ir.Constant(I32, 0)
    for i in range(7):
        bit = ctx.b.zext(ctx.pred(Reg(kind, i, f"{kind}{i}")), I32)
        v = ctx.b.or_(v, ctx.b.shl(bit, ir.Constant(I32, i)))
    return v


def _byte_lane(op) -> tuple[object, int]:
    """A register operand of P2R/R2P with its byte selector (`R2.B1`: the predicates live in byte
    1, ptxas's way of packing them beside other data) -> the plain register and its bit offset."""
    lanes = [s for s in getattr(op, "suffixes", ()) if s in ("B0", "B1", "B2", "B3")]
    if not lanes:
        return op, 0
    return dataclasses.replace(op, suffixes=tuple(s for s in op.suffixes if s not in lanes)), 8 * int(lanes[0][1])


@handles("P2R", "UP2UR")
def p2r(ctx: Lifter, ins) -> None:
    """P2R d, PR, a, mask: d = (a & ~mask) | (predicate bits & mask); with a.Bk the mask and the
    bits are moved to byte k, the other bytes of a kept."""
    ctx.check(ins, set())
    d, pr, a, mask = ctx.operands(ins, 4)
    a, offset = _byte_lane(a)
    if offset and not isinstance(mask, Imm):
        raise unsupported(ins, "register mask with a byte selector")
    m = ctx.b.shl(ctx.u32(mask), ir.Constant(I32, offset))
    kind = "UP" if ins.opcode.startswith("U") else "P"
    bits = ctx.b.and_(ctx.b.shl(_pr_bits(ctx, kind), ir.Constant(I32, offset)), m)
    ctx.set32(d, ctx.b.or_(ctx.b.and_(ctx.u32(a), ctx.b.not_(m)), bits))


@handles("R2P", "R2UP")
def r2p(ctx: Lifter, ins) -> None:
    """R2P PR, a, mask: P_i = a bit i, for the bits set in mask (a.Bk: bit 8k + i)."""
    ctx.check(ins, set())
    pr, a, mask = ctx.operands(ins, 3)
    if not isinstance(mask, Imm):
        raise unsupported(ins, "register mask")
    a, offset = _byte_lane(a)
    m, v = ctx.imm_bits32(mask), ctx.u32(a)
    kind = "UP" if ins.opcode.startswith("R2U") else "P"
    for i in range(7):
        if m >> i & 1:
            bit = ctx.b.icmp_unsigned("!=", ctx.b.and_(v, ir.Constant(I32, 1 << (i + offset))), ir.Constant(I32, 0))
            ctx.setp(Reg(kind, i, f"{kind}{i}"), bit)
