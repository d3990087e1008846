"""The compact SASS text that CASS's models take: one instruction per line without addresses,
encodings or comments, labels kept (as `.L_x_N:` lines) so branches stay readable."""

from __future__ import annotations

import re

from .model import Instruction


def compact_text(instructions: list[Instruction], labels: dict[str, int]) -> str:
    by_address: dict[int, list[str]] = {}
    for name, address in labels.items():
        if name.startswith(".L_"):
            by_address.setdefault(address, []).append(name)
    used = {op.name for ins in instructions for op in ins.operands if hasattr(op, "name") and
            type(op).__name__ == "Label"}
    used |= {t.name for ins in instructions for t in ins.extras.get("branch_targets", [])}
    lines = []
    for ins in instructions:
        for name in by_address.get(ins.address, []):
            if name in used:
                lines.append(f"{name}:")
        lines.append(_instruction_text(ins))
    return "\n".join(lines) + "\n"


def _instruction_text(ins: Instruction) -> str:
    text = re.sub(r"\(\*.*?\*\)", "", ins.text)   # nvdisasm's annotations
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s*;$", "", text)
    return text.replace(" ,", ",") + " ;"
