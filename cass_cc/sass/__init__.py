"""SASS: nvdisasm's text (disasm), the lark grammar and its parser (sass.lark, parser), the
instruction objects (model) and the compact text CASS's models take (normalize)."""

from .disasm import disassemble, split_sections
from .model import ConstRef, Imm, Instruction, Label, Mem, Reg, SymbolRef
from .normalize import compact_text
from .parser import ParsedSass, SassSyntaxError, parse_sass

__all__ = ["disassemble", "split_sections", "ConstRef", "Imm", "Instruction", "Label", "Mem", "Reg",
           "SymbolRef", "compact_text", "ParsedSass", "SassSyntaxError", "parse_sass"]
