"""disasm: the kernel's cubin through nvdisasm -> unit.sass_text (its `.text.<name>` section)."""

from __future__ import annotations

from cass_cc.errors import ToolVerdict, UnsupportedFeature
from cass_cc.sass.disasm import disassemble
from cass_cc.unit import KernelUnit

NAME = "disasm"


def run(unit: KernelUnit) -> KernelUnit:
    cubin = getattr(unit.kernel, "cubin", None)
    if cubin is None:
        raise UnsupportedFeature("no cubin to disassemble")
    sections = disassemble(cubin.data)
    if unit.name not in sections:
        raise ToolVerdict(f"nvdisasm printed no .text.{unit.name} section")
    unit.sass_text = sections[unit.name]
    return unit
