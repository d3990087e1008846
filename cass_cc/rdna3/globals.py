"""The "globals" module of a translation unit: the cubin's device variables (`.nv.global`,
`.nv.global.init`, `.nv.constant3`) as addrspace(1) definitions with their initial bytes and
their CUDA names. The lifted kernels declare them `external addrspace(1) global`."""

from __future__ import annotations

from ..fatbin import Variable
from .target import TRIPLE


def code_object_symbol(name: str) -> str:
    """The code object's name for a cubin variable. LLVM names anonymous globals `__unnamed_<n>`
    (ockl's, linked into lifted kernels, among them), and ptxas names some strings the same (the
    function name an assert prints): those variables get a prefix, so the two never meet."""
    return "__cass" + name if name.startswith("__unnamed_") else name


def _ir_name(name: str) -> str:
    return "@" + (name if name.replace("_", "a").replace(".", "a").isalnum() and not name[0].isdigit()
                  else '"' + name.replace("\\", "\\5C").replace('"', "\\22") + '"')


def _bytes(data: bytes) -> str:
    return 'c"' + "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\{b:02X}" for b in data) + '"'


# `__constant__` memory (constant bank 3) as one block: CUDA code reaches a constant variable
# through the generic address of the bank's start (c[0x0][0x50], cvta.const) plus the variable's
# offset in the bank, so the variables keep their bank offsets, as aliases into the block.
CONSTANT_BLOCK = "__cass_constant_bank3"


def _constant_block(variables: list[Variable]) -> list[str]:
    """The bank-3 block with every `__constant__` variable's bytes at its offset, and the
    variables as aliases at those offsets (the `.size` lines give each alias its own size)."""
    bank3 = {v.name: v for v in variables if v.bank == 3 and v.size}
    if not bank3:
        return []
    size = max(v.offset + v.size for v in bank3.values())
    data = bytearray(size)
    for v in bank3.values():
        data[v.offset:v.offset + v.size] = v.data
    init = _bytes(bytes(data)) if any(data) else "zeroinitializer"
    lines = [f"{_ir_name(CONSTANT_BLOCK)} = addrspace(1) global [{size} x i8] {init}, align 16"]
    for v in sorted(bank3.values(), key=lambda v: v.name):
        lines.append(f"{_ir_name(code_object_symbol(v.name))} = alias [{v.size} x i8], ptr addrspace(1) getelementptr "
                     f"(i8, ptr addrspace(1) {_ir_name(CONSTANT_BLOCK)}, i64 {v.offset})")
        lines.insert(0, f'module asm ".size \\22{code_object_symbol(v.name)}\\22, {v.size}"')
    return lines


def globals_module(variables: list[Variable], name: str = "globals") -> str:
    """LLVM IR text defining every variable (zero-initialised ones as zeroinitializer)."""
    lines = [f'; ModuleID = "{name}"', f'target triple = "{TRIPLE}"', ""]
    constants = _constant_block(variables)
    lines += constants
    seen = {v.name for v in variables if v.bank == 3} if constants else set()
    for v in sorted(variables, key=lambda v: v.name):
        if v.name in seen or v.size == 0:
            continue
        seen.add(v.name)
        init = _bytes(v.data) if any(v.data) else "zeroinitializer"
        align = 16 if v.size >= 16 else 8
        lines.append(f"{_ir_name(code_object_symbol(v.name))} = addrspace(1) global [{v.size} x i8] {init}, align {align}")
    lines += ["", "!llvm.module.flags = !{!0}", '!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}', ""]
    return "\n".join(lines)
