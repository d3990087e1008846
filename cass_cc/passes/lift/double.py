"""Double precision: DADD, DMUL, DFMA (directed rounding through the exact error terms of sums,
products and fused multiply-adds: rounding.py), DSETP (incl. the .MAX/.MIN selection form nvcc uses
for fmax/fmin), DMNMX. Registers are pairs: `DADD R4, R2, R6` reads R2:R3 and R6:R7."""

from __future__ import annotations

from llvmlite import ir

from .core import F64, I64, Lifter, handles
from .float import compare_parts, fcompare
from .rounding import MODES, fma_side, mode_of, round_f64, two_sum


@handles("DADD")
def dadd(ctx: Lifter, ins) -> None:
    ctx.check(ins, set(MODES))
    d, a, bb = ctx.operands(ins, 3)
    x, y = ctx.f64(a), ctx.f64(bb)
    s, err = two_sum(ctx, x, y)
    ctx.set64(d, round_f64(ctx, s, err, mode_of(ins), [x, y]))


@handles("DMUL")
def dmul(ctx: Lifter, ins) -> None:
    ctx.check(ins, set(MODES))
    d, a, bb = ctx.operands(ins, 3)
    x, y = ctx.f64(a), ctx.f64(bb)
    p = ctx.b.fmul(x, y)
    mode = mode_of(ins)
    if mode != "RN":
        p = round_f64(ctx, p, fma_side(ctx, x, y, ir.Constant(F64, 0.0), p), mode, [x, y])
    ctx.set64(d, p)


@handles("DFMA")
def dfma(ctx: Lifter, ins) -> None:
    ctx.check(ins, set(MODES))
    d, a, bb, c = ctx.operands(ins, 4)
    x, y, z = ctx.f64(a), ctx.f64(bb), ctx.f64(c)
    r = ctx.call("llvm.fma.f64", F64, [x, y, z])
    mode = mode_of(ins)
    if mode != "RN":
        r = round_f64(ctx, r, fma_side(ctx, x, y, z, r), mode, [x, y, z])
    ctx.set64(d, r)


def _sign(ctx: Lifter, v: ir.Value) -> ir.Value:
    return ctx.b.icmp_signed("<", ctx.b.bitcast(v, I64), ir.Constant(I64, 0))


@handles("DSETP")
def dsetp(ctx: Lifter, ins) -> None:
    """DSETP.op.logic P, Q, a, b, c. DSETP.MAX/.MIN: P = `a is the max/min` (a not NaN, b NaN or a
    wins, +0 beats -0 for max and -0 beats +0 for min), Q = both NaN (the caller quiets b)."""
    if "MAX" in ins.modifiers or "MIN" in ins.modifiers:
        ctx.check(ins, {"MAX", "MIN", "AND"})
        p, q, a, bb, c = ctx.operands(ins, 5)
        b = ctx.b
        x, y = ctx.f64(a), ctx.f64(bb)
        nan_x = b.fcmp_unordered("uno", x, x)
        nan_y = b.fcmp_unordered("uno", y, y)
        is_max = "MAX" in ins.modifiers
        wins = b.fcmp_ordered(">" if is_max else "<", x, y)
        sx, sy = _sign(ctx, x), _sign(ctx, y)
        tie_ok = b.or_(b.not_(sx), sy) if is_max else b.or_(sx, b.not_(sy))
        tie = b.and_(b.fcmp_ordered("==", x, y), tie_ok)
        pick = b.and_(b.not_(nan_x), b.or_(nan_y, b.or_(wins, tie)))
        other = ctx.pred(c)
        ctx.setp(p, b.and_(pick, other))
        ctx.setp(q, b.and_(b.and_(nan_x, nan_y), other))
        return
    op, logic = compare_parts(ctx, ins, set())
    p, q, a, bb, c = ctx.operands(ins, 5)
    r = fcompare(ctx, ins, op, ctx.f64(a), ctx.f64(bb))
    other = ctx.pred(c)
    ctx.setp(p, ctx.combine(ins, r, logic, other))
    ctx.setp(q, ctx.combine(ins, ctx.b.not_(r), logic, other))


@handles("DMNMX")
def dmnmx(ctx: Lifter, ins) -> None:
    ctx.check(ins, set())
    d, a, bb, p = ctx.operands(ins, 4)
    x, y = ctx.f64(a), ctx.f64(bb)
    lo = ctx.call("llvm.minnum.f64", F64, [x, y])
    hi = ctx.call("llvm.maxnum.f64", F64, [x, y])
    ctx.set64(d, ctx.b.select(ctx.pred(p), lo, hi))



