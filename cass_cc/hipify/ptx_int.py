"""Integer, bit and predicate instructions of inline PTX: moves, arithmetic with carry chains,
logic and shifts, lop3/shf/prmt/bfe/bfi and bit counts, setp/selp, dp4a. Float forms of the
shared arithmetic opcodes (add, mul, mad, ...) go to ptx_float."""

from __future__ import annotations

from . import ptx_float
from .ptx_emit import BITS, CTYPE, FLOAT, INTEGER, Emitter, one_type, operands, refuse_modifiers
from .ptx_parse import Instruction, Pair, PtxRefusal, Reg, Vector


def _unsigned(ptype: str) -> str:
    return {8: "u8", 16: "u16", 32: "u32", 64: "u64"}[BITS[ptype]]


def _signed(ptype: str) -> str:
    return {8: "s8", 16: "s16", 32: "s32", 64: "s64"}[BITS[ptype]]


def mov(em: Emitter, ins: Instruction, mods: list) -> None:
    t = one_type(ins, mods)
    refuse_modifiers(ins, mods, ())
    d, a = operands(ins, 2)
    if isinstance(a, Vector) or isinstance(d, Vector):
        _pack_or_unpack(em, ins, t, d, a)
    elif t == "pred":
        em.write(d, t, em.pred(a))
    else:
        em.write(d, t, em.read(a, t))


def _pack_or_unpack(em: Emitter, ins: Instruction, t: str, d, a) -> None:
    vec = a if isinstance(a, Vector) else d
    part_bits = BITS[t] // len(vec.items)
    if part_bits not in (8, 16, 32) or part_bits * len(vec.items) != BITS[t]:
        raise PtxRefusal(f"'{ins.opcode}' with {len(vec.items)} parts is not supported")
    part = f"b{part_bits}"
    whole = CTYPE[_unsigned(t)]
    if isinstance(a, Vector):
        pieces = [f"(({whole}){em.read(r, part)} << {i * part_bits})"
                  for i, r in enumerate(a.items) if r is not None]
        em.write(d, _unsigned(t), " | ".join(pieces))
    else:
        source = em.read(a, _unsigned(t))
        for i, r in enumerate(d.items):
            if r is not None:
                em.write(r, part, f"({CTYPE[part]})({source} >> {i * part_bits})")


def _wrapping(t: str) -> str:
    """The unsigned C++ type in which t's arithmetic wraps without undefined behaviour (no
    promotion to int)."""
    return "unsigned long long" if BITS[t] == 64 else "unsigned int"


def _carry_op(em: Emitter, ins: Instruction, t: str, a: str, b: str, base: str, mods: list) -> str:
    """The expression of add/sub (optionally with carry in/out) of a and b in type t."""
    em.uses_carry = True
    u = CTYPE[_unsigned(t)]
    carry_in = "cass_cf" if base in ("addc", "subc", "madc") else "0u"
    carry_out = "&cass_cf" if "cc" in mods else "nullptr"
    fn = "sub_borrow" if base.startswith("sub") else "add_carry"
    return f"cass_ptx::{fn}<{u}>(({u}){a}, ({u}){b}, {carry_in}, {carry_out})"


def add_sub(em: Emitter, ins: Instruction, mods: list) -> None:
    base = ins.parts[0]
    t = one_type(ins, mods)
    if t in FLOAT or t in ptx_float.HALF:
        return ptx_float.arith(em, ins, mods, t)
    if t not in INTEGER:
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    refuse_modifiers(ins, mods, ("cc", "sat"))
    d, a, b = operands(ins, 3)
    x, y = em.read(a, t), em.read(b, t)
    if "cc" in mods or base in ("addc", "subc"):
        em.write(d, _unsigned(t), _carry_op(em, ins, t, x, y, base, mods))
    elif "sat" in mods:
        if t != "s32":
            raise PtxRefusal(f"'{ins.opcode}': .sat is only defined for .s32")
        em.write(d, t, f"cass_ptx::sat_{base}<int>({x}, {y})")
    else:
        op, w = "+" if base == "add" else "-", _wrapping(t)
        em.write(d, t, f"({CTYPE[t]})(({w}){x} {op} ({w}){y})")


def mul_mad(em: Emitter, ins: Instruction, mods: list) -> None:
    base = ins.parts[0]
    t = one_type(ins, mods)
    if t in FLOAT or t in ptx_float.HALF:
        return ptx_float.arith(em, ins, mods, t)
    if t not in INTEGER or BITS[t] < 16:
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    refuse_modifiers(ins, mods, ("lo", "hi", "wide", "cc"))
    mad = base in ("mad", "madc")
    d, a, b, *c = operands(ins, 4 if mad else 3)
    x, y = em.read(a, t), em.read(b, t)
    if "wide" in mods:
        if BITS[t] == 64 or "cc" in mods or base == "madc":
            raise PtxRefusal(f"'{ins.opcode}' is not supported")
        wide = {16: "s32", 32: "s64"}[BITS[t]] if t.startswith("s") else \
            {16: "u32", 32: "u64"}[BITS[t]]
        w = _wrapping(wide)
        product = f"({w})(({CTYPE[wide]}){x} * ({CTYPE[wide]}){y})"
        if mad:
            product = f"({product} + ({w}){em.read(c[0], wide)})"
        em.write(d, wide, product)
        return
    w = _wrapping(t)
    product = f"cass_ptx::mul_hi<{CTYPE[t]}>({x}, {y})" if "hi" in mods else \
        f"({CTYPE[_unsigned(t)]})(({w}){x} * ({w}){y})"
    if not mad:
        em.write(d, t, product)
    elif "cc" in mods or base == "madc":
        em.write(d, _unsigned(t), _carry_op(em, ins, t, product, em.read(c[0], t), base, mods))
    else:
        w = _wrapping(t)
        em.write(d, _unsigned(t), f"({CTYPE[_unsigned(t)]})(({w}){product} + ({w}){em.read(c[0], t)})")


def div_rem(em: Emitter, ins: Instruction, mods: list) -> None:
    t = one_type(ins, mods)
    if t in FLOAT:
        return ptx_float.arith(em, ins, mods, t)
    refuse_modifiers(ins, mods, ())
    d, a, b = operands(ins, 3)
    op = "/" if ins.parts[0] == "div" else "%"
    em.write(d, t, f"({CTYPE[t]})({em.read(a, t)} {op} {em.read(b, t)})")


def unary(em: Emitter, ins: Instruction, mods: list) -> None:
    base = ins.parts[0]
    t = one_type(ins, mods)
    if t in FLOAT:
        return ptx_float.arith(em, ins, mods, t)
    refuse_modifiers(ins, mods, ())
    d, a = operands(ins, 2)
    if t == "pred":
        if base != "not":
            raise PtxRefusal(f"'{ins.opcode}' is not supported")
        em.write(d, t, f"!{em.pred(a)}")
        return
    x, w = em.read(a, t), _wrapping(t)
    expr = {"not": f"~{x}", "neg": f"0u - ({w}){x}", "cnot": f"({x} == 0)",
            "abs": f"{x} < 0 ? 0u - ({w}){x} : ({w}){x}"}[base]
    em.write(d, t, f"({CTYPE[t]})({expr})")


def min_max(em: Emitter, ins: Instruction, mods: list) -> None:
    t = one_type(ins, mods)
    if t in FLOAT:
        return ptx_float.arith(em, ins, mods, t)
    refuse_modifiers(ins, mods, ())
    d, a, b = operands(ins, 3)
    x, y = em.read(a, t), em.read(b, t)
    op = "<" if ins.parts[0] == "min" else ">"
    em.write(d, t, f"({x} {op} {y} ? {x} : {y})")


def logic(em: Emitter, ins: Instruction, mods: list) -> None:
    t = one_type(ins, mods)
    refuse_modifiers(ins, mods, ())
    d, a, b = operands(ins, 3)
    op = {"and": "&", "or": "|", "xor": "^"}[ins.parts[0]]
    if t == "pred":
        em.write(d, t, f"(bool)({em.pred(a)} {op} {em.pred(b)})")
    else:
        em.write(d, t, f"({CTYPE[t]})({em.read(a, t)} {op} {em.read(b, t)})")


def shift(em: Emitter, ins: Instruction, mods: list) -> None:
    t = one_type(ins, mods, INTEGER)
    refuse_modifiers(ins, mods, ())
    d, a, b = operands(ins, 3)
    fn = ins.parts[0]
    em.write(d, t, f"cass_ptx::{fn}<{CTYPE[t]}>({em.read(a, t)}, {em.read(b, 'u32')})")


def lop3(em: Emitter, ins: Instruction, mods: list) -> None:
    one_type(ins, mods, ("b32",))
    refuse_modifiers(ins, mods, ())
    d, a, b, c, lut = operands(ins, 5)
    em.write(d, "b32", f"cass_ptx::lop3({em.read(a, 'b32')}, {em.read(b, 'b32')}, "
                       f"{em.read(c, 'b32')}, {em.read(lut, 'b32')})")


def shf(em: Emitter, ins: Instruction, mods: list) -> None:
    one_type(ins, mods, ("b32",))
    refuse_modifiers(ins, mods, ("l", "r", "wrap", "clamp"))
    if ("l" in mods) == ("r" in mods) or ("wrap" in mods) == ("clamp" in mods):
        raise PtxRefusal(f"'{ins.opcode}' needs .l or .r and .wrap or .clamp")
    d, a, b, c = operands(ins, 4)
    fn = "shf_l" if "l" in mods else "shf_r"
    em.write(d, "b32", f"cass_ptx::{fn}({em.read(a, 'b32')}, {em.read(b, 'b32')}, "
                       f"{em.read(c, 'u32')}, {'true' if 'clamp' in mods else 'false'})")


_PRMT_MODES = {None: 0, "f4e": 1, "b4e": 2, "rc8": 3, "ecl": 4, "ecr": 5, "rc16": 6}


def prmt(em: Emitter, ins: Instruction, mods: list) -> None:
    one_type(ins, mods, ("b32",))
    refuse_modifiers(ins, mods, _PRMT_MODES)
    mode = next((m for m in mods if m in _PRMT_MODES), None)
    d, a, b, c = operands(ins, 4)
    em.write(d, "b32", f"cass_ptx::prmt({em.read(a, 'b32')}, {em.read(b, 'b32')}, "
                       f"{em.read(c, 'b32')}, {_PRMT_MODES[mode]})")


def bfe(em: Emitter, ins: Instruction, mods: list) -> None:
    t = one_type(ins, mods, ("u32", "s32", "u64", "s64"))
    refuse_modifiers(ins, mods, ())
    d, a, b, c = operands(ins, 4)
    em.write(d, t, f"cass_ptx::bfe<{CTYPE[t]}>({em.read(a, t)}, {em.read(b, 'u32')}, "
                   f"{em.read(c, 'u32')})")


def bfi(em: Emitter, ins: Instruction, mods: list) -> None:
    t = one_type(ins, mods, ("b32", "b64"))
    refuse_modifiers(ins, mods, ())
    d, f, b, c, n = operands(ins, 5)
    em.write(d, t, f"cass_ptx::bfi<{CTYPE[t]}>({em.read(f, t)}, {em.read(b, t)}, "
                   f"{em.read(c, 'u32')}, {em.read(n, 'u32')})")


def bmsk(em: Emitter, ins: Instruction, mods: list) -> None:
    """bmsk.{clamp,wrap}.b32 d, pos, width: `width` ones from bit `pos`."""
    one_type(ins, mods, ("b32",))
    refuse_modifiers(ins, mods, ("clamp", "wrap"))
    if ("clamp" in mods) == ("wrap" in mods):
        raise PtxRefusal(f"'{ins.opcode}' needs .clamp or .wrap")
    d, a, b = operands(ins, 3)
    em.write(d, "b32", f"cass_ptx::bmsk({em.read(a, 'u32')}, {em.read(b, 'u32')}, "
                       f"{'true' if 'clamp' in mods else 'false'})")


def szext(em: Emitter, ins: Instruction, mods: list) -> None:
    """szext.{clamp,wrap}.{s32,u32} d, a, n: the low n bits of a, sign- or zero-extended."""
    t = one_type(ins, mods, ("s32", "u32"))
    refuse_modifiers(ins, mods, ("clamp", "wrap"))
    if ("clamp" in mods) == ("wrap" in mods):
        raise PtxRefusal(f"'{ins.opcode}' needs .clamp or .wrap")
    d, a, b = operands(ins, 3)
    em.write(d, t, f"cass_ptx::szext<{CTYPE[t]}>({em.read(a, 'u32')}, {em.read(b, 'u32')}, "
                   f"{'true' if 'clamp' in mods else 'false'})")


def bit_count(em: Emitter, ins: Instruction, mods: list) -> None:
    base = ins.parts[0]
    if base == "bfind":
        t = one_type(ins, mods, ("u32", "s32", "u64", "s64"))
        refuse_modifiers(ins, mods, ("shiftamt",))
    else:
        t = one_type(ins, mods, ("b32", "b64"))
        refuse_modifiers(ins, mods, ())
    d, a = operands(ins, 2)
    x = em.read(a, t)
    if base == "brev":
        em.write(d, t, f"__builtin_bitreverse{BITS[t]}({x})")
    elif base == "bfind":
        em.write(d, "u32", f"cass_ptx::bfind<{CTYPE[t]}>({x}, {'true' if 'shiftamt' in mods else 'false'})")
    else:
        em.write(d, "u32", f"cass_ptx::{base}<{CTYPE[t]}>({x})")


_INT_CMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
            "lo": "<", "ls": "<=", "hi": ">", "hs": ">="}
_BOOL_OPS = {"and": "&&", "or": "||", "xor": "!="}


def compare(em: Emitter, cmp: str, t: str, a, b) -> str:
    """The C++ bool of PTX comparison `cmp` of two operands of type t."""
    if t in FLOAT:
        return ptx_float.compare(em, cmp, t, a, b)
    if cmp not in _INT_CMP:
        raise PtxRefusal(f"comparison .{cmp} is not defined for .{t}")
    if cmp in ("lo", "ls", "hi", "hs"):
        t = _unsigned(t)
    return f"({em.read(a, t)} {_INT_CMP[cmp]} {em.read(b, t)})"


def setp(em: Emitter, ins: Instruction, mods: list) -> None:
    t = one_type(ins, mods)
    cmp, *rest = [m for m in mods if m not in CTYPE and m != "ftz"]
    boolop = rest[0] if rest else None
    if len(rest) > 1 or (boolop is not None and boolop not in _BOOL_OPS):
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    ops = operands(ins, 4 if boolop else 3)
    d, a, b = ops[:3]
    if t in ("b16", "b32", "b64") and cmp in ("eq", "ne"):
        t = _unsigned(t)
    if t.startswith("b") or t == "pred":
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    result = compare(em, cmp, t, a, b)
    em.emit("{")
    em.depth += 1
    em.emit(f"bool cass_t = {result};")
    if boolop:
        c = em.pred(ops[3])
        em.emit(f"bool cass_c = {c};")
        first, second = f"(cass_t {_BOOL_OPS[boolop]} cass_c)", f"(!cass_t {_BOOL_OPS[boolop]} cass_c)"
    else:
        first, second = "cass_t", "!cass_t"
    if isinstance(d, Pair):
        em.write(d.first, "pred", first)
        em.write(d.second, "pred", second)
    else:
        em.write(d, "pred", first)
    em.depth -= 1
    em.emit("}")


def selp(em: Emitter, ins: Instruction, mods: list) -> None:
    t = one_type(ins, mods)
    refuse_modifiers(ins, mods, ())
    d, a, b, c = operands(ins, 4)
    em.write(d, t, f"({em.pred(c)} ? {em.read(a, t)} : {em.read(b, t)})")


def dp4a(em: Emitter, ins: Instruction, mods: list) -> None:
    if len(mods) != 2 or any(m not in ("u32", "s32") for m in mods):
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    d, a, b, c = operands(ins, 4)
    signed = [m == "s32" for m in mods]
    dtype = "s32" if any(signed) else "u32"
    em.write(d, "u32", f"cass_ptx::dp4a<{str(signed[0]).lower()}, {str(signed[1]).lower()}>("
                       f"{em.read(a, 'u32')}, {em.read(b, 'u32')}, {em.read(c, dtype)})")


def vabsdiff4(em: Emitter, ins: Instruction, mods: list) -> None:
    """The plain unsigned form: per-byte |a - b| (no .add, no byte mask; c is then unused)."""
    if mods != ["u32", "u32", "u32"]:
        raise PtxRefusal(f"'{ins.opcode}' is not supported (only vabsdiff4.u32.u32.u32 without .add)")
    d, a, b, _ = operands(ins, 4)
    em.write(d, "u32", f"__vabsdiffu4({em.read(a, 'u32')}, {em.read(b, 'u32')})")


HANDLERS = {
    "mov": mov, "add": add_sub, "sub": add_sub, "addc": add_sub, "subc": add_sub,
    "mul": mul_mad, "mad": mul_mad, "madc": mul_mad, "div": div_rem, "rem": div_rem,
    "not": unary, "neg": unary, "cnot": unary, "abs": unary, "min": min_max, "max": min_max,
    "and": logic, "or": logic, "xor": logic, "shl": shift, "shr": shift, "lop3": lop3,
    "shf": shf, "prmt": prmt, "bfe": bfe, "bfi": bfi, "bmsk": bmsk, "szext": szext, "brev": bit_count, "popc": bit_count,
    "clz": bit_count, "bfind": bit_count, "setp": setp, "selp": selp, "dp4a": dp4a,
    "vabsdiff4": vabsdiff4,
}
