"""parse: unit.sass_text -> unit.instructions (cass_cc.sass.model), labels resolved."""

from __future__ import annotations

from cass_cc.errors import UnknownInstruction
from cass_cc.sass.parser import SassSyntaxError, parse_sass
from cass_cc.unit import KernelUnit

NAME = "parse"


def run(unit: KernelUnit) -> KernelUnit:
    try:
        parsed = parse_sass(unit.sass_text, unit.name)
    except SassSyntaxError as e:
        raise UnknownInstruction(e.message) from None
    unit.instructions = parsed.instructions
    unit.sass_instructions = len(parsed.instructions)
    unit.sass_labels = parsed.labels
    return unit


def prepare() -> None:
    """Build the grammar's parser ahead (lark takes a moment), e.g. while nvdisasm runs: an
    empty text parses to nothing."""
    parse_sass("")
