"""C++ for the PTX of one asm statement: registers become variables, operands C++ expressions of
an instruction's type, and each instruction one or a few statements (the families' handlers in
ptx_int, ptx_float, ptx_memory and ptx_warp)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .ptx_parse import (Address, Block, FloatImm, Imm, Instruction, Label, Not, Pair, PtxRefusal,
                        Reg, RegDecl, Sink, Vector)

# PTX types -> the C++ type an instruction computes in (f16 values are kept as their bits).
CTYPE = {
    "b8": "unsigned char", "u8": "unsigned char", "s8": "signed char",
    "b16": "unsigned short", "u16": "unsigned short", "s16": "short", "f16": "unsigned short",
    "bf16": "unsigned short", "f16x2": "unsigned int", "bf16x2": "unsigned int",
    "b32": "unsigned int", "u32": "unsigned int", "s32": "int", "f32": "float",
    "b64": "unsigned long long", "u64": "unsigned long long", "s64": "long long", "f64": "double",
    "pred": "bool",
}
INTEGER = frozenset(t for t in CTYPE if t[0] in "bus") - {"bf16", "bf16x2"}
FLOAT = frozenset(("f32", "f64"))
BITS = {t: 32 if t.endswith("x2") else int(re.sub(r"\D", "", t)) for t in CTYPE if t != "pred"}

# Special registers: PTX name -> (C++ expression, C++ type).
_U32, _U64 = "unsigned int", "unsigned long long"
SPECIAL = {
    "%laneid": ("cass_ptx::lane()", _U32),
    "%warpid": ("cass_ptx::warp_in_block()", _U32),
    "%smid": ("__smid()", _U32),
    "%clock": ("(unsigned int)cass_ptx::realtime()", _U32),
    "%clock64": ("cass_ptx::realtime()", _U64),
    "%globaltimer": ("cass_ptx::globaltimer()", _U64),
    "%globaltimer_lo": ("(unsigned int)cass_ptx::globaltimer()", _U32),
    "%globaltimer_hi": ("(unsigned int)(cass_ptx::globaltimer() >> 32)", _U32),
    "WARP_SZ": ("32u", _U32),
    **{f"%lanemask_{k}": (f"cass_ptx::lanemask_{k}()", _U32) for k in ("eq", "lt", "le", "gt", "ge")},
    **{f"%{reg}.{axis}": (f"(unsigned int){var}.{axis}", _U32)
       for reg, var in (("tid", "threadIdx"), ("ntid", "blockDim"), ("ctaid", "blockIdx"),
                        ("nctaid", "gridDim")) for axis in "xyz"},
}


@dataclass(frozen=True)
class Var:
    cname: str          # the C++ expression
    ctype: str
    writable: bool = True


Handler = Callable[["Emitter", Instruction, list], None]


class Emitter:
    """Collects the C++ statements of one asm statement's PTX."""

    def __init__(self, operands: list[Var]):
        self.operands = operands
        self.scopes: list[dict[str, Var]] = [{}]
        self.lines: list[str] = []
        self.depth = 1
        self.labels: set[str] = set()
        self.labels_used: set[str] = set()
        self.uses_carry = False
        self.instruction: Instruction | None = None   # the one being translated, for messages

    # --- statements ---
    def emit(self, line: str) -> None:
        self.lines.append("  " * self.depth + line)

    def body(self, block: Block, handlers: dict[str, Handler]) -> None:
        for item in block.items:
            if isinstance(item, Block):
                self.emit("{")
                self.depth += 1
                self.scopes.append({})
                self.body(item, handlers)
                self.scopes.pop()
                self.depth -= 1
                self.emit("}")
            elif isinstance(item, RegDecl):
                self.declare(item)
            elif isinstance(item, Label):
                self.labels.add(item.name)
                self.emit(f"{self.label(item.name)}:;")
            else:
                self.instruction_statements(item, handlers)

    def declare(self, decl: RegDecl) -> None:
        if decl.type not in CTYPE:
            raise PtxRefusal(f"registers of type .{decl.type} are not supported")
        for name in decl.names:
            var = Var(f"cass_r_{_ident(name)}_{len(self.scopes)}", CTYPE[decl.type])
            self.scopes[-1][name] = var
            self.emit(f"{var.ctype} {var.cname};")

    def instruction_statements(self, ins: Instruction, handlers: dict[str, Handler]) -> None:
        self.instruction = ins
        base, *mods = ins.parts
        handler = handlers.get(base)
        if handler is None:
            raise PtxRefusal(f"PTX instruction '{ins.opcode}' is not supported")
        try:
            if ins.guard is not None:
                reg, negated = ins.guard
                self.emit(f"if ({'!' if negated else ''}{self.pred(reg)}) {{")
                self.depth += 1
                handler(self, ins, mods)
                self.depth -= 1
                self.emit("}")
            else:
                handler(self, ins, mods)
        except PtxRefusal as e:
            if f"'{ins.opcode}'" in str(e):
                raise
            raise PtxRefusal(f"'{ins.opcode}': {e}") from None

    def label(self, name: str) -> str:
        return f"cass_L_{_ident(name)}"

    # --- operands ---
    def var(self, reg: Reg) -> Var:
        if reg.index is not None:
            if reg.index >= len(self.operands):
                raise PtxRefusal(f"operand %{reg.index} does not exist (the statement has "
                                 f"{len(self.operands)})")
            return self.operands[reg.index]
        for scope in reversed(self.scopes):
            if reg.name in scope:
                return scope[reg.name]
        if reg.name in SPECIAL:
            expr, ctype = SPECIAL[reg.name]
            return Var(expr, ctype, writable=False)
        raise PtxRefusal(f"register '{reg.name}' is not declared (or a special register that "
                         f"is not supported)")

    def read(self, op, ptype: str) -> str:
        """`op` as a C++ expression of PTX type `ptype`."""
        ctype = CTYPE[ptype]
        if isinstance(op, Reg):
            var = self.var(op)
            return var.cname if var.ctype == ctype else f"cass_ptx::as<{ctype}>({var.cname})"
        if isinstance(op, Imm):
            if ptype in FLOAT:
                return f"(({ctype}){op.value})"
            return f"(({ctype}){op.value}{'ll' if op.value < 0 else 'ull'})"
        if isinstance(op, FloatImm):
            if op.bits is None:
                return f"(({ctype}){op.value!r})"
            bits = f"0x{op.bits:x}u" if op.width == 32 else f"0x{op.bits:x}ull"
            source = "float" if op.width == 32 else "double"
            return f"(({ctype})cass_ptx::as<{source}>({bits}))"
        if isinstance(op, Not) and ptype == "pred":
            return f"!{self.pred(op.reg)}"
        raise PtxRefusal(f"operand {_show(op)} cannot be read as .{ptype}")

    def pred(self, op) -> str:
        if isinstance(op, Not):
            return f"!{self.pred(op.reg)}"
        if isinstance(op, Imm):
            return "true" if op.value else "false"
        if isinstance(op, Reg):
            var = self.var(op)
            return var.cname if var.ctype == "bool" else f"({var.cname} != 0)"
        raise PtxRefusal(f"operand {_show(op)} is not a predicate")

    def write(self, op, ptype: str, expr: str) -> None:
        """dst = expr, where expr has PTX type `ptype`."""
        if isinstance(op, Sink) or op is None:
            self.emit(f"(void)({expr});")
            return
        if not isinstance(op, Reg):
            raise PtxRefusal(f"operand {_show(op)} cannot be written")
        var = self.var(op)
        if not var.writable:
            raise PtxRefusal(f"register {op} is read-only")
        ctype = CTYPE[ptype]
        if var.ctype == ctype:
            self.emit(f"{var.cname} = {expr};")
        else:
            self.emit(f"{var.cname} = cass_ptx::as<{var.ctype}>(({ctype})({expr}));")

    def address(self, op, space: str, ctype: str) -> str:
        """A pointer to `ctype` for a memory operand in state space `space`."""
        if not isinstance(op, Address):
            raise PtxRefusal(f"operand {_show(op)} is not an address")
        if op.base is None:
            raise PtxRefusal("absolute addresses are not supported")
        var = self.var(op.base)
        base = var.cname if var.ctype == "unsigned long long" else \
            f"cass_ptx::as<unsigned long long>({var.cname})"
        if var.ctype in ("float", "double", "bool"):
            raise PtxRefusal(f"address register {op.base} is not an integer")
        addr = f"({base} + {op.offset}ll)" if op.offset else base
        if space in ("shared", "shared::cta"):
            return f"cass_ptx::shared<{ctype}>({addr})"
        if space in ("global", "", "generic"):
            return f"(({ctype}*){addr})"
        raise PtxRefusal(f"the .{space} state space is not supported")


def types_of(mods: list[str]) -> list[str]:
    return [m for m in mods if m in CTYPE]


def one_type(ins: Instruction, mods: list[str], allowed=None) -> str:
    found = types_of(mods)
    if len(found) != 1 or (allowed is not None and found[0] not in allowed):
        raise PtxRefusal(f"'{ins.opcode}': the type is not one of those supported")
    return found[0]


def operands(ins: Instruction, count: int | tuple) -> list:
    allowed = count if isinstance(count, tuple) else (count,)
    if len(ins.operands) not in allowed:
        raise PtxRefusal(f"'{ins.opcode}' takes {' or '.join(map(str, allowed))} operands, "
                         f"not {len(ins.operands)}")
    return ins.operands


def refuse_modifiers(ins: Instruction, mods: list[str], known) -> None:
    extra = [m for m in mods if m not in known and m not in CTYPE]
    if extra:
        raise PtxRefusal(f"'{ins.opcode}': modifier .{extra[0]} is not supported")


def _ident(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", lambda m: "_S_" if m.group() == "$" else "_", name.lstrip("%"))


def _show(op) -> str:
    if isinstance(op, Reg):
        return str(op)
    if isinstance(op, Imm):
        return str(op.value)
    if isinstance(op, Vector):
        return "{" + ", ".join("_" if i is None else str(i) for i in op.items) + "}"
    if isinstance(op, Pair):
        return f"{op.first}|{op.second}"
    if isinstance(op, Address):
        return f"[{op.base or ''}{'+' if op.offset >= 0 else ''}{op.offset}]"
    return type(op).__name__.lower()
