"""SASS instruction objects, as the grammar (sass.lark) produces them and the lifter consumes them.

Small frozen objects with plain names (pyelftools style). Operand modifiers that SASS writes on
the operand (`-R2`, `|R2|`, `!P0`, `~R3`, `R2.H1`, `R4.64`, `R2.reuse`) are fields of the operand.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Reg:
    """A register: kind R, UR, P, UP or SR (special, e.g. SR_TID.X); index None for RZ/URZ/PT/UPT."""
    kind: str                      # also B (convergence barrier), SB (scoreboard), PR (all predicates)
    index: int | None
    name: str                      # as written, without modifiers: "R4", "RZ", "UP0", "SR_TID.X"
    suffixes: tuple[str, ...] = () # ".64", ".H1", ".F32" ... without the dot, .reuse excluded
    negate: bool = False           # -R2
    absolute: bool = False         # |R2|
    invert: bool = False           # ~R2 or !P0
    reuse: bool = False


@dataclass(frozen=True)
class Imm:
    value: int | float
    is_float: bool = False
    text: str = ""                 # as written (e.g. "0x3f800000", "1.5", "-INF", "+QNAN")
    negate: bool = False


@dataclass(frozen=True)
class ConstRef:
    """c[bank][offset], c[bank][Rx+offset], cx[UR4][offset], or in relocatable code before the
    device link c[Rx+`((symbol + offset))]: the bank and base come from `symbol`'s relocation."""
    bank: int | None
    offset: int
    reg: Reg | None = None         # register added to offset
    bank_reg: Reg | None = None    # cx[URx]: bank from a uniform register
    suffixes: tuple[str, ...] = ()
    negate: bool = False
    absolute: bool = False
    invert: bool = False
    symbol: str = ""               # the relocated word's symbol (bank None until the device link)


@dataclass(frozen=True)
class Mem:
    """[R2.64+UR4+0x10], desc[UR4][R2.64+0x4], [UR4+0x8], [0x10] ..."""
    base: Reg | None
    offset: int = 0
    ureg: Reg | None = None
    desc: Reg | None = None


@dataclass(frozen=True)
class SymbolRef:
    """A relocated immediate, as debug builds write it: `32@lo($str)`, `32@hi((f + .L_x_3@srel))`:
    the low/high 32 bits of a symbol's address, or of a label's address relative to its section."""
    part: str                      # "lo" | "hi"
    bits: int                      # 32
    symbol: str
    label: str = ""                # the `@srel` label, when the expression adds one
    label_address: int | None = None
    text: str = ""


@dataclass(frozen=True)
class SectionOffset:
    """`(((.text.k - .) - 0x10)), relocatable code's BRX operand: the start of `section` minus the
    instruction's address, plus `addend` (the device link writes it as the immediate -0x..)."""
    section: str
    addend: int


@dataclass(frozen=True)
class Label:
    """A branch target: `0x1a0` or `` `(.L_x_3) `` resolved to an address when known."""
    address: int | None
    name: str = ""


@dataclass(frozen=True)
class Instruction:
    address: int
    opcode: str                                  # "IMAD", "ISETP", "LDG" ...
    modifiers: tuple[str, ...] = ()              # ("WIDE", "U32") for IMAD.WIDE.U32
    operands: tuple = ()                         # Reg | Imm | ConstRef | Mem | Label | SymbolRef | SectionOffset,
                                                 # or tuple[int, ...] for DEPBAR's `{2,1}`
    guard: Reg | None = None                     # @P0 / @!P0 (invert set)
    text: str = ""                               # the line as nvdisasm wrote it, trimmed
    extras: dict = field(default_factory=dict, compare=False, hash=False)
    # extras: "annotation" (nvdisasm's `(*"..."*)` text), "branch_targets" (BRX: list of Label)

    @property
    def full_opcode(self) -> str:
        return ".".join((self.opcode,) + self.modifiers)
