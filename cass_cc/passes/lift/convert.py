"""Conversions: I2F/I2FP, F2I, F2F, I2I, FRND and F2FP packing, with CUDA's semantics: float ->
integer saturates and maps NaN to 0 (llvm.fpto[su]i.sat); rounding modifiers are honoured through
rounding.py's integer-correct expansions."""

from __future__ import annotations

from llvmlite import ir

from .core import F16, F32, F64, I16, I32, I64, ConstRef, Lifter, Reg, handles, unsupported
from .rounding import bf16_bits, bf16_bits_directed, flush32, round_f64, round_to_f16, round_to_f32, two_sum

INT_TYPES = {"S8": (8, True), "U8": (8, False), "S16": (16, True), "U16": (16, False),
             "S32": (32, True), "U32": (32, False), "S64": (64, True), "U64": (64, False)}
FLOAT_TYPES = {"F16": F16, "F32": F32, "F64": F64}
ROUND = {"RN", "RZ", "RM", "RP"}
TO_INT = {"TRUNC": "llvm.trunc", "FLOOR": "llvm.floor", "CEIL": "llvm.ceil", "RNI": "llvm.rint",
          "RN": "llvm.rint", "RZ": "llvm.trunc", "RM": "llvm.floor", "RP": "llvm.ceil"}


def _sfx(ty: ir.Type) -> str:
    return {F16: "f16", F32: "f32", F64: "f64"}[ty]


def read_int(ctx: Lifter, op, bits: int, signed: bool) -> ir.Value:
    if bits == 64:
        return ctx.u64(op)
    v = ctx.u32(op)
    if bits < 32:
        v = ctx.b.trunc(v, ir.IntType(bits))
        v = (ctx.b.sext if signed else ctx.b.zext)(v, I32)
    return v


def read_float(ctx: Lifter, op, ty: ir.Type, ftz: bool) -> ir.Value:
    if ty == F64:
        return ctx.f64(op)
    if ty == F32:
        v = ctx.f32(op)
        return flush32(ctx, v) if ftz else v
    # a half is the low (.H0) or high (.H1) 16 bits of a register or a constant word; its -/|x| are
    # float modifiers, so the word is read plain (ctx.u32 would apply them as integer ones)
    if isinstance(op, (Reg, ConstRef)):
        if set(op.suffixes) - {"H0", "H1"} or len(op.suffixes) > 1:
            raise ctx.refuse(f"half operand suffix {'.'.join(op.suffixes)}")
        plain = Reg(op.kind, op.index, op.name) if isinstance(op, Reg) else \
            ConstRef(op.bank, op.offset, op.reg, op.bank_reg)
        half = ctx.u32(plain)
        if "H1" in op.suffixes:
            half = ctx.b.lshr(half, ir.Constant(I32, 16))
    else:
        half = ctx.u32(op)
    v = ctx.b.bitcast(ctx.b.trunc(half, I16), F16)
    if isinstance(op, (Reg, ConstRef)):
        v = ctx.float_mods(v, op.negate, op.absolute)
    return v


def write_float(ctx: Lifter, d, v: ir.Value) -> None:
    if v.type == F64:
        ctx.set64(d, v)
    elif v.type == F32:
        ctx.set32(d, v)
    else:
        ctx.set32(d, ctx.b.zext(ctx.b.bitcast(v, I16), I32))


def _types(ctx: Lifter, ins, default_dst: str, default_src: str, allowed_extra: set[str]):
    ctx.check(ins, set(INT_TYPES) | set(FLOAT_TYPES) | allowed_extra)
    named = [m for m in ins.modifiers if m in INT_TYPES or m in FLOAT_TYPES]
    if len(named) == 2:
        return named[0], named[1]
    if len(named) == 1:
        is_dst = (named[0] in FLOAT_TYPES) == (default_dst in FLOAT_TYPES)
        return (named[0], default_src) if is_dst else (default_dst, named[0])
    return default_dst, default_src


@handles("I2F", "I2FP")
def i2f(ctx: Lifter, ins) -> None:
    dst, src = _types(ctx, ins, "F32", "S32", ROUND)
    if dst not in FLOAT_TYPES or src not in INT_TYPES:
        raise unsupported(ins, "conversion types")
    mode = next((m for m in ins.modifiers if m in ROUND), "RN")
    bits, signed = INT_TYPES[src]
    d, a = ctx.operands(ins, 2)
    x = read_int(ctx, a, bits, signed)
    b = ctx.b
    to = b.sitofp if signed else b.uitofp
    ty = FLOAT_TYPES[dst]
    if mode == "RN" or (bits <= 32 and ty == F64):
        v = b.fptrunc(to(x, F32), F16) if ty == F16 else to(x, ty)
    elif ty == F16:
        if bits > 32:       # a 64-bit integer is not exact in double: no single rounding from there
            raise unsupported(ins, "directed rounding of a 64-bit integer to f16")
        v = round_to_f16(ctx, to(x, F64), mode)
    else:
        if bits <= 32:
            hi, lo = to(x, F64), ir.Constant(F64, 0.0)
        else:                                   # x = high * 2^32 + low, both exact in double
            high = b.ashr(x, ir.Constant(I64, 32)) if signed else b.lshr(x, ir.Constant(I64, 32))
            high = b.fmul((b.sitofp if signed else b.uitofp)(high, F64), ir.Constant(F64, 4294967296.0))
            low = b.uitofp(b.and_(x, ir.Constant(I64, 0xFFFFFFFF)), F64)
            hi, lo = two_sum(ctx, high, low)
        v = round_to_f32(ctx, hi, lo, mode) if ty == F32 else round_f64(ctx, hi, lo, mode, [])
    write_float(ctx, d, v)


@handles("F2I", "F2IP")
def f2i(ctx: Lifter, ins) -> None:
    dst, src = _types(ctx, ins, "S32", "F32", {"FTZ", "NTZ"} | set(TO_INT))
    if dst not in INT_TYPES or src not in FLOAT_TYPES:
        raise unsupported(ins, "conversion types")
    d, a = ctx.operands(ins, 2)
    ty = FLOAT_TYPES[src]
    x = read_float(ctx, a, ty, "FTZ" in ins.modifiers)
    mode = next((m for m in ins.modifiers if m in TO_INT), "RNI")
    x = ctx.call(f"{TO_INT[mode]}.{_sfx(ty)}", ty, [x])
    bits, signed = INT_TYPES[dst]
    ity = ir.IntType(bits)
    name = f"llvm.fpto{'s' if signed else 'u'}i.sat.i{bits}.{_sfx(ty)}"
    v = ctx.call(name, ity, [x])
    if bits == 64:
        ctx.set64(d, v)
    else:
        ctx.set32(d, v if bits == 32 else (ctx.b.sext if signed else ctx.b.zext)(v, I32))


@handles("F2F")
def f2f(ctx: Lifter, ins) -> None:
    if "BF16" in ins.modifiers:          # F2F.BF16.F32[.RZ/.RM/.RP]: to bf16 (low half of d)
        ctx.check(ins, {"BF16", "F32"} | ROUND)
        d, a = ctx.operands(ins, 2)
        mode = next((m for m in ins.modifiers if m in ROUND), "RN")
        x = ctx.f32(a)
        word = bf16_bits(ctx, x) if mode == "RN" else bf16_bits_directed(ctx, x, mode)
        ctx.set32(d, ctx.b.and_(word, ir.Constant(I32, 0xFFFF)))
        return
    dst, src = _types(ctx, ins, "F32", "F32", ROUND | {"FTZ", "SAT"} | set(TO_INT))
    if dst not in FLOAT_TYPES or src not in FLOAT_TYPES:
        raise unsupported(ins, "conversion types")
    if "SAT" in ins.modifiers:
        raise unsupported(ins, "saturation")
    d, a = ctx.operands(ins, 2)
    sty, dty = FLOAT_TYPES[src], FLOAT_TYPES[dst]
    b = ctx.b
    x = read_float(ctx, a, sty, "FTZ" in ins.modifiers)
    integral = [m for m in ins.modifiers if m in TO_INT and m not in ROUND]
    mode = next((m for m in ins.modifiers if m in ROUND), "RN")
    if integral or (sty == dty and mode != "RN"):
        if sty != dty:
            raise unsupported(ins, "rounding to an integral value across types")
        v = ctx.call(f"{TO_INT[(integral or [mode])[0]]}.{_sfx(sty)}", sty, [x])
    elif sty == dty:
        v = x
    elif (sty, dty) in ((F32, F64), (F16, F32), (F16, F64)):
        v = b.fpext(x, dty)
    elif mode == "RN":
        v = b.fptrunc(x, dty)
    elif sty == F64 and dty == F32:
        v = round_to_f32(ctx, x, ir.Constant(F64, 0.0), mode)
    else:
        v = round_to_f16(ctx, x, mode)
    if dty == F32 and "FTZ" in ins.modifiers:
        v = flush32(ctx, v)
    write_float(ctx, d, v)


@handles("FRND")
def frnd(ctx: Lifter, ins) -> None:
    """FRND[.F64|.F16][.FLOOR|.CEIL|.TRUNC]: round to an integral value (to nearest even by default).
    .F16/.BF16 (hfloor, hceil, htrunc, hrint) round the half in the low 16 bits (.H1: the high ones);
    the result is the low half (nvcc reads it as .H0_H0 or packs it with PRMT 0x5410), the high
    half is written as zero."""
    ctx.check(ins, {"F64", "F32", "F16", "BF16", "FTZ", "FLOOR", "CEIL", "TRUNC", "RN", "RZ", "RM", "RP", "RNI"})
    d, a = ctx.operands(ins, 2)
    mode = next((m for m in ins.modifiers if m in TO_INT), "RNI")
    if "F16" in ins.modifiers or "BF16" in ins.modifiers:
        if "FTZ" in ins.modifiers or not isinstance(a, Reg) or set(a.suffixes) - {"H0", "H1"} \
                or len(a.suffixes) > 1 or a.negate or a.absolute:
            raise unsupported(ins, "half operand form")
        b = ctx.b
        word = ctx.u32(Reg(a.kind, a.index, a.name), ("H0", "H1"))
        if "H1" in a.suffixes:
            word = b.lshr(word, ir.Constant(I32, 16))
        if "BF16" in ins.modifiers:     # widened to f32 exactly; an integral bf16 value is exact in bf16
            x = b.bitcast(b.shl(b.and_(word, ir.Constant(I32, 0xFFFF)), ir.Constant(I32, 16)), F32)
            r = b.bitcast(ctx.call(f"{TO_INT[mode]}.f32", F32, [x]), I32)
            ctx.set32(d, b.lshr(r, ir.Constant(I32, 16)))
            return
        x = b.bitcast(b.trunc(word, I16), F16)
        r = ctx.call(f"{TO_INT[mode]}.f16", F16, [x])
        ctx.set32(d, b.zext(b.bitcast(r, I16), I32))
        return
    ty = F64 if "F64" in ins.modifiers else F32
    x = read_float(ctx, a, ty, "FTZ" in ins.modifiers)
    write_float(ctx, d, ctx.call(f"{TO_INT[mode]}.{_sfx(ty)}", ty, [x]))


@handles("I2I", "I2IP")
def i2i(ctx: Lifter, ins) -> None:
    """I2I.dst.src[.SAT]: narrow or widen between integer types (saturating with .SAT)."""
    dst, src = _types(ctx, ins, "S32", "S32", {"SAT"})
    if dst not in INT_TYPES or src not in INT_TYPES or INT_TYPES[dst][0] > 32 or INT_TYPES[src][0] > 32:
        raise unsupported(ins, "conversion types")
    d, a = ctx.operands(ins, 2)
    b = ctx.b
    sbits, ssigned = INT_TYPES[src]
    dbits, dsigned = INT_TYPES[dst]
    x = read_int(ctx, a, sbits, ssigned)
    if "SAT" in ins.modifiers:
        lo = -(1 << (dbits - 1)) if dsigned else 0
        hi = (1 << (dbits - 1)) - 1 if dsigned else (1 << dbits) - 1
        wide = (b.sext if ssigned else b.zext)(x, I64)
        wide = b.select(b.icmp_signed("<", wide, ir.Constant(I64, lo)), ir.Constant(I64, lo), wide)
        wide = b.select(b.icmp_signed(">", wide, ir.Constant(I64, hi)), ir.Constant(I64, hi), wide)
        x = b.trunc(wide, I32)
    if dbits < 32:
        x = (b.sext if dsigned else b.zext)(b.trunc(x, ir.IntType(dbits)), I32)
    ctx.set32(d, x)


@handles("F2FP")
def f2fp(ctx: Lifter, ins) -> None:
    """F2FP[.BF16][.F16][.F32].PACK_AB[.RZ|.RM|.RP] d, a, b: d.hi = convert(a), d.lo = convert(b)."""
    ctx.check(ins, {"PACK_AB", "BF16", "F16", "F32"} | ROUND)
    mode = next((m for m in ins.modifiers if m in ROUND), "RN")
    if "PACK_AB" not in ins.modifiers:
        raise unsupported(ins, "packing form")
    d, a, bb = ctx.operands(ins, 3)
    b = ctx.b
    parts = []
    for op in (a, bb):
        x = ctx.f32(op)
        if "BF16" in ins.modifiers:
            word = bf16_bits(ctx, x) if mode == "RN" else bf16_bits_directed(ctx, x, mode)
            parts.append(b.and_(word, ir.Constant(I32, 0xFFFF)))
        else:
            parts.append(b.zext(b.bitcast(round_to_f16(ctx, x, mode), I16), I32))
    ctx.set32(d, b.or_(b.shl(parts[0], ir.Constant(I32, 16)), parts[1]))
