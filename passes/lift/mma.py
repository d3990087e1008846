"""Warp-level matrix multiply-accumulate (tensor cores, what nvcuda::wmma and mma.sync compile to):
HMMA.16816.F32[.BF16] and HMMA.16816.F16 (m16n8k16, f16 or bf16 inputs), HMMA.1684.F32.TF32
(m16n8k4), IMMA.16816.{S8,U8}.{S8,U8} (m16n8k16, 8-bit integers), and LDSM (ldmatrix: 8x8 tiles of
16-bit elements from shared memory, .MT88 transposed).

gfx1100's own WMMA instructions spread the matrices over the lanes differently, so each lane
computes its fragment of D itself: it gathers the rows of A and the columns of B that its four
outputs need from the lanes holding them (ds_bpermute, the layouts of the PTX ISA's "Matrix
Fragments for mma.m16n8k16/m16n8k4"), and sums the products. Lane = groupID * 4 + threadID_in_group;
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
from .launch import lane_id, lds_pointer

HALF_PAIR = ir.VectorType(F16, 2)


def _lane_fetch(ctx: Lifter, lane: ir.Value, value: ir.Value) -> ir.Value:
    """`value` as the lane numbered `lane` holds it (every lane of the warp takes part)."""
    fn = ctx.intrinsic("llvm.amdgcn.ds.bpermute", I32, [I32, I32], ("convergent",))
    return ctx.b.call(fn, [ctx.b.shl(lane, ir.Constant(I32, 2)), value])


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
    """words[r] as held by lanes base + 0..3: [lane offset][register]."""
    return [[_lane_fetch(ctx, ctx.b.add(base, ir.Constant(I32, t)), w) for w in words] for t in range(4)]


def _columns(ctx: Lifter, t: ir.Value, words: list[ir.Value]) -> list[list[list[ir.Value]]]:
    """B's columns 2t and 2t + 1: the registers of lanes 4n + 0..3 for each column n."""
    b = ctx.b
    first = b.shl(b.shl(t, ir.Constant(I32, 1)), ir.Constant(I32, 2))
    return [_gather(ctx, b.add(first, ir.Constant(I32, 4 * j)), words) for j in range(2)]


def _products_16816_float(ctx: Lifter, kind: str, a_words, b_words):
    """Per output i, the 16 products A[row][k] * B[k][col] (doubles)."""
    g, t = _lane_parts(ctx)
    rows = _gather(ctx, ctx.b.shl(g, ir.Constant(I32, 2)), a_words)     # lanes 4g + t'
    cols = _columns(ctx, t, b_words)
    out = []
    for i in range(4):
        upper, col = i >= 2, i & 1
        terms = []
        for k in range(16):
            src, half = (k % 8) // 2, k & 1
            a = _half(ctx, rows[src][int(upper) + 2 * (k >= 8)], half, kind)
            bv = _half(ctx, cols[col][src][int(k >= 8)], half, kind)
            terms.append(ctx.b.fmul(a, bv))
        out.append(terms)
    return out


def _products_1684_tf32(ctx: Lifter, a_words, b_words):
    g, t = _lane_parts(ctx)
    rows = _gather(ctx, ctx.b.shl(g, ir.Constant(I32, 2)), a_words)
    cols = _columns(ctx, t, b_words)
    return [[ctx.b.fmul(_tf32(ctx, rows[k][int(i >= 2)]), _tf32(ctx, cols[i & 1][k][0])) for k in range(4)]
            for i in range(4)]


def _sum(ctx: Lifter, start: ir.Value, terms: list[ir.Value]) -> ir.Value:
    total = start
    for term in terms:
        total = ctx.b.fadd(total, term)
    return total


@handles("HMMA", kind="pure")
def hmma(ctx: Lifter, ins) -> None:
    """HMMA.16816.F32[.BF16] D, A, B, C / HMMA.16816.F16 / HMMA.1684.F32.TF32."""
    mods = set(ins.modifiers)
    d, a, bb, c = ctx.operands(ins, 4)
    b = ctx.b
    if mods in ({"16816", "F32"}, {"16816", "F32", "BF16"}, {"16816", "F16"}):
        kind = "BF16" if "BF16" in mods else "F16"
        products = _products_16816_float(ctx, kind, _regs(ctx, ins, a, 4), _regs(ctx, ins, bb, 2))
    elif mods == {"1684", "F32", "TF32"}:
        products = _products_1684_tf32(ctx, _regs(ctx, ins, a, 2), _regs(ctx, ins, bb, 1))
    else:
        raise unsupported(ins, "matrix shape or type")
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
    """IMMA.16816.{S8,U8}.{S8,U8} D, A.ROW, B.COL, C: 8-bit integer m16n8k16, s32 accumulators."""
    types = [m for m in ins.modifiers if m in ("S8", "U8")]
    if set(ins.modifiers) - {"16816", "S8", "U8"} or "16816" not in ins.modifiers or len(types) != 2:
        raise unsupported(ins, "matrix shape or type")
    d, a, bb, c = ctx.operands(ins, 4)
    b = ctx.b
    g, t = _lane_parts(ctx)
    rows = _gather(ctx, b.shl(g, ir.Constant(I32, 2)), _regs(ctx, ins, a, 2))
    cols = _columns(ctx, t, _regs(ctx, ins, bb, 1))
    sa, sb = types[0] == "S8", types[1] == "S8"
    out = []
    for i, total in enumerate(_regs(ctx, ins, c, 4)):
        for k in range(16):
            x = _byte(ctx, rows[k // 4][int(i >= 2)], k % 4, sa)
            y = _byte(ctx, cols[i & 1][k // 4][0], k % 4, sb)
            total = b.add(total, b.mul(x, y))
        out.append(total)
    ctx.set_regs(d, out)


@handles("LDSM", kind="effect")
def ldsm(ctx: Lifter, ins) -> None:
    """LDSM.16.M88.{1,2,4} D, [a] (ldmatrix .b16): lanes 8m .. 8m + 7 give the row addresses of
    matrix m; lane L receives row L / 4, elements 2 (L % 4) and 2 (L % 4) + 1 of each matrix in
    D + m. .MT88 (.trans) gives it column L / 4, rows 2 (L % 4) and 2 (L % 4) + 1 instead."""
    from .memory import index32
    counts = {"1": 1, "2": 2, "4": 4}
    mods = set(ins.modifiers)
    count = [counts[m] for m in mods if m in counts]
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
            row = _lane_fetch(ctx, b.add(first, g), address)
            offset = b.add(row, b.shl(t, ir.Constant(I32, 2)))
            words.append(b.load(lds_pointer(ctx, offset), typ=I32, align=4))
            continue
        parts = []
        for j in range(2):
            row = _lane_fetch(ctx, b.add(first, b.add(b.shl(t, ir.Constant(I32, 1)), ir.Constant(I32, j))), address)
            offset = b.add(row, b.shl(g, ir.Constant(I32, 1)))
            parts.append(b.zext(b.load(lds_pointer(ctx, offset), typ=I16, align=2), I32))
        words.append(b.or_(parts[0], b.shl(parts[1], ir.Constant(I32, 16))))
    ctx.set_regs(d, words)
