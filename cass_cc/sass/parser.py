"""nvdisasm text -> Instruction objects (cass_cc.sass.model), with the grammar in sass.lark.

`parse_sass(text)` parses one kernel's (or a whole cubin's) disassembly; labels are resolved to
addresses, and BRX's `BRANCH_TARGETS` annotation becomes `extras["branch_targets"]`. A texture
instruction's shape (`TEX.SCR.LL RZ, R5, R4, R8, 0x0, 0x58, 2D, 0x1`) becomes
`extras["texture_shape"]` ("2D"); the other operands keep their order.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import lark
from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedInput

from .. import toolchain
from ..errors import CassError
from ..fsutil import atomic_write_bytes
from .model import ConstRef, Imm, Instruction, Label, Mem, Reg, SectionOffset, SymbolRef

GRAMMAR = Path(__file__).with_name("sass.lark")


class SassSyntaxError(CassError):
    """A line of nvdisasm output the grammar does not accept."""


@dataclass
class ParsedSass:
    instructions: list[Instruction]
    labels: dict[str, int]                       # label name -> address
    directives: list[str] = field(default_factory=list)


_REG_KINDS = (("SR", "SR"), ("UR", "UR"), ("UPR", "PR"), ("UP", "UP"), ("SB", "SB"), ("PR", "PR"),
              ("R", "R"), ("P", "P"), ("B", "B"))


def make_register(token: str, prefix: str = "", absolute: bool = False, extra_suffix: str = "") -> Reg:
    """A Reg from its text (`R4.64.reuse`, `UPT`, `SR_TID.X`) and the prefix written before it."""
    if token.startswith("SR_"):
        m = re.match(r"SR_[A-Za-z0-9_]+(\.[XYZ](?![A-Za-z0-9_]))?", token)
        name, rest = m.group(0), token[m.end():]
    else:
        name, _, rest = token.partition(".")
        rest = "." + rest if rest else ""
    parts = [p for p in (rest + extra_suffix).split(".") if p]
    reuse = "reuse" in parts
    suffixes = tuple(p for p in parts if p != "reuse")
    kind = next(k for p, k in _REG_KINDS if name.startswith(p))
    if name in ("SRZ",):
        kind = "SR"
    digits = name[len(kind):] if kind not in ("SR", "PR") else ""
    index = int(digits) if digits.isdigit() else None
    return Reg(kind, index, name, suffixes, negate=prefix == "-", absolute=absolute,
               invert=prefix in ("!", "~"), reuse=reuse)


def _immediate(tok: Token, absolute: bool = False) -> Imm:
    text = str(tok)
    if tok.type == "INT":
        return Imm(int(text, 0), False, text, text.startswith("-"))
    if tok.type == "SPECIAL_FLOAT":
        value = float(text.replace("QNAN", "nan").replace("SNAN", "nan").replace("INF", "inf"))
        return Imm(value, True, text, text.startswith("-"))
    return Imm(float(text), True, text, text.startswith("-"))


def _address_terms(terms) -> tuple[Reg | None, Reg | None, int]:
    """Split `[R2.64+UR4+0x10]`'s terms into (vector register, uniform register, offset)."""
    regs = [make_register(str(t)) for t in terms if t.type == "REG"]
    vector = [r for r in regs if r.kind != "UR"]
    uniform = [r for r in regs if r.kind == "UR"]
    if len(vector) > 1 or len(uniform) > 1:
        raise SassSyntaxError(f"unexpected address {'+'.join(str(t) for t in terms)}")
    offset = sum(int(str(t), 0) for t in terms if t.type == "INT")
    return (vector[0] if vector else None), (uniform[0] if uniform else None), offset


@dataclass(frozen=True)
class TextureShape:
    """A texture instruction's shape operand; the parser moves it to `extras["texture_shape"]`."""
    name: str


class _ToModel(Transformer):
    def __init__(self, lines: list[str]):
        super().__init__()
        self.lines = lines

    def register(self, items):
        prefix = str(items[0]) if len(items) == 2 else ""
        return make_register(str(items[-1]), prefix)

    def abs_register(self, items):
        prefix = str(items[0]) if items[0].type == "PREFIX" else ""
        reg_tok = items[1] if prefix else items[0]
        suffix = str(items[-1]) if items[-1].type == "SUFFIX" else ""
        return make_register(str(reg_tok), prefix, absolute=True, extra_suffix=suffix)

    def immediate(self, items):
        return _immediate(items[0])

    def abs_immediate(self, items):
        imm = _immediate(items[0])
        return dataclasses.replace(imm, text=f"|{imm.text}|", value=abs(imm.value))

    def _const(self, items, absolute: bool):
        prefix = ""
        if items and items[0].type == "PREFIX":
            prefix = str(items[0])
            items = items[1:]
        suffixes: tuple[str, ...] = ()
        if items[-1].type == "SUFFIX":
            suffixes = tuple(p for p in str(items[-1]).split(".") if p)
            items = items[:-1]
        head, selector, terms = items[0], items[1], items[2:]
        vector, uniform, offset = _address_terms(terms)
        reg = vector or uniform
        bank = int(str(selector), 0) if head.type == "CBANK" else None
        bank_reg = make_register(str(selector)) if head.type == "CXBANK" else None
        return ConstRef(bank, offset, reg, bank_reg, suffixes, negate=prefix == "-",
                        absolute=absolute, invert=prefix in ("!", "~"))

    def relocated_constant(self, items):
        symbol, _, addend = str(items[2])[3:-2].partition("+")
        if not symbol.strip() or not re.fullmatch(r"\s*-?(0x[0-9a-fA-F]+|[0-9]+)\s*", addend):
            raise SassSyntaxError(f"unexpected relocated constant {items[2]}")
        return ConstRef(None, int(addend.strip(), 0), make_register(str(items[1])), symbol=symbol.strip())

    def section_offset(self, items):
        section, sign, addend = re.fullmatch(r"`\(\(\((\S+) - \.\) ([-+]) (\S+)\)\)", str(items[0])).groups()
        return SectionOffset(section, int(addend, 0) * (-1 if sign == "-" else 1))

    def constant(self, items):
        return self._const(items, False)

    def abs_constant(self, items):
        return self._const(items, True)

    def memory(self, items):
        base, ureg, offset = _address_terms(items)
        return Mem(base, offset, ureg)

    def desc_memory(self, items):
        desc = make_register(str(items[1]))
        base, ureg, offset = _address_terms(items[2:])
        return Mem(base, offset, ureg, desc)

    def label(self, items):
        return Label(None, str(items[0])[2:-1])

    def symbol_ref(self, items):
        text = str(items[0])
        m = re.fullmatch(r"(\d+)@(lo|hi)\(\(?\s*([^\s()+]+)\s*(?:\+\s*([^\s()]+)@srel\s*)?\)?\)", text)
        if m is None:
            raise SassSyntaxError(f"unexpected relocation expression {text}")
        return SymbolRef(m.group(2), int(m.group(1)), m.group(3), m.group(4) or "", None, text)

    def texture_shape(self, items):
        return TextureShape(str(items[0]))

    def regset(self, items):
        return tuple(int(str(t), 0) for t in items)

    def group(self, items):
        return items

    def operands(self, groups):
        return tuple(op for g in groups for op in g)

    def instruction(self, items):
        address_tok = items[0]
        guard = opcode = None
        operands: tuple = ()
        extras = {}
        for it in items[1:]:
            if isinstance(it, tuple):
                shapes = [op for op in it if isinstance(op, TextureShape)]
                if shapes:
                    extras["texture_shape"] = shapes[0].name
                operands = tuple(op for op in it if not isinstance(op, TextureShape))
            elif it.type == "GUARD":
                g = str(it)[1:]
                guard = make_register(g.lstrip("!"), "!" if g.startswith("!") else "")
            elif it.type == "OPCODE":
                opcode = str(it)
            elif it.type == "ANNOTATION":
                extras["annotation"] = str(it)[3:-3]
        line = self.lines[address_tok.line - 1]
        text = re.sub(r"/\*.*?\*/", "", line).strip()
        name, *mods = opcode.split(".")
        return Instruction(int(str(address_tok)[2:-2], 16), name, tuple(mods), operands, guard, text, extras)

    def label_def(self, items):
        return ("label", str(items[0])[:-1])

    def directive(self, items):
        return ("directive", str(items[0]).strip())


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    """The LALR parser. lark's analysis of the grammar costs ~70 ms of every cold compile, so its
    result is kept in the cass cache, named by a digest of the grammar, lark and Python versions
    (an edited grammar gets a new file). The file is written by atomic rename, so concurrent
    builds read a whole one or none; one that does not load is rebuilt and replaced."""
    grammar = GRAMMAR.read_text()
    digest = hashlib.sha256(f"{grammar}\0{lark.__version__}\0{sys.version_info[:2]}\0{STARTS}".encode()).hexdigest()[:16]
    try:
        saved = toolchain.cache_root() / f"sass-parser-{digest}.lark"
    except OSError:
        saved = None
    if saved is not None and saved.is_file():
        try:
            with open(saved, "rb") as f:
                return Lark.load(f)
        except Exception:  # noqa: BLE001 -- any damage (truncated, foreign file): build it again
            pass
    parser = Lark(grammar, parser="lalr", lexer="contextual", maybe_placeholders=False, start=list(STARTS))
    if saved is not None:
        data = io.BytesIO()
        parser.save(data)
        try:
            atomic_write_bytes(str(saved), data.getvalue())
        except (CassError, OSError):
            pass  # a cache that cannot be written only costs the next build the analysis
    return parser


STARTS = ("start", "instruction")
# nvdisasm writes one instruction a line: `/*0a70*/  @!P0 LDG.E R6, [R2.64+0xe00] ;  /* 0x... */`
_INSTRUCTION_LINE = re.compile(r"^\s*/\*([0-9a-f]+)\*/(.*;)[^;]*$")
_COMMENTS = re.compile(r"/\*.*?\*/")


def _syntax_error(source: str, number: int, line: str, column: int | None) -> SassSyntaxError:
    return SassSyntaxError(f"{source}:{number}: cannot parse SASS line '{line.strip()}' (column {column})")


@functools.lru_cache(maxsize=1 << 16)
def _instruction_at_zero(body: str) -> Instruction:
    """One instruction's text after its address, read as if at address 0. Kernels repeat the same
    instruction often (moves, waits, unrolled bodies); the reading is shared, never changed."""
    line = "/*0000*/" + body
    return _ToModel([line]).transform(_parser().parse(line, start="instruction"))


def _items(text: str, source: str) -> list:
    """The instructions, label definitions and directives of `text`, in order: each instruction
    line is read once per distinct text, every other line by the whole grammar."""
    items: list = []
    for number, line in enumerate(text.splitlines(), 1):
        m = _INSTRUCTION_LINE.match(line)
        try:
            if m:
                at_zero = _instruction_at_zero(m.group(2))
                items.append(dataclasses.replace(at_zero, address=int(m.group(1), 16),
                                                 text=_COMMENTS.sub("", line).strip(), extras=dict(at_zero.extras)))
            elif line.strip() and not line.lstrip().startswith("//"):
                items += _ToModel([line]).transform(_parser().parse(line, start="start")).children
        except UnexpectedInput as e:
            raise _syntax_error(source, number, line, e.column) from None
        except LarkError as e:
            raise SassSyntaxError(f"{source}:{number}: cannot parse SASS: {e}") from None
    return items


def parse_sass(text: str, source: str = "sass") -> ParsedSass:
    """Parse nvdisasm output; SassSyntaxError names the line the grammar rejects."""
    items = _items(text, source)
    instructions: list[Instruction] = []
    labels: dict[str, int] = {}
    pending: list[str] = []
    directives = []
    for it in items:
        if isinstance(it, Instruction):
            for name in pending:
                labels[name] = it.address
            pending = []
            instructions.append(it)
        elif it[0] == "label":
            pending.append(it[1])
        else:
            directives.append(it[1])
    end = instructions[-1].address + 16 if instructions else 0
    for name in pending:
        labels[name] = end
    return ParsedSass([_resolve(i, labels) for i in instructions], labels, directives)


def _resolved(op, labels: dict[str, int]):
    if isinstance(op, Label):
        return Label(labels.get(op.name), op.name)
    if isinstance(op, SymbolRef) and op.label:
        return dataclasses.replace(op, label_address=labels.get(op.label))
    return op


def _resolve(ins: Instruction, labels: dict[str, int]) -> Instruction:
    """Fill label addresses; turn BRX's BRANCH_TARGETS annotation into resolved Labels."""
    if any(isinstance(op, (Label, SymbolRef)) for op in ins.operands):
        ins = dataclasses.replace(ins, operands=tuple(_resolved(op, labels) for op in ins.operands))
    note = ins.extras.get("annotation", "")
    if note.startswith("BRANCH_TARGETS"):
        names = [n for n in note.split(None, 1)[1].split(",") if n] if " " in note else []
        ins.extras["branch_targets"] = [Label(labels.get(n), n) for n in names]
    return ins
