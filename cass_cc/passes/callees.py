"""callees: a kernel's instructions joined by those of the device functions it calls from other
`.text.<name>` sections (CALL.ABS, as nvlink's linked cubins of -rdc programs have them, and
`__noinline__` functions ptxas keeps apart).

Each function of the kernel's call closure (cubin.CubinKernel.callees) is disassembled and parsed
on its own, then placed at its own virtual address range after the kernel's code, so the lifter
sees one instruction list: CALL.ABS `(f)` becomes a call to f's first address, and the return
addresses nvcc materialises (`MOV R20, 32@lo((f + .L_x_0@srel))`) become those virtual
addresses, so the lifter's subroutine machinery (cass_cc/passes/lift/cfg.py) serves both kinds of calls.
"""

from __future__ import annotations

import dataclasses

from cass_cc.errors import ToolVerdict, UnknownInstruction
from cass_cc.sass.disasm import disassemble
from cass_cc.sass.model import Imm, Instruction, Label, Reg, SymbolRef
from cass_cc.sass.parser import SassSyntaxError, parse_sass
from cass_cc.unit import KernelUnit

NAME = "callees"
# Functions start on multiples of this: far apart, and an address still tells its function.
FUNCTION_ALIGN = 0x100000


def layout(kernel_size: int, callees: list[tuple[str, int]]) -> dict[str, int]:
    """Virtual start address of each callee (name, code size), after the kernel's code."""
    out, end = {}, kernel_size
    for name, size in callees:
        at = (end + FUNCTION_ALIGN - 1) // FUNCTION_ALIGN * FUNCTION_ALIGN
        out[name] = at
        end = at + max(size, 16)
    return out


def _moved(op, base: int, starts: dict[str, int], handles: dict[str, int]):
    """An operand of a function placed at `base`: its own labels shifted, calls to functions
    of the closure resolved, return addresses of the closure and the addresses of functions
    (their handles) made immediates."""
    if isinstance(op, SymbolRef) and not op.label and op.symbol in handles:
        value = handles[op.symbol] & 0xFFFFFFFF if op.part == "lo" else handles[op.symbol] >> 32
        return Imm(value, text=hex(value))
    if isinstance(op, Label):
        if op.address is not None:
            return Label(op.address + base, op.name)
        if op.name in starts:
            return Label(starts[op.name], op.name)
        return op
    if isinstance(op, SymbolRef) and op.symbol in starts and op.label and op.label_address is not None:
        address = starts[op.symbol] + op.label_address
        value = address & 0xFFFFFFFF if op.part == "lo" else address >> 32
        return Imm(value, text=hex(value))
    return op


def place(instructions: list[Instruction], base: int, starts: dict[str, int], handles: dict[str, int],
          pointed: list[tuple[int, int]], inside: list[tuple[int, int]] = (),
          indirect_branches: dict[int, list[int]] | None = None) -> list[Instruction]:
    """The instructions of one function moved to `base`; a BRX's targets (from the parser's
    annotation, else from the function's .nv.info) move with it; a call through a register gets
    the functions it may reach as extras["call_targets"], (pointer value, start) pairs: for
    CALL.ABS `pointed`, the address-taken functions placed here (their handles), for CALL.REL
    `inside`, the functions in the kernel's section (their offsets)."""
    out = []
    for ins in instructions:
        targets = (inside if "REL" in ins.modifiers else pointed) if ins.opcode == "CALL" else ()
        indirect = bool(targets) and any(isinstance(op, Reg) for op in ins.operands)
        if not base and not indirect and "branch_targets" not in ins.extras and \
                not any(isinstance(op, (Label, SymbolRef)) for op in ins.operands):
            out.append(ins)   # nothing to move
            continue
        operands = tuple(_moved(op, base, starts, handles) for op in ins.operands)
        extras = dict(ins.extras)
        if ins.opcode == "BRX" and "branch_targets" not in extras and ins.address in (indirect_branches or {}):
            extras["branch_targets"] = [Label(t) for t in indirect_branches[ins.address]]
        if "branch_targets" in extras:
            extras["branch_targets"] = [_moved(t, base, starts, handles) for t in extras["branch_targets"]]
        if indirect:
            extras["call_targets"] = list(targets)
        out.append(dataclasses.replace(ins, address=ins.address + base, operands=operands, extras=extras))
    return out


def run(unit: KernelUnit) -> KernelUnit:
    k = unit.kernel
    cubin = getattr(k, "cubin", None)
    names = list(getattr(k, "callees", []) or []) if cubin is not None else []
    functions = [cubin.functions[n] for n in names]
    starts = {unit.name: 0}
    if functions:
        starts.update(layout(len(k.code), [(f.name, len(f.code)) for f in functions]))
    handles = getattr(cubin, "function_handles", {}) if cubin is not None else {}
    taken = getattr(cubin, "address_taken", set()) if cubin is not None else set()
    pointed = [(handles[f.name], starts[f.name]) for f in functions if f.name in taken]
    # the kernel's own code: its return addresses; in a whole-program build, a function pointer is
    # the offset of a function inside the kernel's section
    inside = [(offset, offset) for _name, offset in getattr(k, "section_functions", [])]
    instructions = place(unit.instructions, 0, starts, handles, pointed, inside)
    if not functions:
        unit.instructions = instructions
        return unit
    sections = disassemble(cubin.data)
    labels = dict(unit.sass_labels)
    for f in functions:
        if f.name not in sections:
            raise ToolVerdict(f"nvdisasm printed no .text.{f.name} section (device function called by the kernel)")
        try:
            parsed = parse_sass(sections[f.name], f.name)
        except SassSyntaxError as e:
            raise UnknownInstruction(e.message) from None
        instructions += place(parsed.instructions, starts[f.name], starts, handles, pointed, (), f.indirect_branches)
        labels.update({name: a + starts[f.name] for name, a in parsed.labels.items()})
        labels[f.name] = starts[f.name]
    unit.instructions = instructions
    unit.sass_labels = labels
    unit.sass_instructions = len(instructions)
    return unit
