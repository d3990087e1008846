"""The layout of the device heap (malloc/free in kernels), read from its one definition: the
CASS_HEAP_* #defines of cass_device_heap.h, the header hipcc compiles into source-route code
and libcassrt (cassrt/cuda_launch.c) includes. The lifter's allocator
(cass_cc/passes/lift/device_runtime.py) and the emulated runtime take the numbers from here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HEADER = Path(__file__).resolve().with_name("cass_device_heap.h")

# `#define NAME body`, a trailing /* comment */ left out; a '(' right after the name makes it
# function-like (C's alone: not read)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(CASS_HEAP_\w+)(\(?)[ \t]*(.*?)[ \t]*(?:/\*.*)?$", re.M)
_INTEGER_SUFFIX = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b")
_OPERATORS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
              ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b,
              ast.BitOr: lambda a, b: a | b, ast.BitAnd: lambda a, b: a & b}


def read_defines(text: str) -> dict[str, int | str]:
    """The object-like CASS_HEAP_* #defines of a header: each a string literal or an integer
    expression of numbers (C's u/l suffixes allowed), earlier names, + - * << >> | & and
    parentheses. Anything else is an error, not a guess."""
    values: dict[str, int | str] = {}
    for name, function_like, body in _DEFINE.findall(text):
        if not function_like:
            values[name] = _evaluate(name, _INTEGER_SUFFIX.sub(r"\1", body), values)
    return values


def _evaluate(name: str, body: str, known: dict[str, int | str]) -> int | str:
    def value(node: ast.AST) -> int | str:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, str)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name) and isinstance(known.get(node.id), int):
            return known[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            left, right = value(node.left), value(node.right)
            if isinstance(left, int) and isinstance(right, int):
                return _OPERATORS[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(value(node.operand), int):
            return -value(node.operand)
        raise ValueError(f"{HEADER.name}: #define {name} {body}: not a number or string this reader knows")
    try:
        tree = ast.parse(body, mode="eval")
    except SyntaxError:
        raise ValueError(f"{HEADER.name}: #define {name} {body}: not a number or string this reader knows") from None
    return value(tree.body)


LAYOUT = read_defines(HEADER.read_text())
VARIABLE: str = LAYOUT["CASS_HEAP_VARIABLE"]      # {u64 base, u64 size}, which libcassrt writes
CLASSES: int = LAYOUT["CASS_HEAP_CLASSES"]        # size classes: blocks of 2^MIN_SHIFT .. 2^MAX_SHIFT bytes
LISTS: int = LAYOUT["CASS_HEAP_LISTS"]            # free lists per class: one per lane of a wave32
MIN_SHIFT: int = LAYOUT["CASS_HEAP_MIN_SHIFT"]
MAX_SHIFT: int = LAYOUT["CASS_HEAP_MAX_SHIFT"]
BLOCK_HEADER: int = LAYOUT["CASS_HEAP_BLOCK_HEADER"]   # a block's class at 0, its next free block at NEXT_FREE
NEXT_FREE: int = LAYOUT["CASS_HEAP_NEXT_FREE"]
OFFSET_SHIFT: int = LAYOUT["CASS_HEAP_OFFSET_SHIFT"]   # a list head: block offset >> OFFSET_SHIFT | ABA tag << 32
LIST_HEADS: int = LAYOUT["CASS_HEAP_LIST_HEADS"]       # the bump offset (u64) at 0, the list heads from here
HEAD_BYTES: int = LAYOUT["CASS_HEAP_HEAD"]             # the blocks start here
RESERVED: int = LAYOUT["CASS_HEAP_RESERVED"]           # zeroed at the heap's start
DEFAULT_LIMIT: int = LAYOUT["CASS_HEAP_DEFAULT_LIMIT"]  # cudaLimitMallocHeapSize by default

if not HEAD_BYTES <= RESERVED or BLOCK_HEADER != 1 << OFFSET_SHIFT:
    raise ValueError(f"{HEADER.name}: the list heads must fit the reserved bytes, and blocks start "
                     "at multiples of the header size that list heads count in")
