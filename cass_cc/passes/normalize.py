"""normalize: the compact SASS text CASS's models take (unit.sass_compact): addresses, encodings
and comments stripped, branch labels kept."""

from __future__ import annotations

from cass_cc.sass.normalize import compact_text
from cass_cc.unit import KernelUnit

NAME = "normalize"


def run(unit: KernelUnit) -> KernelUnit:
    unit.sass_compact = compact_text(unit.instructions, unit.sass_labels)
    return unit
