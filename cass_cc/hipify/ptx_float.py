"""Floating-point instructions of inline PTX: arithmetic with rounding modes, .ftz and .sat,
fma, comparisons, the approximate math functions, and cvt between all number types."""

from __future__ import annotations

from .ptx_emit import BITS, CTYPE, FLOAT, INTEGER, Emitter, operands, refuse_modifiers, types_of
from .ptx_parse import Instruction, PtxRefusal

ROUNDING = {"rn": 0, "rz": 1, "rm": 2, "rp": 3}
INTEGRAL_ROUNDING = {"rni": 0, "rzi": 1, "rmi": 2, "rpi": 3}


def _mode(ins: Instruction, mods: list, t: str) -> int:
    found = [ROUNDING[m] for m in mods if m in ROUNDING]
    mode = found[0] if found else 0
    if mode and t != "f32":
        raise PtxRefusal(f"'{ins.opcode}': directed rounding of .{t} is not supported")
    return mode


def _finish(mods: list, t: str, expr: str) -> str:
    """The result with .ftz (f32) and .sat applied."""
    if "ftz" in mods and t == "f32":
        expr = f"cass_ptx::ftz({expr})"
    if "sat" in mods:
        expr = f"cass_ptx::sat({expr})"
    return expr


def _input(em: Emitter, op, t: str, mods: list) -> str:
    x = em.read(op, t)
    return f"cass_ptx::ftz({x})" if "ftz" in mods and t == "f32" else x


HALF = ("f16", "f16x2")


def _half_arith(em: Emitter, ins: Instruction, mods: list, t: str) -> None:
    """add sub mul fma on .f16 and .f16x2 (rounded to nearest, as HIP's half operations)."""
    base = ins.parts[0]
    refuse_modifiers(ins, mods, ("rn",))
    if base not in ("add", "sub", "mul", "fma"):
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    found = operands(ins, 4 if base == "fma" else 3)
    args = ", ".join(em.read(o, t) for o in found[1:])
    em.write(found[0], t, f"cass_ptx::{'h2' if t == 'f16x2' else 'h'}_{base}({args})")


def arith(em: Emitter, ins: Instruction, mods: list, t: str) -> None:
    """add sub mul mad fma div min max neg abs on f32/f64 (and f16/f16x2: _half_arith)."""
    base = ins.parts[0]
    if t in HALF:
        return _half_arith(em, ins, mods, t)
    if t not in FLOAT:
        raise PtxRefusal(f"'{ins.opcode}': .{t} arithmetic is not supported")
    refuse_modifiers(ins, mods, (*ROUNDING, "ftz", "sat", "approx", "full"))
    mode = _mode(ins, mods, t)
    ctype = CTYPE[t]
    if base in ("neg", "abs"):
        d, a = operands(ins, 2)
        x = _input(em, a, t, mods)
        em.write(d, t, _finish(mods, t, f"-{x}" if base == "neg" else f"__builtin_fabs({x})"))
        return
    if base in ("mad", "fma"):
        d, a, b, c = operands(ins, 4)
        x, y, z = (_input(em, o, t, mods) for o in (a, b, c))
        expr = f"cass_ptx::fma_f32({x}, {y}, {z}, {mode})" if mode else \
            f"__builtin_fma{'f' if t == 'f32' else ''}({x}, {y}, {z})"
        em.write(d, t, _finish(mods, t, expr))
        return
    d, a, b = operands(ins, 3)
    x, y = _input(em, a, t, mods), _input(em, b, t, mods)
    if base in ("min", "max"):
        expr = f"__builtin_f{base}{'f' if t == 'f32' else ''}({x}, {y})"
    elif base == "div":
        if mode:
            raise PtxRefusal(f"'{ins.opcode}': directed rounding of division is not supported")
        expr = f"({ctype})({x} / {y})"
    elif mode:
        expr = {"add": f"cass_ptx::add_f32({x}, {y}, {mode})",
                "sub": f"cass_ptx::add_f32({x}, -{y}, {mode})",
                "mul": f"cass_ptx::mul_f32({x}, {y}, {mode})"}[base]
    else:
        expr = f"cass_ptx::{base}<{ctype}>({x}, {y})"
    em.write(d, t, _finish(mods, t, expr))


def fma(em: Emitter, ins: Instruction, mods: list) -> None:
    ts = types_of(mods)
    if len(ts) != 1:
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    arith(em, ins, mods, ts[0])


_ORDERED = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


def compare(em: Emitter, cmp: str, t: str, a, b) -> str:
    x, y = em.read(a, t), em.read(b, t)
    if cmp in _ORDERED:      # false when either is NaN, `ne` included
        if cmp == "ne":
            return f"({x} < {y} || {x} > {y})"
        return f"({x} {_ORDERED[cmp]} {y})"
    if cmp.endswith("u") and cmp[:-1] in _ORDERED:
        return f"(__builtin_isunordered({x}, {y}) || {x} {_ORDERED[cmp[:-1]]} {y})"
    if cmp == "num":
        return f"!__builtin_isunordered({x}, {y})"
    if cmp == "nan":
        return f"__builtin_isunordered({x}, {y})"
    raise PtxRefusal(f"comparison .{cmp} is not defined for .{t}")


# unary math: opcode -> (f32 function, f64 function or None)
_MATH = {"ex2": ("__builtin_exp2f", None), "lg2": ("__builtin_log2f", None),
         "sin": ("__builtin_sinf", None), "cos": ("__builtin_cosf", None),
         "tanh": ("tanhf", None), "sqrt": ("sqrtf", "sqrt"),
         "rsqrt": ("rsqrtf", "rsqrt"), "rcp": ("1.0f / ", "1.0 / ")}


def math(em: Emitter, ins: Instruction, mods: list) -> None:
    base = ins.parts[0]
    ts = types_of(mods)
    if len(ts) != 1 or ts[0] not in FLOAT:
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    t = ts[0]
    refuse_modifiers(ins, mods, ("approx", "rn", "full", "ftz"))
    if t == "f64" and _MATH[base][1] is None or ("rn" in mods and base not in ("sqrt", "rcp")):
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    d, a = operands(ins, 2)
    fn = _MATH[base][0 if t == "f32" else 1]
    x = _input(em, a, t, mods)
    em.write(d, t, _finish(mods, t, f"{fn}({x})" if fn[-1] != " " else f"({fn}{x})"))


def copysign(em: Emitter, ins: Instruction, mods: list) -> None:
    ts = types_of(mods)
    if len(ts) != 1 or ts[0] not in FLOAT:
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    t = ts[0]
    d, a, b = operands(ins, 3)
    f = "__builtin_copysignf" if t == "f32" else "__builtin_copysign"
    em.write(d, t, f"{f}({em.read(b, t)}, {em.read(a, t)})")   # a's sign on b's magnitude


def cvt(em: Emitter, ins: Instruction, mods: list) -> None:
    ts = types_of(mods)
    if ts == ["f16x2", "f32"] and [m for m in mods if m not in ts] == ["rn"]:
        d, a, b = operands(ins, 3)     # a to the upper half, b to the lower
        em.write(d, "b32", f"((unsigned int)__half_as_ushort(__float2half_rn({em.read(b, 'f32')})) | "
                           f"(unsigned int)__half_as_ushort(__float2half_rn({em.read(a, 'f32')})) << 16)")
        return
    if len(ts) != 2:
        raise PtxRefusal(f"'{ins.opcode}' needs a destination and a source type")
    dt, st = ts
    refuse_modifiers(ins, mods, (*ROUNDING, *INTEGRAL_ROUNDING, "ftz", "sat"))
    d, a = operands(ins, 2)
    x = em.read(a, st)
    if "ftz" in mods and st == "f32":
        x = f"cass_ptx::ftz({x})"
    rounding = [m for m in mods if m in ROUNDING or m in INTEGRAL_ROUNDING]
    mode = rounding[0] if rounding else None
    em.write(d, dt, _finish(mods if dt in FLOAT else [], dt, _convert(ins, dt, st, x, mode, mods)))


def _convert(ins: Instruction, dt: str, st: str, x: str, mode: str | None, mods: list) -> str:
    if "sat" in mods and dt not in FLOAT:
        raise PtxRefusal(f"'{ins.opcode}': .sat to an integer type is not supported")
    if dt == "f16" or st == "f16" or dt == "bf16" or st == "bf16":
        return _convert_half(ins, dt, st, x, mode)
    if dt in INTEGER and st in INTEGER:
        return f"({CTYPE[dt]}){x}"
    if dt in INTEGER:                            # float -> integer: rounded, saturated
        if mode not in INTEGRAL_ROUNDING:
            raise PtxRefusal(f"'{ins.opcode}' needs an integer rounding (.rni .rzi .rmi .rpi)")
        return f"cass_ptx::f2i<{CTYPE[dt]}>((double){x}, {INTEGRAL_ROUNDING[mode]})"
    if st in FLOAT and mode in INTEGRAL_ROUNDING:
        if dt != st:
            raise PtxRefusal(f"'{ins.opcode}' is not supported")
        return f"cass_ptx::round_integral<{CTYPE[dt]}>({x}, {INTEGRAL_ROUNDING[mode]})"
    if mode in INTEGRAL_ROUNDING:
        raise PtxRefusal(f"'{ins.opcode}': an integer rounding for a float result")
    directed = ROUNDING.get(mode or "rn", 0)
    if not directed or (dt == "f64" and (st in FLOAT or BITS[st] <= 32)):
        return f"({CTYPE[dt]}){x}"                 # exact, or rounded to nearest
    if dt == "f32" and (st == "f64" or BITS[st] <= 32):
        return f"cass_ptx::round_f32((double){x}, 0.0, {directed})"
    raise PtxRefusal(f"'{ins.opcode}': directed rounding from .{st} to .{dt} is not supported")


def _convert_half(ins: Instruction, dt: str, st: str, x: str, mode: str | None) -> str:
    if dt == "f16" and st == "f32" and mode in (None, "rn"):
        return f"__half_as_ushort(__float2half_rn({x}))"
    if dt == "f32" and st == "f16":
        return f"__half2float(__ushort_as_half({x}))"
    if dt == "bf16" and st == "f32" and mode in (None, "rn"):
        return f"__bfloat16_as_ushort(__float2bfloat16_rn({x}))"
    if dt == "f32" and st == "bf16":
        return f"cass_ptx::as<float>((unsigned int){x} << 16)"
    raise PtxRefusal(f"'{ins.opcode}' is not supported")


HANDLERS = {"fma": fma, "cvt": cvt, "copysign": copysign, **{name: math for name in _MATH}}
