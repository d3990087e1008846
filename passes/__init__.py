"""The translation passes and the pipelines, as data (Triton-style stages).

Each pass is a module with NAME and run(unit) -> unit (cass_cc.pipeline runs them). The lifter
(passes/lift) comes in as the `lift` stage; when it cannot be imported the stage refuses every
kernel with "lift: not available" instead of failing the whole translation.
"""

from __future__ import annotations

from . import disasm, extract, normalize, parse
from .extract import units_from_file

FRONT_END = [extract, disasm, parse, normalize]

__all__ = ["FRONT_END", "units_from_file"]
