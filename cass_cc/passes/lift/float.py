"""Single precision: FADD, FMUL (also scaled: .D2/.D4/.D8, .M2/.M4/.M8), FFMA (with .FTZ, .SAT and
.RZ/.RM/.RP via rounding.py), FMNMX,
FSETP, FSET, FSEL, FCHK and MUFU (AMDGPU's hardware approximations of matching precision; TANH,
which AMDGPU lacks, as an expansion of the same accuracy)."""

from __future__ import annotations

from llvmlite import ir

from .core import F32, F64, I1, I32, Lifter, handles, unsupported
from .rounding import MODES, flush32, mode_of, round_to_f32, two_sum

ORDERED = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}
UNORDERED = {"EQU": "==", "NEU": "!=", "LTU": "<", "LEU": "<=", "GTU": ">", "GEU": ">="}
ARITH = {"FTZ", "SAT"} | set(MODES)
# FMUL's result scales: ptxas folds `(a * b) * 0.5f` (or 0.25f, 0.125f, 4.0f, 8.0f) into one FMUL.D2
# (.D4, ...). The H200 rounds the exact scaled product once (probe of 2550 products: denormal
# results, products that overflow before a /2..8 scale come out finite; .FTZ flushes the inputs and
# the result around that one rounding), not the product and then the scaled value as PTX reads.
SCALES = {"D2": 0.5, "D4": 0.25, "D8": 0.125, "M2": 2.0, "M4": 4.0, "M8": 8.0}


def fcompare(ctx: Lifter, ins, op: str, x: ir.Value, y: ir.Value) -> ir.Value:
    b = ctx.b
    if op in ORDERED:
        return b.fcmp_ordered(ORDERED[op], x, y)
    if op in UNORDERED:
        return b.fcmp_unordered(UNORDERED[op], x, y)
    if op == "NUM":
        return b.fcmp_ordered("ord", x, y)
    if op == "NAN":
        return b.fcmp_unordered("uno", x, y)
    if op in ("T", "F"):
        return ir.Constant(I1, op == "T")
    raise unsupported(ins, f"comparison .{op}")


def compare_parts(ctx: Lifter, ins, extra: set[str]) -> tuple[str, str]:
    ops = set(ORDERED) | set(UNORDERED) | {"NUM", "NAN", "T", "F"}
    ctx.check(ins, ops | {"AND", "OR", "XOR"} | extra)
    cmp = [m for m in ins.modifiers if m in ops]
    logic = [m for m in ins.modifiers if m in ("AND", "OR", "XOR")]
    if len(cmp) != 1 or len(logic) != 1:
        raise unsupported(ins, "comparison")
    return cmp[0], logic[0]


def _in(ctx: Lifter, ins, op) -> ir.Value:
    v = ctx.f32(op)
    return flush32(ctx, v) if "FTZ" in ins.modifiers else v


def _out(ctx: Lifter, ins, d, v: ir.Value) -> None:
    if "SAT" in ins.modifiers:      # clamp to [0, 1]; NaN -> 0
        b = ctx.b
        v = b.select(b.fcmp_ordered(">", v, ir.Constant(F32, 0.0)), v, ir.Constant(F32, 0.0))
        v = b.select(b.fcmp_ordered("<", v, ir.Constant(F32, 1.0)), v, ir.Constant(F32, 1.0))
    if "FTZ" in ins.modifiers:
        v = flush32(ctx, v)
    ctx.set32(d, v)


@handles("FADD")
def fadd(ctx: Lifter, ins) -> None:
    ctx.check(ins, ARITH)
    d, a, bb = ctx.operands(ins, 3)
    x, y = _in(ctx, ins, a), _in(ctx, ins, bb)
    mode = mode_of(ins)
    if mode == "RN":
        v = ctx.b.fadd(x, y)
    else:
        hi, lo = two_sum(ctx, ctx.b.fpext(x, F64), ctx.b.fpext(y, F64))
        v = round_to_f32(ctx, hi, lo, mode)
    _out(ctx, ins, d, v)


@handles("FMUL")
def fmul(ctx: Lifter, ins) -> None:
    ctx.check(ins, ARITH | set(SCALES))
    d, a, bb = ctx.operands(ins, 3)
    x, y = _in(ctx, ins, a), _in(ctx, ins, bb)
    mode = mode_of(ins)
    scales = [SCALES[m] for m in ins.modifiers if m in SCALES]
    if scales and mode != "RN":         # ptxas keeps such products apart (FMUL.RZ, then FMUL)
        raise unsupported(ins, f"a scaled product rounded .{mode}")
    if len(scales) > 1:
        raise unsupported(ins, "two result scales")
    b = ctx.b
    if scales:                          # exact in double: 48 product bits, far from its range limits
        exact = b.fmul(b.fmul(b.fpext(x, F64), b.fpext(y, F64)), ir.Constant(F64, scales[0]))
        v = b.fptrunc(exact, F32)       # a NaN comes out as the H200's canonical 0x7fffffff
        v = b.select(b.fcmp_unordered("uno", v, v), b.bitcast(ir.Constant(I32, 0x7FFFFFFF), F32), v)
    elif mode == "RN":
        v = b.fmul(x, y)
    else:                               # an f32 product is exact in double
        v = round_to_f32(ctx, b.fmul(b.fpext(x, F64), b.fpext(y, F64)), ir.Constant(F64, 0.0), mode)
    _out(ctx, ins, d, v)


@handles("FFMA")
def ffma(ctx: Lifter, ins) -> None:
    ctx.check(ins, ARITH)
    d, a, bb, c = ctx.operands(ins, 4)
    x, y, z = _in(ctx, ins, a), _in(ctx, ins, bb), _in(ctx, ins, c)
    mode = mode_of(ins)
    if mode == "RN":
        v = ctx.call("llvm.fma.f32", F32, [x, y, z])
    else:
        b = ctx.b
        product = b.fmul(b.fpext(x, F64), b.fpext(y, F64))
        hi, lo = two_sum(ctx, product, b.fpext(z, F64))
        v = round_to_f32(ctx, hi, lo, mode)
    _out(ctx, ins, d, v)


@handles("FMNMX")
def fmnmx(ctx: Lifter, ins) -> None:
    """FMNMX[.NAN] d, a, b, P: min when P, max when !P; a NaN operand yields the other (minnum),
    or with .NAN (PTX min/max.NaN) the canonical NaN 0x7fffffff."""
    ctx.check(ins, {"FTZ", "NAN"})
    d, a, bb, p = ctx.operands(ins, 4)
    x, y = _in(ctx, ins, a), _in(ctx, ins, bb)
    lo = ctx.call("llvm.minnum.f32", F32, [x, y])
    hi = ctx.call("llvm.maxnum.f32", F32, [x, y])
    v = ctx.b.select(ctx.pred(p), lo, hi)
    if "NAN" in ins.modifiers:
        v = ctx.b.select(ctx.b.fcmp_unordered("uno", x, y), ctx.b.bitcast(ir.Constant(I32, 0x7FFFFFFF), F32), v)
    _out(ctx, ins, d, v)


@handles("FSETP")
def fsetp(ctx: Lifter, ins) -> None:
    op, logic = compare_parts(ctx, ins, {"FTZ"})
    p, q, a, bb, c = ctx.operands(ins, 5)
    r = fcompare(ctx, ins, op, _in(ctx, ins, a), _in(ctx, ins, bb))
    other = ctx.pred(c)
    ctx.setp(p, ctx.combine(ins, r, logic, other))
    ctx.setp(q, ctx.combine(ins, ctx.b.not_(r), logic, other))


@handles("FSET")
def fset(ctx: Lifter, ins) -> None:
    """FSET[.BF].op.logic d, a, b, c: d = 1.0f (.BF) or 0xffffffff when true, else 0."""
    op, logic = compare_parts(ctx, ins, {"FTZ", "BF"})
    d, a, bb, c = ctx.operands(ins, 4)
    r = ctx.combine(ins, fcompare(ctx, ins, op, _in(ctx, ins, a), _in(ctx, ins, bb)), logic, ctx.pred(c))
    true = ir.Constant(I32, 0x3F800000 if "BF" in ins.modifiers else 0xFFFFFFFF)
    ctx.set32(d, ctx.b.select(r, true, ir.Constant(I32, 0)))


@handles("FSEL")
def fsel(ctx: Lifter, ins) -> None:
    ctx.check(ins, {"FTZ"})
    d, a, bb, p = ctx.operands(ins, 4)
    ctx.set32(d, ctx.b.select(ctx.pred(p), _in(ctx, ins, a), _in(ctx, ins, bb)))


@handles("FCHK")
def fchk(ctx: Lifter, ins) -> None:
    """FCHK P, a, b: true when a/b needs the full-range slow path. The exact hardware rule is not
    documented; this one is conservative (true at least whenever the fast path could be wrong:
    either operand zero (the fast path loses the sign of 0/-b), tiny, huge, non-finite or
    denormal, or the exponents far apart), and the slow path computes the correctly rounded
    quotient for every input."""
    ctx.check(ins, {"DIVIDE"})
    p, a, bb = ctx.operands(ins, 3)
    b = ctx.b
    k = lambda v: ir.Constant(I32, v)
    ea = b.and_(b.lshr(ctx.u32(a), k(23)), k(0xFF))
    eb = b.and_(b.lshr(ctx.u32(bb), k(23)), k(0xFF))
    b_ok = b.and_(b.icmp_unsigned(">=", eb, k(3)), b.icmp_unsigned("<=", eb, k(252)))
    diff = b.sub(ea, eb)
    a_ok = b.and_(b.and_(b.icmp_unsigned(">=", ea, k(3)), b.icmp_unsigned("<=", ea, k(252))),
                  b.and_(b.icmp_signed(">=", diff, k(-100)), b.icmp_signed("<=", diff, k(100))))
    ctx.setp(p, b.not_(b.and_(b_ok, a_ok)))


MUFU32 = {"RCP": "llvm.amdgcn.rcp.f32", "RSQ": "llvm.amdgcn.rsq.f32", "SQRT": "llvm.amdgcn.sqrt.f32",
          "EX2": "llvm.amdgcn.exp2.f32", "LG2": "llvm.amdgcn.log.f32", "SIN": "llvm.amdgcn.sin.f32",
          "COS": "llvm.amdgcn.cos.f32"}


@handles("MUFU")
def mufu(ctx: Lifter, ins) -> None:
    """MUFU.op d, a. SIN/COS take revolutions on both sides (nvcc multiplies by 1/2pi first).
    RCP64H/RSQ64H approximate from a double's high word: the high word of rcp/rsq of hi:0."""
    ops = set(MUFU32) | {"RCP64H", "RSQ64H", "TANH"}
    ctx.check(ins, ops)
    op = [m for m in ins.modifiers if m in ops]
    if len(op) != 1:
        raise unsupported(ins)
    d, a = ctx.operands(ins, 2)
    b = ctx.b
    if op[0] in ("RCP64H", "RSQ64H"):
        from .core import I64
        hi = ctx.u32(a)
        x = b.bitcast(b.shl(b.zext(hi, I64), ir.Constant(I64, 32)), F64)
        name = "llvm.amdgcn.rcp.f64" if op[0] == "RCP64H" else "llvm.amdgcn.rsq.f64"
        r = b.bitcast(ctx.call(name, F64, [x]), I64)
        ctx.set32(d, ctx.split64(r)[1])
        return
    if op[0] == "TANH":
        ctx.set32(d, tanh_approx(ctx, ctx.f32(a)))
        return
    ctx.set32(d, ctx.call(MUFU32[op[0]], F32, [ctx.f32(a)]))


def tanh_approx(ctx: Lifter, x: ir.Value) -> ir.Value:
    """tanh.approx.f32 (sm_75+; --use_fast_math tanhf), which AMDGPU has no instruction for:
    x(1 - x^2/3 + 2x^4/15) below |x| = 1/8 (so tiny and denormal x come back exact, as on NVIDIA),
    else 1 - 2/(e^2|x| + 1) with the sign of x. The H200 is within 1e-5 relative of tanh (measured);
    this is within 2e-6. NaN gives the canonical NaN, as MUFU does."""
    b = ctx.b
    c = lambda v: ir.Constant(F32, v)
    t = ctx.call("llvm.fabs.f32", F32, [x])
    x2 = b.fmul(x, x)
    small = b.fmul(x, b.fadd(c(1.0), b.fmul(x2, b.fadd(c(-1.0 / 3.0), b.fmul(x2, c(2.0 / 15.0))))))
    e = ctx.call("llvm.amdgcn.exp2.f32", F32, [b.fmul(t, c(2.0 * 1.4426950408889634))])
    large = b.fsub(c(1.0), b.fdiv(c(2.0), b.fadd(e, c(1.0))))
    v = b.select(b.fcmp_ordered("<", t, c(0.125)), small, ctx.call("llvm.copysign.f32", F32, [large, x]))
    return b.select(b.fcmp_unordered("uno", x, x), b.bitcast(ir.Constant(I32, 0x7FFFFFFF), F32), v)
