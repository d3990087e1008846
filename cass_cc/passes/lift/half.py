"""Packed half precision: HADD2, HMUL2, HFMA2 (incl. the .MMA form nvcc uses as a move of a 32-bit
constant), HMNMX2, HSETP2, HSET2 (also on .BF16_V2 pairs), with .H0_H0/.H1_H1 operand swizzles
and .F32 results. A pair of immediates is written high half first (`HFMA2.MMA R5, -RZ, RZ, 1.875, 0`
sets R5 = 0x3f800000)."""

from __future__ import annotations

import dataclasses
import struct

from llvmlite import ir

from .core import F16, F32, F64, I16, I32, ConstRef, Imm, Lifter, Reg, handles, unsupported
from .float import compare_parts, fcompare
from .rounding import two_sum

V2 = ir.VectorType(F16, 2)
V2I16 = ir.VectorType(ir.IntType(16), 2)


def _half_bits(op: Imm, bf16: bool = False) -> int:
    if not op.is_float and (op.text or "").lstrip("+-").lower().startswith("0x"):
        return int(op.value) & 0xFFFF
    v = float(op.value)
    if bf16:            # nvdisasm prints bf16 immediates as their (exact) values
        return struct.unpack("<I", struct.pack("<f", v))[0] >> 16
    return struct.unpack("<H", struct.pack("<e", v))[0]


def sources(ctx: Lifter, ins, ops: list, bf16: bool = False) -> list[ir.Value]:
    """Operands as <2 x half>: registers (with swizzle, -, ||), constant words, immediate pairs."""
    b = ctx.b
    out = []
    ops = list(ops)
    while ops:
        op = ops.pop(0)
        if isinstance(op, Imm):
            if not ops or not isinstance(ops[0], Imm):
                raise unsupported(ins, "half immediate without its pair")
            lo = ops.pop(0)
            word = (_half_bits(op, bf16) << 16) | _half_bits(lo, bf16)
            out.append(b.bitcast(ir.Constant(I32, word), V2))
            continue
        if isinstance(op, Reg):
            v = b.bitcast(ctx.u32(Reg(op.kind, op.index, op.name)), V2)
        elif isinstance(op, ConstRef):
            v = b.bitcast(ctx.u32(ConstRef(op.bank, op.offset, op.reg, op.bank_reg)), V2)
        else:
            raise unsupported(ins, "operand")
        v = _swizzled(ctx, ins, op, v)
        if op.absolute:
            v = ctx.call("llvm.fabs.v2f16", V2, [v])
        if op.negate:
            v = b.fneg(v)
        out.append(v)
    return out


def _swizzled(ctx: Lifter, ins, op, v: ir.Value) -> ir.Value:
    """A register's or a constant word's .H0_H0/.H1_H1/.H1_H0 lane selection (nvcc broadcasts a
    __half kernel parameter with `c[0x0][0x164].H0_H0`: the word's high half is padding)."""
    swz = [s for s in op.suffixes if s in ("H0_H0", "H1_H1", "H1_H0", "H0_H1")]
    if set(op.suffixes) - set(swz) or len(swz) > 1:
        raise unsupported(ins, "operand suffix")
    if not swz or swz[0] == "H0_H1":
        return v
    order = {"H0_H0": (0, 0), "H1_H1": (1, 1), "H1_H0": (1, 0)}[swz[0]]
    return ctx.b.shuffle_vector(v, v, ir.Constant(ir.VectorType(I32, 2), list(order)))


def _lane(ctx: Lifter, v: ir.Value, i: int) -> ir.Value:
    return ctx.b.extract_element(v, ir.Constant(I32, i))


def _write(ctx: Lifter, ins, d, v: ir.Value) -> None:
    """A <2 x half> result, or its low lane widened to f32 for the .F32 forms."""
    b = ctx.b
    if "SAT" in ins.modifiers:
        zero, one = ir.Constant(V2, [0.0, 0.0]), ir.Constant(V2, [1.0, 1.0])
        v = ctx.call("llvm.minnum.v2f16", V2, [ctx.call("llvm.maxnum.v2f16", V2, [v, zero]), one])
    if "F32" in ins.modifiers:
        ctx.set32(d, b.fpext(_lane(ctx, v, 0), F32))
    else:
        ctx.set32(d, b.bitcast(v, I32))


ARITH = {"MMA", "F32", "FTZ", "SAT", "RN", "F16_V2", "BF16_V2"}


def _bf16_floats(ctx: Lifter, ins, ops: list) -> list[list[ir.Value]]:
    """BF16_V2 operands: per source its two lanes as floats (bf16 is the top half of an f32)."""
    vals = sources(ctx, ins, ops, bf16=True)
    b = ctx.b
    out = []
    for v in vals:
        word = b.bitcast(v, I32)
        lanes = [b.shl(word, ir.Constant(I32, 16)), b.and_(word, ir.Constant(I32, 0xFFFF0000))]
        out.append([b.bitcast(x, F32) for x in lanes])
    return out


def _bf16_lanes(ctx: Lifter, ins, ops: list) -> list[list[ir.Value]]:
    """BF16_V2 operands: per source its two lanes as doubles."""
    return [[ctx.b.fpext(x, F64) for x in v] for v in _bf16_floats(ctx, ins, ops)]


def _lanes(ctx: Lifter, ins, ops: list) -> tuple[list[ir.Value], list[ir.Value]]:
    """Two sources as their lanes: halves, or with .BF16_V2 floats (exact)."""
    if "BF16_V2" in ins.modifiers:
        x, y = _bf16_floats(ctx, ins, ops)
        return x, y
    x, y = sources(ctx, ins, ops)
    return [_lane(ctx, x, i) for i in range(2)], [_lane(ctx, y, i) for i in range(2)]


def _bf16_op(ctx: Lifter, ins, d, ops: list, combine) -> None:
    """bf16 x2 arithmetic: the exact result (hi + lo in doubles) rounded once to bf16."""
    if set(ins.modifiers) - {"BF16_V2", "MMA"}:
        raise unsupported(ins, "bf16 modifier")
    from .rounding import to_bf16_bits
    lanes = _bf16_lanes(ctx, ins, ops)
    b = ctx.b
    word = ir.Constant(I32, 0)
    for i in range(2):
        hi, lo = combine([v[i] for v in lanes])
        half = b.and_(to_bf16_bits(ctx, hi, lo), ir.Constant(I32, 0xFFFF))
        word = b.or_(word, b.shl(half, ir.Constant(I32, 16 * i)))
    ctx.set32(d, word)


def _f32_pair(ctx: Lifter, vals: list[ir.Value]) -> list[ir.Value]:
    return [ctx.b.fpext(_lane(ctx, v, 0), F32) for v in vals]


@handles("HADD2")
def hadd2(ctx: Lifter, ins) -> None:
    ctx.check(ins, ARITH)
    d, *rest = ins.operands
    if "BF16_V2" in ins.modifiers:
        _bf16_op(ctx, ins, d, rest, lambda v: two_sum(ctx, v[0], v[1]))
        return
    x, y = sources(ctx, ins, rest)
    if "F32" in ins.modifiers:                 # computed in single precision
        fx, fy = _f32_pair(ctx, [x, y])
        ctx.set32(d, ctx.b.fadd(fx, fy))
        return
    _write(ctx, ins, d, ctx.b.fadd(x, y))


@handles("HMUL2")
def hmul2(ctx: Lifter, ins) -> None:
    ctx.check(ins, ARITH)
    d, *rest = ins.operands
    if "BF16_V2" in ins.modifiers:            # a bf16 product is exact in double
        _bf16_op(ctx, ins, d, rest, lambda v: (ctx.b.fmul(v[0], v[1]), ir.Constant(F64, 0.0)))
        return
    x, y = sources(ctx, ins, rest)
    if "F32" in ins.modifiers:
        fx, fy = _f32_pair(ctx, [x, y])
        ctx.set32(d, ctx.b.fmul(fx, fy))
        return
    _write(ctx, ins, d, ctx.b.fmul(x, y))


def _relu(ctx: Lifter, word: ir.Value, bf16: bool) -> ir.Value:
    """PTX fma.rn.relu on a packed pair: a negative lane (sign bit set, so -0.0 too) becomes +0.0,
    a NaN lane the canonical NaN 0x7fff; applied to the rounded result."""
    b = ctx.b
    infinity = 0x7F80 if bf16 else 0x7C00
    out = ir.Constant(I32, 0)
    for i in range(2):
        lane = b.and_(b.lshr(word, ir.Constant(I32, 16 * i)), ir.Constant(I32, 0xFFFF))
        magnitude = b.and_(lane, ir.Constant(I32, 0x7FFF))
        negative = b.icmp_unsigned(">", lane, ir.Constant(I32, 0x7FFF))
        lane = b.select(negative, ir.Constant(I32, 0), lane)
        lane = b.select(b.icmp_unsigned(">", magnitude, ir.Constant(I32, infinity)), ir.Constant(I32, 0x7FFF), lane)
        out = b.or_(out, b.shl(lane, ir.Constant(I32, 16 * i)))
    return out


@handles("HFMA2")
def hfma2(ctx: Lifter, ins) -> None:
    """HFMA2.RELU (__hfma2_relu) clamps the rounded result (_relu); .F32 and .SAT have no RELU form."""
    ctx.check(ins, ARITH | {"RELU"})
    d, *rest = ins.operands
    relu = "RELU" in ins.modifiers
    if relu and {"F32", "SAT"} & set(ins.modifiers):
        raise unsupported(ins, "RELU with F32 or SAT")
    if "BF16_V2" in ins.modifiers:
        ins_ = dataclasses.replace(ins, modifiers=tuple(m for m in ins.modifiers if m != "RELU")) if relu else ins
        _bf16_op(ctx, ins_, d, rest, lambda v: two_sum(ctx, ctx.b.fmul(v[0], v[1]), v[2]))
        if relu:
            ctx.set32(d, _relu(ctx, ctx.u32(d), bf16=True))
        return
    x, y, z = sources(ctx, ins, rest)
    if relu:
        word = ctx.b.bitcast(ctx.call("llvm.fma.v2f16", V2, [x, y, z]), I32)
        ctx.set32(d, _relu(ctx, word, bf16=False))
        return
    if "F32" in ins.modifiers:
        fx, fy, fz = _f32_pair(ctx, [x, y, z])
        ctx.set32(d, ctx.call("llvm.fma.f32", F32, [fx, fy, fz]))
        return
    _write(ctx, ins, d, ctx.call("llvm.fma.v2f16", V2, [x, y, z]))


@handles("HMNMX2")
def hmnmx2(ctx: Lifter, ins) -> None:
    """HMNMX2[.BF16_V2][.NAN] d, a, b, P: per half min when P, max when !P; a NaN operand yields
    the other, two NaNs (or with .NAN any NaN) the canonical NaN 0x7fff (PTX min/max[.NaN])."""
    ctx.check(ins, {"FTZ", "NAN", "BF16_V2"})
    if "FTZ" in ins.modifiers and "BF16_V2" in ins.modifiers:
        raise unsupported(ins, "bf16 modifier")
    d, *rest, p = ins.operands
    xs, ys = _lanes(ctx, ins, rest)
    b = ctx.b
    word = ir.Constant(I32, 0)
    for i, (x, y) in enumerate(zip(xs, ys)):
        name = "f32" if x.type == F32 else "f16"
        lo = ctx.call(f"llvm.minnum.{name}", x.type, [x, y])
        hi = ctx.call(f"llvm.maxnum.{name}", x.type, [x, y])
        v = b.select(ctx.pred(p), lo, hi)
        bits = b.lshr(b.bitcast(v, I32), ir.Constant(I32, 16)) if x.type == F32 else b.zext(b.bitcast(v, I16), I32)
        nan = (b.fcmp_unordered("uno", x, y) if "NAN" in ins.modifiers
               else b.and_(b.fcmp_unordered("uno", x, x), b.fcmp_unordered("uno", y, y)))
        bits = b.select(nan, ir.Constant(I32, 0x7FFF), bits)
        word = b.or_(word, b.shl(bits, ir.Constant(I32, 16 * i)))
    ctx.set32(d, word)


def _compare_lanes(ctx: Lifter, ins, extra: set[str], ops: list) -> tuple[list[ir.Value], str, ir.Value]:
    """Per-lane comparisons of the sources `ops`, the combining logic and its predicate operand."""
    op, logic = compare_parts(ctx, ins, extra | {"BF16_V2"})
    if "FTZ" in ins.modifiers and "BF16_V2" in ins.modifiers:
        raise unsupported(ins, "bf16 modifier")
    c = ins.operands[-1]
    xs, ys = _lanes(ctx, ins, ops)
    results = [fcompare(ctx, ins, op, x, y) for x, y in zip(xs, ys)]
    return results, logic, ctx.pred(c)


HORIZONTAL = {"H_AND": "and_", "H_OR": "or_"}


@handles("HSETP2")
def hsetp2(ctx: Lifter, ins) -> None:
    """HSETP2[.BF16_V2].op.logic P, Q, a, b, c: P from the low halves, Q from the high halves.
    With .H_AND (.H_OR) the two halves' results, each combined with c first, are joined into one:
    P = low AND (OR) high, Q = its negation, as FSETP's second result is (the bit layout and
    meaning decoded for Maxwell's HSETP2, which sm_80/sm_90 keep). A joined form may leave the
    combining logic unwritten: AND, the one that changes nothing with PT."""
    if set(HORIZONTAL) & set(ins.modifiers) and not {"AND", "OR", "XOR"} & set(ins.modifiers):
        ins = dataclasses.replace(ins, modifiers=ins.modifiers + ("AND",))
    results, logic, other = _compare_lanes(ctx, ins, {"FTZ"} | set(HORIZONTAL), ins.operands[2:-1])
    results = [ctx.combine(ins, r, logic, other) for r in results]
    joins = [m for m in ins.modifiers if m in HORIZONTAL]
    if len(joins) > 1:
        raise unsupported(ins, "two horizontal joins")
    if joins:
        joined = getattr(ctx.b, HORIZONTAL[joins[0]])(*results)
        results = [joined, ctx.b.not_(joined)]
    for r, dest in zip(results, ins.operands[:2]):
        ctx.setp(dest, r)


@handles("HSET2")
def hset2(ctx: Lifter, ins) -> None:
    """HSET2[.BF16_V2][.BF].op.logic d, a, b, c: per half 1.0 (.BF, in the halves' format) or
    0xffff when true, else 0."""
    results, logic, other = _compare_lanes(ctx, ins, {"FTZ", "BF"}, ins.operands[1:-1])
    true = (0x3F80 if "BF16_V2" in ins.modifiers else 0x3C00) if "BF" in ins.modifiers else 0xFFFF
    word = ir.Constant(I32, 0)
    b = ctx.b
    for i, r in enumerate(results):
        r = ctx.combine(ins, r, logic, other)
        word = b.or_(word, b.select(r, ir.Constant(I32, true << (16 * i)), ir.Constant(I32, 0)))
    ctx.set32(ins.operands[0], word)
