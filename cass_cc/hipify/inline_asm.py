"""Inline PTX (`asm volatile("..." : outputs : inputs : clobbers)`) translated to HIP C++.

Each asm statement becomes `do { ... } while (0)`: its operands become variables of their
constraint's register type ("r" unsigned int, "l" unsigned long long, "h" unsigned short,
"f" float, "d" double, "n" an immediate), the PTX body (ptx.lark) becomes C++ statements, one or
a few per instruction with the PTX ISA's semantics, and the outputs are written back. A statement
that uses something the translator does not know is left as it was, with a warning naming the
instruction and the line: it is never translated approximately.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ptx_control, ptx_float, ptx_int, ptx_matrix, ptx_memory
from .lexer import STRING
from .ptx_emit import Emitter, Var
from .ptx_parse import PtxRefusal, parse
from .source import Source

HANDLERS = {**ptx_int.HANDLERS, **ptx_float.HANDLERS, **ptx_memory.HANDLERS,
            **ptx_control.HANDLERS, **ptx_matrix.HANDLERS}
CONSTRAINT_TYPES = {"r": "unsigned int", "l": "unsigned long long", "h": "unsigned short",
                    "f": "float", "d": "double", "n": "long long"}
_QUALIFIERS = ("volatile", "__volatile__", "__volatile", "inline", "__inline", "__inline__")


@dataclass
class Operand:
    constraint: str     # as written: "=r", "+l", "f", "n", "0"
    expression: str     # the C++ text of the lvalue or value


@dataclass
class AsmStatement:
    first: int          # token index of `asm`
    last: int           # token index of the closing parenthesis
    template: str = ""
    outputs: list[Operand] = field(default_factory=list)
    inputs: list[Operand] = field(default_factory=list)
    clobbers: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    """What became of the asm statements of a translation unit."""
    replacements: dict[int, tuple[int, str]] = field(default_factory=dict)  # first -> (last, text)
    refusals: list[tuple[int, str]] = field(default_factory=list)           # (token index, why)


def rewrite(src: Source, changed: dict[int, str]) -> Outcome:
    """Translate every asm statement of `src`; `changed` holds the other rules' renamed tokens
    (the operand expressions keep them)."""
    outcome = Outcome()
    in_device = _device_positions(src)
    for pos, index in enumerate(src.code):
        if not src.tokens[index].is_ident("asm", "__asm__", "__asm"):
            continue
        try:
            stmt = _statement(src, pos, changed)
            text = translate_statement(stmt)
        except PtxRefusal as e:
            if pos in in_device or _looks_like_ptx(src, pos):
                outcome.refusals.append((index, f"inline PTX is not translated: {e}; the asm "
                                                f"statement is left unchanged"))
            continue
        # The same line breaks after it, so no later line moves (continuations in a #define).
        newlines = "".join(src.tokens[i].text for i in range(stmt.first, stmt.last + 1)).count("\n")
        brk = " \\\n" if src.tokens[index].directive else "\n"
        outcome.replacements[stmt.first] = (stmt.last, text + brk * newlines)
    return outcome


def translate_statement(stmt: AsmStatement) -> str:
    """The C++ statement (without the `;` that follows) for one asm statement."""
    variables: list[Var] = []
    prologue: list[str] = []
    epilogue: list[str] = []
    for n, op in enumerate(stmt.outputs):
        letter = _letter(op.constraint, output=True)
        var = Var(f"cass_a{n}", CONSTRAINT_TYPES[letter])
        variables.append(var)
        init = f"cass_ptx::arg<{var.ctype}>({op.expression})" if "+" in op.constraint else "{}"
        prologue.append(f"{var.ctype} {var.cname} = {init};" if init != "{}" else
                        f"{var.ctype} {var.cname}{{}};")
        epilogue.append(f"cass_ptx::put({op.expression}, {var.cname});")
    for n, op in enumerate(stmt.inputs, start=len(stmt.outputs)):
        if op.constraint.isdigit():          # tied to an output: that register, initialised
            tied = int(op.constraint)
            if tied >= len(stmt.outputs):
                raise PtxRefusal(f"input constraint \"{op.constraint}\" names no output")
            var = variables[tied]
            prologue.append(f"{var.cname} = cass_ptx::arg<{var.ctype}>({op.expression});")
            variables.append(var)
            continue
        letter = _letter(op.constraint, output=False)
        var = Var(f"cass_a{n}", CONSTRAINT_TYPES[letter], writable=False)
        variables.append(var)
        prologue.append(f"const {var.ctype} {var.cname} = cass_ptx::arg<{var.ctype}>({op.expression});")
    em = Emitter(variables)
    em.body(parse(stmt.template), HANDLERS)
    undefined = em.labels_used - em.labels
    if undefined:
        raise PtxRefusal(f"label '{sorted(undefined)[0]}' is not in the asm statement")
    head = []
    if em.labels:
        head.append("__label__ " + ", ".join(em.label(n) for n in sorted(em.labels)) + ";")
    head += prologue
    if em.uses_carry:
        head.append("unsigned int cass_cf = 0;")
    fence = ["__atomic_signal_fence(__ATOMIC_SEQ_CST);"] if "memory" in stmt.clobbers else []
    lines = head + fence + [line.strip() for line in em.lines] + fence + epilogue
    return "do { " + " ".join(lines) + " } while (0)"


def _letter(constraint: str, output: bool) -> str:
    letters = constraint.lstrip("=+&").replace("&", "")
    if output and not constraint.startswith(("=", "+")):
        raise PtxRefusal(f"output constraint \"{constraint}\" has no '=' or '+'")
    if len(letters) != 1 or letters not in CONSTRAINT_TYPES or (output and letters == "n"):
        raise PtxRefusal(f"operand constraint \"{constraint}\" is not supported")
    return letters


# --- reading the asm statement from tokens ----------------------------------------------------

def _statement(src: Source, pos: int, changed: dict[int, str]) -> AsmStatement:
    first = src.code[pos]
    pos += 1
    while pos < len(src.code) and src.tokens[src.code[pos]].is_ident(*_QUALIFIERS):
        pos += 1
    if pos >= len(src.code) or not src.tokens[src.code[pos]].is_punct("("):
        raise PtxRefusal("`asm goto` and asm without a parenthesised body are not supported")
    sections: list[list[list[int]]] = [[[]]]     # section -> comma-separated items -> positions
    depth = 0
    for at in range(pos + 1, len(src.code)):
        tok = src.tokens[src.code[at]]
        if tok.is_punct("(", "[", "{"):
            depth += 1
        elif tok.is_punct(")", "]", "}"):
            if depth == 0:
                return _sections(src, first, src.code[at], sections, changed)
            depth -= 1
        elif depth == 0 and tok.is_punct(":", "::"):
            for _ in range(len(tok.text)):
                sections.append([[]])
            continue
        elif depth == 0 and tok.is_punct(",") and len(sections) > 1:
            sections[-1].append([])
            continue
        sections[-1][-1].append(at)
    raise PtxRefusal("the asm statement never closes")


def _sections(src: Source, first: int, last: int, sections, changed) -> AsmStatement:
    stmt = AsmStatement(first, last)
    template = sections[0][0]
    if not template or any(src.tokens[src.code[p]].kind != STRING for p in template):
        raise PtxRefusal("the asm template is not a string literal")
    stmt.template = "".join(_c_string(src.tokens[src.code[p]].text) for p in template)
    if len(sections) > 4:
        raise PtxRefusal("too many ':' sections")
    for n, target in ((1, stmt.outputs), (2, stmt.inputs)):
        if len(sections) > n and sections[n] != [[]]:
            target += [_operand(src, item, changed) for item in sections[n]]
    if len(sections) > 3:
        stmt.clobbers = [_c_string(src.tokens[src.code[p]].text)
                         for item in sections[3] for p in item]
    return stmt


def _operand(src: Source, item: list[int], changed) -> Operand:
    toks = [src.tokens[src.code[p]] for p in item]
    if not toks:
        raise PtxRefusal("an empty asm operand")
    if toks[0].is_punct("["):
        raise PtxRefusal("symbolic operand names ([name]) are not supported")
    if toks[0].kind != STRING or len(toks) < 3 or not toks[1].is_punct("(") \
            or not toks[-1].is_punct(")"):
        raise PtxRefusal("an asm operand is not \"constraint\"(expression)")
    lo, hi = src.code[item[2]], src.code[item[-1]]
    expression = "".join(changed.get(i, src.tokens[i].text) for i in range(lo, hi))
    return Operand(_c_string(toks[0].text), f"({expression.strip()})")


_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "r": "\r", "0": "\0"}


def _c_string(literal: str) -> str:
    """The characters of a plain C string literal (the escapes PTX templates use)."""
    if not literal.startswith('"'):
        raise PtxRefusal("string literals with a prefix are not supported")
    body, out, i = literal[1:-1], [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt == "\n":
                i += 2
                continue
            if nxt not in _ESCAPES:
                raise PtxRefusal(f"escape \\{nxt} in the asm template is not supported")
            out.append(_ESCAPES[nxt])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _device_positions(src: Source) -> set[int]:
    found: set[int] = set()
    for first, last in src.device_bodies():
        found.update(range(first, last + 1))
    return found


def _looks_like_ptx(src: Source, pos: int) -> bool:
    """Outside device functions (host code may hold x86 asm), only a template that reads as
    PTX is reported."""
    after = src.next(src.code[pos])
    template = [t for t in src.tokens[src.code[pos]:] if t.kind == STRING][:1]
    if after is None or not template:
        return False
    try:
        parse(_c_string(template[0].text))
        return True
    except PtxRefusal:
        return False
