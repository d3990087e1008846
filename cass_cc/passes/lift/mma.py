"""Warp-level matrix multiply-accumulate (tensor cores: what nvcuda::wmma and mma.sync compile to):
HMMA.16816/.1688 (f16 or bf16 inputs, f32 or f16 accumulators), HMMA.1684/.1688.F32.TF32,
IMMA.16816/.16832 (8-bit integers, s32 accumulators), DMMA.884 (double m8n8k4), LDSM (ldmatrix:
8x8 tiles of 16-bit elements from shared memory, .MT88 transposed) and MOVM.16.MT88 (movmatrix,
the same tile transposed in registers).

gfx1100's own WMMA instructions spread the matrices over the lanes differently, so each lane
computes its fragment of D itself: it gathers the rows of A and the columns of B that its four
outputs need from the lanes holding them (ds_bpermute, the layouts of the PTX ISA's "Matrix
Fragments for mma.mMnNkK" sections), and sums the products. Lane = groupID * 4 + threadID_in_group;
an output c_i sits at row groupID + 8 * (i >= 2), column 2 * threadID_in_group + (i & 1).

Rounding: 16-bit and tf32 products are exact in double; the products and C are summed in double
and rounded once to the accumulator type (to nearest even). NVIDIA's tensor cores align the
addends to the largest exponent and drop the bits beyond their adder width, so a sum that is not
exact in f32 may differ in its last bit; sums of exactly representable terms agree. tf32 inputs
are the top 19 bits of each f32 register (the low 13 bits are ignored). Integer products and sums
wrap in 32 bits."""

from __future__ import annotations

from llvmlite import ir

from .core import F16, F32, F64, I16, I32, I8, Lifter, Mem, Reg, handles, unsupported
from .launch import lds_pointer
from .warp_model import fetch, lane_id

HALF_PAIR = ir.VectorType(F16, 2)


def _regs(ctx: Lifter, ins, op, count: int) -> list[ir.Value]:
    if not isinstance(op, Reg) or op.kind != "R" or op.negate or op.absolute or op.invert:
        raise unsupported(ins, f"matrix operand {op!r}")
    if set(op.suffixes) - {"ROW", "COL"}:
        raise unsupported(ins, f"operand suffix .{(set(op.suffixes) - {'ROW', 'COL'}).pop()}")
    return ctx.get_regs(op, count)


def _lane_parts(ctx: Lifter) -> tuple[ir.Value, ir.Value]:
    lane = lane_id(ctx)
    return ctx.b.lshr(lane, ir.Constant(I32, 2)), ctx.b.and_(lane, ir.Constant(I32, 3))


def _half(ctx: Lifter, word: ir.Value, index: int, kind: str) -> ir.Value:
    """Element `index` (0 low, 1 high) of a 16-bit pair as a double."""
    b = ctx.b
    if kind == "F16":
        return b.fpext(b.extract_element(b.bitcast(word, HALF_PAIR), ir.Constant(I32, index)), F64)
    bits = b.shl(word, ir.Constant(I32, 16)) if index == 0 else b.and_(word, ir.Constant(I32, 0xFFFF0000))
    return b.fpext(b.bitcast(bits, F32), F64)


def _tf32(ctx: Lifter, word: ir.Value) -> ir.Value:
    return ctx.b.fpext(ctx.b.bitcast(ctx.b.and_(word, ir.Constant(I32, 0xFFFFE000)), F32), F64)


def _byte(ctx: Lifter, word: ir.Value, index: int, signed: bool) -> ir.Value:
    v = ctx.b.trunc(ctx.b.lshr(word, ir.Constant(I32, 8 * index)), I8)
    return (ctx.b.sext if signed else ctx.b.zext)(v, I32)


def _gather(ctx: Lifter, base: ir.Value, words: list[ir.Value]) -> list[list[ir.Value]]:
    """words as held by lanes base + 0..3: [lane offset][register]."""
    return [[fetch(ctx, ctx.b.add(base, ir.Constant(I32, t)), w) for w in words] for t in range(4)]


# shape -> (K, A registers, B registers, where A[row][k] is, where B[k][col] is): an element's
# place is (lane offset within the group of four, register, element within the register); A's
# lanes are those of the output's group (4g + 0..3), B's those of the column's (4n + 0..3).
# `upper` is 1 for the rows groupID + 8. From the PTX ISA's mma fragment layouts.
SHAPES = {
    ("16816", 16): (16, 4, 2, lambda k, upper: ((k % 8) // 2, upper + 2 * (k >= 8), k & 1),
                    lambda k: ((k % 8) // 2, int(k >= 8), k & 1)),
    ("1688", 16): (8, 2, 1, lambda k, upper: (k // 2, upper, k & 1), lambda k: (k // 2, 0, k & 1)),
    ("1684", 32): (4, 2, 1, lambda k, upper: (k, upper, 0), lambda k: (k, 0, 0)),
    ("1688", 32): (8, 4, 2, lambda k, upper: (k % 4, upper + 2 * (k >= 4), 0), lambda k: (k % 4, int(k >= 4), 0)),
    ("16816", 8): (16, 2, 1, lambda k, upper: (k // 4, upper, k % 4), lambda k: (k // 4, 0, k % 4)),
    ("16832", 8): (32, 4, 2, lambda k, upper: ((k % 16) // 4, upper + 2 * (k >= 16), k % 4),
                   lambda k: ((k % 16) // 4, int(k >= 16), k % 4)),
}


def _element(ctx: Lifter, word: ir.Value, index: int, kind: str) -> ir.Value:
    if kind in ("F16", "BF16"):
        return _half(ctx, word, index, kind)
    if kind == "TF32":
        return _tf32(ctx, word)
    return _byte(ctx, word, index, kind == "S8")


def _products(ctx: Lifter, ins, shape: str, kinds: tuple[str, str], a, bb) -> list[list[ir.Value]]:
    """Per output c_i of this lane, the K products A[row][k] * B[k][col] (doubles, or i32)."""
    bits = {"F16": 16, "BF16": 16, "TF32": 32, "S8": 8, "U8": 8}[kinds[0]]
    if (shape, bits) not in SHAPES:
        raise unsupported(ins, "matrix shape or type")
    k_size, a_count, b_count, a_at, b_at = SHAPES[(shape, bits)]
    b = ctx.b
    g, t = _lane_parts(ctx)
    rows = _gather(ctx, b.shl(g, ir.Constant(I32, 2)), _regs(ctx, ins, a, a_count))
    b_words = _regs(ctx, ins, bb, b_count)
    first = b.shl(t, ir.Constant(I32, 3))                    # lane 4 * (2t) of column 2t
    cols = [_gather(ctx, b.add(first, ir.Constant(I32, 4 * j)), b_words) for j in range(2)]
    mul = b.mul if bits == 8 else b.fmul
    out = []
    for i in range(4):
        terms = []
        for k in range(k_size):
            lane, reg, sub = a_at(k, int(i >= 2))
            x = _element(ctx, rows[lane][reg], sub, kinds[0])
            lane, reg, sub = b_at(k)
            terms.append(mul(x, _element(ctx, cols[i & 1][lane][reg], sub, kinds[1])))
        out.append(terms)
    return out


def _sum(ctx: Lifter, start: ir.Value, terms: list[ir.Value]) -> ir.Value:
    total = start
    for term in terms:
        total = ctx.b.add(total, term) if term.type == I32 else ctx.b.fadd(total, term)
    return total


def _shape(ins) -> str:
    shapes = [m for m in ins.modifiers if m.isdigit()]
    if len(shapes) != 1:
        raise unsupported(ins, "matrix shape")
    return shapes[0]


@handles("HMMA", kind="pure")
def hmma(ctx: Lifter, ins) -> None:
    """HMMA.{16816,1688}.{F32,F16}[.BF16] and HMMA.{1684,1688}.F32.TF32: D, A, B, C."""
    mods = set(ins.modifiers)
    shape = _shape(ins)
    inputs = (mods & {"BF16", "TF32"} or {"F16"}).pop()
    if mods - {shape, "F32", "F16", "BF16", "TF32"} or len(mods & {"BF16", "TF32"}) > 1 or \
            len(mods & {"F32", "F16"}) != 1 or ("F16" in mods and inputs != "F16"):
        raise unsupported(ins, "matrix shape or type")
    d, a, bb, c = ctx.operands(ins, 4)
    b = ctx.b
    products = _products(ctx, ins, shape, (inputs, inputs), a, bb)
    if "F32" in mods:
        acc = [b.fpext(b.bitcast(w, F32), F64) for w in _regs(ctx, ins, c, 4)]
        ctx.set_regs(d, [b.bitcast(b.fptrunc(_sum(ctx, acc[i], products[i]), F32), I32) for i in range(4)])
        return
    from .rounding import to_f16_bits
    acc = [_half(ctx, w, h, "F16") for w in _regs(ctx, ins, c, 2) for h in (0, 1)]
    halves = [to_f16_bits(ctx, _sum(ctx, acc[i], products[i])) for i in range(4)]
    ctx.set_regs(d, [b.or_(halves[0], b.shl(halves[1], ir.Constant(I32, 16))),
                     b.or_(halves[2], b.shl(halves[3], ir.Constant(I32, 16)))])


@handles("IMMA", kind="pure")
def imma(ctx: Lifter, ins) -> None:
    """IMMA.{16816,16832}.{S8,U8}.{S8,U8}[.SAT] D, A.ROW, B.COL, C: 8-bit integers, s32
    accumulators; sums wrap in 32 bits, or with .SAT (mma's .satfinite) the exact sum is clamped
    to the s32 range."""
    shape = _shape(ins)
    types = [m for m in ins.modifiers if m in ("S8", "U8")]
    if set(ins.modifiers) - {shape, "S8", "U8", "SAT"} or len(types) != 2:
        raise unsupported(ins, "matrix shape or type")
    d, a, bb, c = ctx.operands(ins, 4)
    b = ctx.b
    products = _products(ctx, ins, shape, (types[0], types[1]), a, bb)
    if "SAT" not in ins.modifiers:
        ctx.set_regs(d, [_sum(ctx, w, products[i]) for i, w in enumerate(_regs(ctx, ins, c, 4))])
        return
    i64 = ir.IntType(64)
    low, high = ir.Constant(i64, -2**31), ir.Constant(i64, 2**31 - 1)
    out = []
    for i, w in enumerate(_regs(ctx, ins, c, 4)):
        total = b.sext(w, i64)
        for term in products[i]:               # each product fits 17 bits: the sum is exact in i64
            total = b.add(total, b.sext(term, i64))
        total = b.select(b.icmp_signed("<", total, low), low, b.select(b.icmp_signed(">", total, high), high, total))
        out.append(b.trunc(total, I32))
    ctx.set_regs(d, out)


@handles("DMMA", kind="pure")
def dmma(ctx: Lifter, ins) -> None:
    """DMMA.884 (sm_90 writes DMMA.8x8x4) D, A, B, C: m8n8k4 in double. Lane l holds A[l/4][l%4]
    and B[l%4][l/4]; its outputs are row l/4, columns 2 (l%4) and 2 (l%4) + 1. Each output is C
    followed by the four products, fused one after another in k order."""
    if set(ins.modifiers) not in ({"884"}, {"8x8x4"}):
        raise unsupported(ins, "matrix shape or type")
    d, a, bb, c = ctx.operands(ins, 4)
    b = ctx.b
    g, t = _lane_parts(ctx)
    a_lo, a_hi = _regs(ctx, ins, a, 2)
    b_lo, b_hi = _regs(ctx, ins, bb, 2)
    acc = _regs(ctx, ins, c, 4)
    fma = ctx.intrinsic("llvm.fma.f64", F64, [F64, F64, F64])
    words = []
    for i in range(2):
        total = b.bitcast(ctx.join64(acc[2 * i], acc[2 * i + 1]), F64)
        column = b.add(b.shl(t, ir.Constant(I32, 1)), ir.Constant(I32, i))
        for k in range(4):
            a_lane = b.add(b.shl(g, ir.Constant(I32, 2)), ir.Constant(I32, k))
            b_lane = b.add(b.shl(column, ir.Constant(I32, 2)), ir.Constant(I32, k))
            x = ctx.join64(fetch(ctx, a_lane, a_lo), fetch(ctx, a_lane, a_hi))
            y = ctx.join64(fetch(ctx, b_lane, b_lo), fetch(ctx, b_lane, b_hi))
            total = b.call(fma, [b.bitcast(x, F64), b.bitcast(y, F64), total])
        words.extend(ctx.split64(b.bitcast(total, ir.IntType(64))))
    ctx.set_regs(d, words)


@handles("LDSM", kind="effect")
def ldsm(ctx: Lifter, ins) -> None:
    """LDSM.16.M88[.2|.4] D, [a] (ldmatrix .b16 .x1/.x2/.x4): lanes 8m .. 8m + 7 give the row addresses of
    matrix m; lane L receives row L / 4, elements 2 (L % 4) and 2 (L % 4) + 1 of each matrix in
    D + m. .MT88 (.trans) gives it column L / 4, rows 2 (L % 4) and 2 (L % 4) + 1 instead."""
    from .memory import index32
    counts = {"1": 1, "2": 2, "4": 4}
    mods = set(ins.modifiers)
    count = [counts[m] for m in mods if m in counts] or [1]
    if len(count) != 1 or not ({"16", "M88"} <= mods or {"16", "MT88"} <= mods) or mods - {"16", "M88", "MT88", *counts}:
        raise unsupported(ins, "matrix load form")
    d, mem = ctx.operands(ins, 2)
    if not isinstance(mem, Mem):
        raise unsupported(ins, "memory operand")
    b = ctx.b
    address = index32(ctx, mem)
    g, t = _lane_parts(ctx)
    words = []
    for m in range(count[0]):
        first = ir.Constant(I32, 8 * m)
        if "M88" in mods:
            row = fetch(ctx, b.add(first, g), address)
            offset = b.add(row, b.shl(t, ir.Constant(I32, 2)))
            words.append(b.load(lds_pointer(ctx, offset), typ=I32, align=4))
            continue
        parts = []
        for j in range(2):
            row = fetch(ctx, b.add(first, b.add(b.shl(t, ir.Constant(I32, 1)), ir.Constant(I32, j))), address)
            offset = b.add(row, b.shl(g, ir.Constant(I32, 1)))
            parts.append(b.zext(b.load(lds_pointer(ctx, offset), typ=I16, align=2), I32))
        words.append(b.or_(parts[0], b.shl(parts[1], ir.Constant(I32, 16))))
    ctx.set_regs(d, words)


@handles("MOVM", kind="pure")
def movm(ctx: Lifter, ins) -> None:
    """MOVM.16.MT88 d, a (movmatrix.m8n8.trans.b16): the 8x8 matrix of 16-bit elements the warp
    holds in ldmatrix's layout (lane L: row L / 4, elements 2 (L % 4) and 2 (L % 4) + 1),
    transposed: lane L receives M[2 (L % 4)][L / 4] and M[2 (L % 4) + 1][L / 4]."""
    if set(ins.modifiers) != {"16", "MT88"}:
        raise unsupported(ins, "matrix move form")
    d, a = ctx.operands(ins, 2)
    b = ctx.b
    word = _regs(ctx, ins, a, 1)[0]
    g, t = _lane_parts(ctx)
    column_pair = b.lshr(g, ir.Constant(I32, 1))            # the lane of row r holding column g
    shift = b.shl(b.and_(g, ir.Constant(I32, 1)), ir.Constant(I32, 4))
    halves = []
    for j in range(2):
        row = b.add(b.shl(t, ir.Constant(I32, 1)), ir.Constant(I32, j))
        held = fetch(ctx, b.add(b.shl(row, ir.Constant(I32, 2)), column_pair), word)
        halves.append(b.and_(b.lshr(held, shift), ir.Constant(I32, 0xFFFF)))
    ctx.set32(d, b.or_(halves[0], b.shl(halves[1], ir.Constant(I32, 16))))
