"""The body of an inline PTX statement, parsed by ptx.lark into small objects: instructions with
their guard and operands, local .reg declarations, labels and blocks."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from lark import Lark, Transformer
from lark.exceptions import LarkError


class PtxRefusal(Exception):
    """An inline PTX statement that the translator does not translate; the message says why."""


@dataclass(frozen=True)
class Reg:
    """A register: an asm operand (`%0`: index 0) or a PTX name (`p`, `%laneid`, `%tid.x`)."""
    name: str
    index: int | None = None

    def __str__(self) -> str:
        return f"%{self.index}" if self.index is not None else self.name


@dataclass(frozen=True)
class Not:
    reg: Reg


@dataclass(frozen=True)
class Pair:            # `p|q`: two destinations (setp, shfl)
    first: Reg
    second: Reg


@dataclass(frozen=True)
class Imm:             # an integer immediate
    value: int


@dataclass(frozen=True)
class FloatImm:        # 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX (bits), or a decimal float (bits None)
    value: float
    bits: int | None = None
    width: int = 32


@dataclass(frozen=True)
class Address:         # [base+offset] or [absolute]
    base: Reg | None
    offset: int


@dataclass(frozen=True)
class Vector:          # {a, b, _, d}; None stands for the sink `_`
    items: tuple


@dataclass(frozen=True)
class Sink:
    pass


Operand = Union[Reg, Not, Pair, Imm, FloatImm, Address, Vector, Sink]


@dataclass
class Instruction:
    opcode: str
    operands: list
    guard: tuple[Reg, bool] | None = None    # (predicate, negated)

    @property
    def parts(self) -> list[str]:
        return self.opcode.split(".")


@dataclass
class RegDecl:
    type: str                 # "pred", "b32", ...
    names: list[str]


@dataclass
class Label:
    name: str


@dataclass
class Block:
    items: list


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(Path(__file__).with_name("ptx.lark").read_text(), parser="lalr")


def _percent_name(text: str) -> str:
    return text[1:] if text.startswith("%%") else text   # `%%laneid` is PTX's %laneid


class _ToObjects(Transformer):
    def start(self, items):
        return Block(list(items))

    def block(self, items):
        return Block(list(items))

    def reg_decl(self, items):
        names = []
        for name, count in items[1:]:
            names += [f"{name}{i}" for i in range(count)] if count is not None else [name]
        return RegDecl(str(items[0])[1:], names)

    def reg_name(self, items):
        return (_percent_name(str(items[0])), int(str(items[1]), 0) if len(items) > 1 else None)

    def label(self, items):
        return Label(str(items[0]))

    def instruction(self, items):
        guard = items[0] if items and isinstance(items[0], tuple) else None
        rest = items[1:] if guard else items
        return Instruction(str(rest[0]), [o for o in rest[1:] if o is not None], guard)

    def guard(self, items):
        return (items[-1], len(items) == 2)

    def argument(self, items):
        return Reg(str(items[0]), int(str(items[0])[1:]))

    def name(self, items):
        return Reg(_percent_name(str(items[0])))

    def negated(self, items):
        return Not(items[1])

    def pair(self, items):
        return Pair(items[0], items[1])

    def sink(self, items):
        return Sink()

    def vector(self, items):
        return Vector(tuple(None if isinstance(i, Sink) else i for i in items))

    def address(self, items):
        offset = 0
        if len(items) > 1:
            negative = any(str(t) == "-" for t in items[1:-1])
            offset = _int(str(items[-1])) * (-1 if negative else 1)
        return Address(items[0], offset)

    def absolute_address(self, items):
        return Address(None, _int(str(items[0])))

    def int_imm(self, items):
        return Imm(_int(str(items[0])))

    def negative_int_imm(self, items):
        return Imm(-_int(str(items[1])))

    def float_bits(self, items):
        text = str(items[0])
        width = 32 if text[1] in "fF" else 64
        return FloatImm(0.0, int(text[2:], 16), width)

    def decimal_float(self, items):
        return FloatImm(float("".join(str(i) for i in items)))


def _int(text: str) -> int:
    return int(text.rstrip("uU"), 0)


def parse(body: str) -> Block:
    """The PTX statements of an asm template (C escapes already decoded)."""
    try:
        return _ToObjects().transform(_parser().parse(body))
    except LarkError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise PtxRefusal(f"the PTX text cannot be read: {first}") from None
