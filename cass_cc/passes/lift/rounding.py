"""Rounding and flush-to-zero, done with integer-correct expansions (the default FP environment is
never changed, so ordinary code around these stays as fast and as movable as LLVM likes).

Directed rounding of an f32 result: the exact result is an unevaluated sum hi + lo of doubles (an
f32 product is exact in double; sums use TwoSum), hi is rounded to nearest f32 r, and r steps one
ulp towards the requested direction when the exact value lies on the wrong side of r. That side is
the sign of (hi - r) + lo: hi - r is exact (Sterbenz), and when non-zero it dominates lo.
Directed rounding of an f64 sum uses TwoSum's exact error; of a product or fma, the sign of its error from
Boldo and Muller's ErrFma (scaled out of the subnormal range where its terms would underflow).
.FTZ flushes f32 denormal inputs and outputs to a zero of the same sign.
"""

from __future__ import annotations

from llvmlite import ir

from .core import F16, F32, F64, I32, I64, Lifter

MODES = ("RN", "RZ", "RM", "RP")


def mode_of(ins) -> str:
    found = [m for m in ins.modifiers if m in MODES]
    return found[0] if found else "RN"


def flush32(ctx: Lifter, v: ir.Value) -> ir.Value:
    b = ctx.b
    bits = b.bitcast(v, I32)
    denormal = b.icmp_unsigned("==", b.and_(bits, ir.Constant(I32, 0x7F800000)), ir.Constant(I32, 0))
    return b.bitcast(b.select(denormal, b.and_(bits, ir.Constant(I32, 0x80000000)), bits), F32)


def two_sum(ctx: Lifter, x: ir.Value, y: ir.Value) -> tuple[ir.Value, ir.Value]:
    b = ctx.b
    s = b.fadd(x, y)
    yy = b.fsub(s, x)
    err = b.fadd(b.fsub(x, b.fsub(s, yy)), b.fsub(y, yy))
    return s, err


def _step(ctx: Lifter, r: ir.Value, up: bool) -> ir.Value:
    """The next representable value above (up) or below r (same width as r, r not NaN)."""
    b = ctx.b
    ity = ir.IntType({F16: 16, F32: 32, F64: 64}[r.type])
    bits = b.bitcast(r, ity)
    zero = ir.Constant(ity, 0)
    sign = ir.Constant(ity, 1 << (ity.width - 1))
    magnitude = b.and_(bits, b.not_(sign))
    is_zero = b.icmp_unsigned("==", magnitude, zero)
    negative = b.icmp_unsigned("!=", b.and_(bits, sign), zero)
    away = b.xor(negative, ir.Constant(ir.IntType(1), 1 if up else 0))   # grows in magnitude
    stepped = b.select(away, b.add(bits, ir.Constant(ity, 1)), b.sub(bits, ir.Constant(ity, 1)))
    tiny = ir.Constant(ity, 1 if up else (1 | (1 << (ity.width - 1))))
    return b.bitcast(b.select(is_zero, tiny, stepped), r.type)


def _direct(ctx: Lifter, r: ir.Value, above: ir.Value, below: ir.Value, mode: str) -> ir.Value:
    """Step r when the exact value is above/below it and the mode rounds that way."""
    b = ctx.b
    if mode == "RN":
        return r
    if mode == "RP":
        return b.select(above, _step(ctx, r, True), r)
    if mode == "RM":
        return b.select(below, _step(ctx, r, False), r)
    positive = b.fcmp_ordered(">", r, ir.Constant(r.type, 0.0))
    negative = b.fcmp_ordered("<", r, ir.Constant(r.type, 0.0))
    r = b.select(b.and_(positive, below), _step(ctx, r, False), r)
    return b.select(b.and_(negative, above), _step(ctx, r, True), r)


def round_to_f32(ctx: Lifter, hi: ir.Value, lo: ir.Value, mode: str) -> ir.Value:
    """The f32 nearest to (hi + lo) in `mode` (hi, lo doubles, |lo| <= ulp(hi)/2)."""
    b = ctx.b
    r = b.fptrunc(hi, F32)
    if mode == "RN":
        return r
    t = b.fsub(hi, b.fpext(r, F64))
    zero = ir.Constant(F64, 0.0)
    t_zero = b.fcmp_ordered("==", t, zero)
    above = b.or_(b.fcmp_ordered(">", t, zero), b.and_(t_zero, b.fcmp_ordered(">", lo, zero)))
    below = b.or_(b.fcmp_ordered("<", t, zero), b.and_(t_zero, b.fcmp_ordered("<", lo, zero)))
    return _direct(ctx, r, above, below, mode)


def round_to_f16(ctx: Lifter, x: ir.Value, mode: str) -> ir.Value:
    """The f16 nearest to x (an f32, or an f64) in `mode`. x minus its nearest f16 is exact in x's
    type, so its sign says on which side x lies (-inf past the largest f16: the step goes back)."""
    b = ctx.b
    r = b.fptrunc(x, F16)
    if mode == "RN":
        return r
    t = b.fsub(x, b.fpext(r, x.type))
    zero = ir.Constant(x.type, 0.0)
    return _direct(ctx, r, b.fcmp_ordered(">", t, zero), b.fcmp_ordered("<", t, zero), mode)


def round_f64(ctx: Lifter, r: ir.Value, err: ir.Value, mode: str, inputs: list[ir.Value]) -> ir.Value:
    """Adjust the nearest double r whose exact value is r + err. An infinite r from finite
    inputs is an overflow: the exact value lies on the zero side of it."""
    b = ctx.b
    zero = ir.Constant(F64, 0.0)
    inf = ir.Constant(F64, float("inf"))
    finite = ir.Constant(ir.IntType(1), 1)
    for v in inputs:
        finite = b.and_(finite, b.fcmp_ordered("<", ctx.call("llvm.fabs.f64", F64, [v]), inf))
    overflow = b.and_(finite, b.fcmp_ordered("==", ctx.call("llvm.fabs.f64", F64, [r]), inf))
    above = b.or_(b.fcmp_ordered(">", err, zero), b.and_(overflow, b.fcmp_ordered("<", r, zero)))
    below = b.or_(b.fcmp_ordered("<", err, zero), b.and_(overflow, b.fcmp_ordered(">", r, zero)))
    return _direct(ctx, r, above, below, mode)


def fma_error(ctx: Lifter, a: ir.Value, x: ir.Value, y: ir.Value, r1: ir.Value) -> ir.Value:
    """A double with the sign of a*x + y - r1 (r1 = fma(a, x, y) rounded to nearest), from
    Boldo & Muller's ErrFma ("Exact and approximated error of the FMA", IEEE TC 2011), which
    gives a*x + y = r1 + r2 + r3 exactly, |r3| <= ulp(r2)/2, barring underflow and overflow."""
    b = ctx.b
    u1 = b.fmul(a, x)
    u2 = ctx.call("llvm.fma.f64", F64, [a, x, b.fneg(u1)])
    alpha1, z = two_sum(ctx, y, u2)
    beta1, beta2 = two_sum(ctx, u1, alpha1)
    gamma = b.fadd(b.fsub(beta1, r1), beta2)
    r2 = b.fadd(gamma, z)
    r3 = b.fsub(z, b.fsub(r2, gamma))
    return b.select(b.fcmp_ordered("!=", r2, ir.Constant(F64, 0.0)), r2, r3)


def fma_side(ctx: Lifter, a: ir.Value, x: ir.Value, y: ir.Value, r: ir.Value) -> ir.Value:
    """A double with the sign of the exact a*x + y - r (r its nearest double). Near the subnormal
    range the error terms would underflow, so there the smaller factor and y are scaled by
    2^110 first: the scaled sum r1 + e is exact, and r1 - r*2^110 is exact (Sterbenz) and,
    when non-zero, dominates e."""
    b = ctx.b
    fabs = lambda v: ctx.call("llvm.fabs.f64", F64, [v])
    scale = ir.Constant(F64, 2.0 ** 110)
    tiny = b.and_(b.fcmp_ordered("<", fabs(r), ir.Constant(F64, 2.0 ** -960)),
                  b.fcmp_ordered("<", fabs(y), ir.Constant(F64, 2.0 ** 900)))
    a_small = b.fcmp_ordered("<=", fabs(a), fabs(x))
    small, large = b.select(a_small, a, x), b.select(a_small, x, a)
    small = b.select(tiny, b.fmul(small, scale), small)
    ys = b.select(tiny, b.fmul(y, scale), y)
    rs = b.select(tiny, b.fmul(r, scale), r)
    r1 = ctx.call("llvm.fma.f64", F64, [small, large, ys])
    e = fma_error(ctx, small, large, ys, r1)
    t = b.fsub(r1, rs)
    return b.select(b.fcmp_ordered("!=", t, ir.Constant(F64, 0.0)), t, e)


def round_odd(ctx: Lifter, r: ir.Value, err: ir.Value) -> ir.Value:
    """Round to odd: r (nearest to an exact value r + err) replaced, when inexact and even, by its
    neighbour on err's side. A later rounding to a format at least two bits narrower is then as
    if done once from the exact value."""
    b = ctx.b
    ity = I32 if r.type == F32 else I64
    even = b.icmp_unsigned("==", b.and_(b.bitcast(r, ity), ir.Constant(ity, 1)), ir.Constant(ity, 0))
    zero = ir.Constant(err.type, 0.0)
    inexact = b.fcmp_ordered("!=", err, zero)
    stepped = b.select(b.fcmp_ordered(">", err, zero), _step(ctx, r, True), _step(ctx, r, False))
    return b.select(b.and_(even, inexact), stepped, r)


def bf16_bits(ctx: Lifter, x: ir.Value) -> ir.Value:
    """f32 -> bf16 bits, round to nearest even; NaN stays a (quiet) NaN."""
    b = ctx.b
    bits = b.bitcast(x, I32)
    lsb = b.and_(b.lshr(bits, ir.Constant(I32, 16)), ir.Constant(I32, 1))
    rounded = b.lshr(b.add(bits, b.add(ir.Constant(I32, 0x7FFF), lsb)), ir.Constant(I32, 16))
    nan = b.fcmp_unordered("uno", x, x)
    return b.select(nan, b.or_(b.lshr(bits, ir.Constant(I32, 16)), ir.Constant(I32, 0x40)), rounded)


def bf16_bits_directed(ctx: Lifter, x: ir.Value, mode: str) -> ir.Value:
    """f32 -> bf16 bits rounded towards zero (RZ), -inf (RM) or +inf (RP): the top half of the
    sign-magnitude word, its magnitude one higher when bits were dropped on the rounding side;
    NaN stays a quiet NaN as in bf16_bits."""
    b = ctx.b
    bits = b.bitcast(x, I32)
    top = b.lshr(bits, ir.Constant(I32, 16))
    if mode != "RZ":
        inexact = b.icmp_unsigned("!=", b.and_(bits, ir.Constant(I32, 0xFFFF)), ir.Constant(I32, 0))
        negative = b.icmp_signed("<", bits, ir.Constant(I32, 0))
        away = b.and_(inexact, negative if mode == "RM" else b.not_(negative))
        top = b.add(top, b.zext(away, I32))
    nan = b.fcmp_unordered("uno", x, x)
    return b.select(nan, b.or_(b.lshr(bits, ir.Constant(I32, 16)), ir.Constant(I32, 0x40)), top)


def to_bf16_bits(ctx: Lifter, hi: ir.Value, lo: ir.Value) -> ir.Value:
    """bf16 bits (in an i32) of the exact value hi + lo (doubles), rounded to nearest even, through
    round-to-odd double and float steps so that no double rounding happens."""
    b = ctx.b
    d = round_odd(ctx, hi, lo)
    f = b.fptrunc(d, F32)
    f = round_odd(ctx, f, b.fsub(d, b.fpext(f, F64)))
    return bf16_bits(ctx, f)


def to_f16_bits(ctx: Lifter, d: ir.Value) -> ir.Value:
    """f16 bits (in an i32) of a double rounded once to nearest even: a round-to-odd f32 step first,
    so that the f32 -> f16 rounding is as if done from the double."""
    b = ctx.b
    f = b.fptrunc(d, F32)
    f = round_odd(ctx, f, b.fsub(d, b.fpext(f, F64)))
    return b.zext(b.bitcast(b.fptrunc(f, F16), ir.IntType(16)), I32)
