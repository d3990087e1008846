"""Decoding: llvm-objdump-22's disassembly of a code object, parsed by the grammar in asm.lark,
into Instr objects (one per instruction, keyed by device address). Decoded once per code object.
Words llvm-objdump cannot print but the hardware runs (a permlane with stray modifier bits, as
hipcc 5.2 emits it) go through a fallback first."""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import re
import struct
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from lark import Lark, Transformer
from lark.exceptions import LarkError

from .. import toolchain
from ..errors import CassError
from ..fsutil import atomic_write_bytes
from ..rdna3.code_object import CodeObject
from ..targets import TARGETS
from .fault import EmuFault
from .isa_names import NAMES_VERSION, NO_OP_PATTERN, gfx11_mnemonic, swaps_data

DECODE_FORMAT = 14      # bump when Instr, the grammar or the fallback changes, so cached decodings are rebuilt

# gfx11 scalar operand numbers of the named registers (ttmp<n> is TTMP_BASE + n)
TTMP_BASE = 108
# CDNA's accumulation registers a<n> are VGPRs AGPR_BASE + n here (after the 256 architected ones)
AGPR_BASE = 256
SPECIAL_SGPRS = {"vcc_lo": 106, "vcc_hi": 107, "vcc": 106, "null": 124, "m0": 125,
                 "exec_lo": 126, "exec_hi": 127, "exec": 126,
                 # GFX9's (GFX9 has 102 SGPRs, so these numbers hold no other register there)
                 "flat_scratch_lo": 102, "flat_scratch_hi": 103, "flat_scratch": 102,
                 "xnack_mask_lo": 104, "xnack_mask_hi": 105, "xnack_mask": 104}
APERTURE_REGS = ("src_shared_base", "src_shared_limit", "src_private_base", "src_private_limit")
# instructions with no architectural effect in a functional emulator
NO_OPS = re.compile(rf"^({NO_OP_PATTERN}|s_waitcnt\w*|s_delay_alu|s_clause|s_nop|s_sendmsg|s_sendmsghalt|s_setprio|s_sleep|"
                    r"s_icache_inv|s_set_inst_prefetch_distance|s_inst_prefetch|s_ttracedata\w*|"
                    r"buffer_gl[01]_inv|buffer_wbinvl1\w*|s_dcache_inv|s_gl1_inv|s_wait_idle|"
                    r"s_waitcnt_depctr|s_version|s_code_end|"
                    r"s_trap_nop|s_sethalt_nop)$")


@dataclass
class Operand:
    """One operand. kind: "v" (VGPR), "s" (SGPR incl. vcc/m0/exec/null), "imm" (inline constant or
    literal: `value` is the printed number, `is_float` when printed as a float), "scc", "aperture",
    "off", "call" (hwreg(...), value holds the args), "vlist" (an image's NSA address: `value`
    lists the VGPRs)."""
    kind: str
    reg: int = 0
    count: int = 1
    value: object = None
    is_float: bool = False
    neg: bool = False
    abs: bool = False
    hi: bool | None = None     # true16 half: .h -> True, .l -> False, not printed -> None
    name: str = ""
    sext: bool = False         # SDWA's sext(...): the selected byte or word is sign-extended


@dataclass
class Instr:
    pc: int
    size: int
    text: str
    mnemonic: str
    operands: list[Operand] = field(default_factory=list)
    mods: dict = field(default_factory=dict)
    dual: tuple["Instr", "Instr"] | None = None   # VOPD halves
    target: int | None = None                     # branch target (device address)
    function: str = ""                            # symbol the instruction belongs to
    error: str = ""                               # why the text could not be read, if it could not
    isa: str = "gfx11"                            # the generation it was decoded for (targets.py)


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    # the transformer runs inside the LALR parser: no parse tree is built
    return Lark(Path(__file__).with_name("asm.lark").read_text(), parser="lalr", transformer=_ToOperands())


@functools.lru_cache(maxsize=65536)
def _operands(text: str) -> tuple[list[Operand], dict]:
    """The operands and modifiers of one instruction's operand text. Kernels repeat the same
    text often (waits, moves, loop bodies); the Operand objects are shared, never changed once
    read."""
    return _parser().parse(text)


class _ToOperands(Transformer):
    def start(self, items):
        ops = [i for i in items if isinstance(i, Operand)]
        mods = dict(i for i in items if isinstance(i, tuple))
        return ops, mods

    def name(self, items):
        return _named(str(items[0]))

    def reg_range(self, items):
        kind, lo, hi = str(items[0]), int(items[1]), int(items[2])
        if kind not in ("v", "s", "ttmp", "a"):
            raise ValueError(f"unknown register range {kind}[{lo}:{hi}]")
        base = TTMP_BASE + lo if kind == "ttmp" else AGPR_BASE + lo if kind == "a" else lo
        return Operand("v" if kind in ("v", "a") else "s", base, hi - lo + 1)

    def reg_list(self, items):
        """The NSA form of an image address, [v0, v0, v5]: kind "vlist", value the VGPR numbers."""
        regs = [_named(str(i)) for i in items]
        if any(r.kind != "v" for r in regs):
            raise ValueError(f"an address list of other than VGPRs: {[str(i) for i in items]}")
        return Operand("vlist", regs[0].reg, len(regs), value=[r.reg for r in regs])

    def half(self, items):
        op = _named(str(items[0]))
        op.hi = str(items[1]) == "h"
        return op

    def int(self, items):
        return Operand("imm", value=int(items[0]))

    def hex(self, items):
        return Operand("imm", value=int(str(items[0]), 16))

    def float(self, items):
        return Operand("imm", value=float(items[0]), is_float=True)

    def string(self, items):
        return Operand("imm", value=str(items[0])[1:-1])

    def neg(self, items):
        op = items[-1]
        if op.kind == "imm" and not isinstance(op.value, str):
            op.value = -op.value
        else:
            op.neg = not op.neg
        return op

    def abs(self, items):
        op = items[-1]
        op.abs = True
        return op

    def neg_abs(self, items):
        op = items[-1]
        op.abs = True
        op.neg = True
        return op

    def call(self, items):
        fn = str(items[0])
        args = [a for a in items[1:] if a is not None]
        if fn == "lit":
            return args[0]
        if fn == "sext" and len(args) == 1 and isinstance(args[0], Operand):
            args[0].sext = True
            return args[0]
        return Operand("call", value=[a.value if isinstance(a, Operand) and a.kind == "imm" else
                                      (a.name or a) for a in args], name=fn)

    def list(self, items):
        return [i.value if i.kind == "imm" else i.name for i in items]

    def flag(self, items):
        return (str(items[0]), True)

    def keyed(self, items):
        value = items[1]
        if isinstance(value, Operand):
            value = value if value.kind == "call" else (value.value if value.kind == "imm" else value.name)
        return (str(items[0]), value)


def _named(name: str) -> Operand:
    m = re.fullmatch(r"([vs])(\d+)", name)
    if m:
        return Operand(m.group(1), int(m.group(2)), 1, name=name)
    m = re.fullmatch(r"a(\d+)", name)
    if m:
        return Operand("v", AGPR_BASE + int(m.group(1)), 1, name=name)
    m = re.fullmatch(r"ttmp(\d+)", name)
    if m:
        return Operand("s", TTMP_BASE + int(m.group(1)), 1, name=name)
    if name in SPECIAL_SGPRS:
        return Operand("s", SPECIAL_SGPRS[name], 2 if name in ("vcc", "exec", "flat_scratch", "xnack_mask") else 1,
                       name=name)
    if name == "scc":
        return Operand("scc", name=name)
    if name in APERTURE_REGS:
        return Operand("aperture", name=name)
    if name == "off":
        return Operand("off", name=name)
    return Operand("sym", name=name)


_LINE = re.compile(r"^\s+(?P<asm>.*?)\s*//\s*(?P<addr>[0-9A-Fa-f]+):\s*(?P<words>(?:[0-9A-Fa-f]{8}\s?)+)"
                   r"(?:\s*<(?P<label>[^>]*)>)?\s*$")
_FUNC = re.compile(r"^[0-9a-fA-F]+ <(?P<name>[^>]+)>:$")


def parse_instruction(asm: str, pc: int, size: int) -> Instr:
    """One instruction's text -> Instr; text it cannot read gives an Instr whose `error` says why
    (the emulator reports it as a decode fault when the instruction is executed)."""
    asm = asm.strip()
    if "::" in asm:
        halves = [parse_instruction(part, pc, size) for part in asm.split("::")]
        return Instr(pc, size, asm, "v_dual", dual=(halves[0], halves[1]))
    mnemonic, _, rest = asm.partition(" ")
    if NO_OPS.match(mnemonic):
        return Instr(pc, size, asm, mnemonic)
    try:
        ops, mods = _operands(rest)
    except (LarkError, ValueError) as e:   # reported if the instruction is ever executed
        return Instr(pc, size, asm, mnemonic, error=f"cannot read the operands: {str(e).splitlines()[0]}")
    return Instr(pc, size, asm, mnemonic, ops, mods)


def disassemble(data: bytes) -> str:
    """llvm-objdump-22 -d text of a code object, decoded for the processor its ELF header names
    (encodings differ between ISA generations)."""
    processor = CodeObject(data).processor
    tmp = tempfile.mkdtemp(prefix="cass-emu-")
    path = os.path.join(tmp, "code.hsaco")
    try:
        with open(path, "wb") as f:
            f.write(data)
        proc = subprocess.run([toolchain.path("llvm-objdump"), "-d", f"--mcpu={processor}", path],
                              capture_output=True, text=True)
    finally:
        if os.path.exists(path):
            os.unlink(path)
        os.rmdir(tmp)
    if proc.returncode != 0:
        raise EmuFault("decode", f"llvm-objdump failed: {proc.stderr.strip()}")
    return proc.stdout


# Words llvm-objdump prints as `.long` that the fallback reads: VOP3 v_permlane16_b32 and
# v_permlanex16_b32 with ABS, NEG or OMOD bits set. The RDNA2 and RDNA3 ISA guides say these fields
# "should all be zeroed for this instruction" (its sources are lane selects, not floats); LLVM 15,
# hipcc 5.2's compiler, sets them next to op_sel (fi, bound_ctrl; LLVM issue 59547), and LLVM 22's
# disassembler refuses such words. With them cleared the words are exactly llvm-mc-22's encoding
# of the instruction, which the emulator then runs with its op_sel. Their VOP3 opcodes, per ISA.
_VOP3 = 0b110101
_PERMLANE_OPCODES = {"gfx11": (0x25B, 0x25C), "gfx10.3": (0x377, 0x378)}
_ABS_BITS = 0x0000_0700          # first word, bits 10:8
_NEG_OMOD_BITS = 0xF800_0000     # second word, bits 31:27
_LONG = re.compile(r"^\s+\.long\s+0x([0-9a-fA-F]{8})\s*//\s*([0-9A-Fa-f]+):")


def without_stray_modifiers(first: int, second: int, isa: str = "gfx11") -> tuple[int, int] | None:
    """The two words of a permlane of `isa` with its ABS/NEG/OMOD fields cleared; None for other
    words."""
    if first >> 26 != _VOP3 or (first >> 16) & 0x3FF not in _PERMLANE_OPCODES.get(isa, ()):
        return None
    return first & ~_ABS_BITS & 0xFFFF_FFFF, second & ~_NEG_OMOD_BITS & 0xFFFF_FFFF


def _repaired(data: bytes, text: str) -> bytes | None:
    """The code object with the stray modifier bits of every refused permlane cleared, or None
    when its disassembly has no such word."""
    try:
        code = CodeObject(data)
    except CassError:
        return None
    target = TARGETS.get(code.processor)
    if target is None:
        return None
    patched = None
    for line in text.splitlines():
        m = _LONG.match(line)
        if not m:
            continue
        offset = code.file_offset(int(m.group(2), 16))
        if offset is None or offset + 8 > len(data):
            continue
        first, second = struct.unpack_from("<II", data, offset)
        fixed = without_stray_modifiers(first, second, target.isa)
        if fixed is not None:
            patched = patched if patched is not None else bytearray(data)
            struct.pack_into("<II", patched, offset, *fixed)
    return bytes(patched) if patched is not None else None


def disassemble_with_fallback(data: bytes) -> str:
    """llvm-objdump's text, after the fallback has cleared what makes it refuse a permlane."""
    text = disassemble(data)
    if ".long" not in text:
        return text
    repaired = _repaired(data, text)
    return disassemble(repaired) if repaired is not None else text


def decode(data: bytes, base: int) -> dict[int, Instr]:
    """Every instruction of the code object's .text, keyed by device address (base + vaddr)."""
    return {base + vaddr: replace(i, pc=base + vaddr, target=None if i.target is None else base + i.target)
            for vaddr, i in _decoded(data).items()}


_MEMORY_CACHE: dict[str, dict[int, Instr]] = {}


def _decoded(data: bytes) -> dict[int, Instr]:
    """Instructions keyed by ELF address; cached in the process and on disk by content hash."""
    key = hashlib.sha256(bytes(data)).hexdigest()
    if key in _MEMORY_CACHE:
        return _MEMORY_CACHE[key]
    path = toolchain.cache_root() / "emu-decode" / f"{key}-{DECODE_FORMAT}-{NAMES_VERSION}.pickle"
    table = None
    if path.is_file():
        try:
            table = pickle.loads(path.read_bytes())
        except Exception:       # a stale or damaged entry is rebuilt
            table = None
    if table is None:
        table = _decode_text(disassemble_with_fallback(data), TARGETS[CodeObject(data).processor].isa)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(str(path), pickle.dumps(table))
    _MEMORY_CACHE[key] = table
    return table


def _decode_text(text: str, isa: str) -> dict[int, Instr]:
    """llvm-objdump's text of a code object for the ISA generation `isa` -> instructions, named
    as the emulator's gfx11 tables name them."""
    program: dict[int, Instr] = {}
    function = ""
    for line in text.splitlines():
        fm = _FUNC.match(line)
        if fm:
            function = fm.group("name")
            continue
        m = _LINE.match(line)
        if not m:
            continue
        pc = int(m.group("addr"), 16)
        size = 4 * len(m.group("words").split())
        asm = m.group("asm")
        if asm.startswith("<unknown>") or asm.startswith(".long"):
            program[pc] = Instr(pc, size, asm, "<unknown>", function=function)
            continue
        instr = parse_instruction(asm, pc, size)
        instr.function = function
        instr.isa = isa
        if swaps_data(instr.mnemonic, isa) and len(instr.operands) >= 2:
            instr.operands = [*instr.operands[:-2], instr.operands[-1], instr.operands[-2]]
        for part in (instr, *(instr.dual or ())):
            part.mnemonic = gfx11_mnemonic(part.mnemonic, isa)
        if instr.mnemonic.startswith(("s_branch", "s_cbranch")) and instr.operands:
            simm = instr.operands[0].value & 0xFFFF
            simm = simm - 0x10000 if simm & 0x8000 else simm
            instr.target = pc + 4 + 4 * simm
        program[pc] = instr
    return program
