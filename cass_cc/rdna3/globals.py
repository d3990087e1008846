"""The "globals" module of a translation unit: the cubin's device variables (`.nv.global`,
`.nv.global.init`, `.nv.constant3`) as addrspace(1) definitions with their initial bytes and
their CUDA names. The lifted kernels declare them `external addrspace(1) global`."""

from __future__ import annotations

from ..fatbin import Variable
from .target import TRIPLE


def _ir_name(name: str) -> str:
    return "@" + (name if name.replace("_", "a").replace(".", "a").isalnum() and not name[0].isdigit()
                  else '"' + name.replace("\\", "\\5C").replace('"', "\\22") + '"')


def _bytes(data: bytes) -> str:
    return 'c"' + "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\{b:02X}" for b in data) + '"'


def globals_module(variables: list[Variable], name: str = "globals") -> str:
    """LLVM IR text defining every variable (zero-initialised ones as zeroinitializer)."""
    lines = [f'; ModuleID = "{name}"', f'target triple = "{TRIPLE}"', ""]
    seen = set()
    for v in sorted(variables, key=lambda v: v.name):
        if v.name in seen or v.size == 0:
            continue
        seen.add(v.name)
        init = _bytes(v.data) if any(v.data) else "zeroinitializer"
        align = 16 if v.size >= 16 else 8
        lines.append(f"{_ir_name(v.name)} = addrspace(1) global [{v.size} x i8] {init}, align {align}")
    lines += ["", "!llvm.module.flags = !{!0}", '!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}', ""]
    return "\n".join(lines)
