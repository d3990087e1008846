"""What `cass-run --check` compares: one memory region as the translated kernel left it against
the same region as the reference left it, element by element when the kernel's signature says
what the region holds.

Element types come from the kernel's C++ signature (its demangled name): a pointer parameter
`float*` that points into a region makes the region, from that pointer on, an array of float.
Floating-point elements (half, float, double and their vector types) are equal within
|a - b| <= atol + rtol * |b| (NaN equals NaN), and every element that differs within that
tolerance is counted and reported; everything else (integers, structs, bytes no parameter
describes) compares bit for bit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

# C++ scalar spellings (as cass_cc.demangle writes them) -> numpy type
SCALARS = {
    "float": "f4", "double": "f8", "__half": "f2", "half": "f2", "_Float16": "f2",
    "int": "i4", "unsigned int": "u4", "short": "i2", "unsigned short": "u2",
    "long": "i8", "unsigned long": "u8", "long long": "i8", "unsigned long long": "u8",
    "char": "i1", "signed char": "i1", "unsigned char": "u1", "bool": "u1",
    "int8_t": "i1", "uint8_t": "u1", "int16_t": "i2", "uint16_t": "u2", "int32_t": "i4",
    "uint32_t": "u4", "int64_t": "i8", "uint64_t": "u8", "size_t": "u8",
}
# CUDA vector types: float4 = 4 floats, uchar2 = 2 unsigned chars, ...
VECTOR_BASES = {"float": "f4", "double": "f8", "int": "i4", "uint": "u4", "short": "i2",
                "ushort": "u2", "char": "i1", "uchar": "u1", "long": "i8", "ulong": "u8",
                "longlong": "i8", "ulonglong": "u8", "half": "f2", "__half": "f2"}
QUALIFIERS = re.compile(r"\b(const|volatile|__restrict__|__restrict|restrict)\b")
VECTOR = re.compile(r"(\w+?)([1-4])$")
MAX_REPORTED = 4  # differing regions described per launch


@dataclass(frozen=True)
class ElementType:
    name: str        # as the signature spells it: "float", "int2"
    dtype: str       # numpy type of one component
    components: int  # 1, or 2..4 for vector types

    @property
    def size(self) -> int:
        return np.dtype(self.dtype).itemsize * self.components

    @property
    def floating(self) -> bool:
        return np.dtype(self.dtype).kind == "f"


@dataclass(frozen=True)
class View:
    """How one region is read: from byte `start` on, elements of `etype`; `label` names the
    region for the report ("argument 2 (float*)", "device variable 'table'")."""
    label: str
    etype: ElementType | None = None
    start: int = 0


@dataclass
class Outcome:
    """One region's comparison: `difference` describes the first element that differs beyond
    the tolerance (None when there is none); `tolerated` counts float elements that differ
    within it, `max_relative` the largest relative difference among those."""
    difference: str | None = None
    differing: int = 0
    tolerated: int = 0
    max_relative: float = 0.0


def element_type(spelling: str) -> ElementType | None:
    """The element type of a pointer parameter's spelling ('float const*' -> float), or None
    when it is not a pointer to a type this module knows (structs, pointers to pointers)."""
    text = " ".join(QUALIFIERS.sub(" ", spelling).split())
    if not text.endswith("*") or text[:-1].rstrip().endswith("*"):
        return None
    base = text[:-1].strip()
    if base in SCALARS:
        return ElementType(base, SCALARS[base], 1)
    m = VECTOR.fullmatch(base)
    if m and m[1] in VECTOR_BASES:
        return ElementType(base, VECTOR_BASES[m[1]], int(m[2]))
    return None


def parameter_spellings(demangled: str) -> list[str] | None:
    """The parameter list of a demangled function name ('k(float*, int)' -> ['float*', 'int']),
    None when it has none that can be read."""
    end = demangled.rfind(")")
    if end < 0:
        return None
    depth, start = 0, -1
    for i in range(end, -1, -1):
        depth += {")": 1, "(": -1}.get(demangled[i], 0)
        if depth == 0:
            start = i
            break
    if start < 0:
        return None
    inner = demangled[start + 1:end]
    params, depth, current = [], 0, ""
    for ch in inner:
        depth += {"<": 1, "(": 1, "[": 1, ">": -1, ")": -1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            params.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        params.append(current.strip())
    return [] if params == ["void"] else params


def base_name(demangled: str) -> str:
    """A function's C++ name without return type, template arguments and parameters:
    'void ns::k<int>(int*)' -> 'ns::k'."""
    head = demangled.split("(", 1)[0]
    depth, out = 0, ""
    for ch in head:
        depth += {"<": 1, ">": -1}.get(ch, 0)
        if depth == 0 and ch != ">":
            out += ch
    words = out.split()
    return words[-1] if words else ""


def _format(value) -> str:
    """A value as its own type prints it: the shortest text that reads back to it."""
    return str(value)


def _bytes_difference(a: np.ndarray, b: np.ndarray, offset: int, lo: int) -> tuple[str, int]:
    diff = np.flatnonzero(a != b)
    at = int(diff[0])
    return (f"byte offset {lo + at - offset} from the buffer's start: translated {int(a[at]):#04x}, "
            f"reference {int(b[at]):#04x}", len(diff))


WORD = ElementType("32-bit word", "u4", 1)
BYTE = ElementType("byte", "u1", 1)


def _sorted(data: np.ndarray, start: int, etype: ElementType) -> np.ndarray:
    """`data` with its elements from `start` on in ascending order (by the first component,
    then the next), the bytes before and after them as they were."""
    count = (len(data) - start) // etype.size
    out = data.copy()
    if count:
        hi = start + count * etype.size
        rows = data[start:hi].view(etype.dtype).reshape(count, etype.components)
        order = np.lexsort(rows.T[::-1])
        out[start:hi] = np.ascontiguousarray(rows[order]).reshape(-1).view(np.uint8)
    return out


def compare(translated: np.ndarray, reference: np.ndarray, view: View, rtol: float,
            atol: float, order_free: bool = False) -> Outcome:
    """Compare two uint8 copies of one region (equal lengths). `order_free` (a kernel whose
    results may come in another order, asked for by the user) compares the sorted elements:
    the same values, in any order; a region of unknown type counts as 32-bit words then (bytes
    when its size is not a multiple of 4)."""
    if order_free:
        etype = view.etype or (WORD if (len(translated) - view.start) % 4 == 0 else BYTE)
        view = View(view.label, etype, view.start)
        translated, reference = _sorted(translated, view.start, etype), _sorted(reference, view.start, etype)
    out = _compare(translated, reference, view, rtol, atol)
    if order_free and out.difference:
        out.difference = f"(order-free: both sorted) {out.difference}"
    return out


def _compare(translated: np.ndarray, reference: np.ndarray, view: View, rtol: float, atol: float) -> Outcome:
    out = Outcome()
    if np.array_equal(translated, reference):
        return out
    etype, n = view.etype, len(translated)
    count = (n - view.start) // etype.size if etype and view.start < n else 0
    lo, hi = view.start, view.start + count * (etype.size if etype else 0)
    # bytes outside the typed elements: exact
    for a, b, first in ((translated[:lo], reference[:lo], 0), (translated[hi:], reference[hi:], hi)):
        if not np.array_equal(a, b):
            text, k = _bytes_difference(a, b, 0, first)
            out.differing += k
            out.difference = out.difference or text
    if count == 0:
        return out
    ta = translated[lo:hi].view(etype.dtype).reshape(count, etype.components)
    ra = reference[lo:hi].view(etype.dtype).reshape(count, etype.components)
    bits = translated[lo:hi].reshape(count, etype.size) != reference[lo:hi].reshape(count, etype.size)
    unequal = bits.any(axis=1)
    if etype.floating:
        t64, r64 = ta.astype(np.float64), ra.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            close = (np.abs(t64 - r64) <= atol + rtol * np.abs(r64)) | (np.isnan(t64) & np.isnan(r64))
        close_el = close.all(axis=1)
        bad = unequal & ~close_el
        tolerated = unequal & close_el
        out.tolerated = int(tolerated.sum())
        if out.tolerated:
            with np.errstate(invalid="ignore", divide="ignore"):
                rel = np.abs(t64 - r64) / np.maximum(np.abs(r64), np.finfo(np.float64).tiny)
            out.max_relative = float(np.nanmax(np.where(tolerated[:, None], rel, 0.0)))
    else:
        bad = unequal
    index = np.flatnonzero(bad)
    out.differing += len(index)
    if len(index) and out.difference is None:
        i = int(index[0])
        lanes = np.flatnonzero(bits[i].reshape(etype.components, -1).any(axis=1)) if etype.components > 1 else [0]
        c = int(lanes[0])
        comp = f".{'xyzw'[c]}" if etype.components > 1 else ""
        out.difference = (f"element [{i}]{comp} ({etype.name}, byte offset {lo + i * etype.size}): "
                          f"translated {_format(ta[i, c])}, reference {_format(ra[i, c])}")
    return out
