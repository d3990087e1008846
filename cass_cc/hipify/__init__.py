"""cass-cc's CUDA->HIP source translator.

    res = translate(text, filename)
    res.text, res.diagnostics, res.compat_header, res.kernels

It rewrites tokens, never text inside strings or comments, from data tables by API family
(hipify/tables), and inline PTX asm statements into HIP C++ (inline_asm); what it cannot
translate becomes a `file:line: warning: ...` diagnostic.
"""

from __future__ import annotations

from pathlib import Path

from . import checks, inline_asm, launches, rewrite, tables
from .lexer import HEADER, IDENT, LexError
from .result import Diagnostic, HipifyResult
from .source import Source

__all__ = ["translate", "runtime_name_macros", "HipifyResult", "Diagnostic", "COMPAT_HEADER"]

COMPAT_HEADER = str(Path(__file__).resolve().parent / "cass_hip_compat.h")
# Device malloc/free/new/delete for gfx11 (ROCm 5.2's own allocator cannot be compiled for it).
DEVICE_HEAP_HEADER = str(Path(__file__).resolve().parent.parent / "runtime" / "cass_device_heap.h")
_ALLOCATING = frozenset(("malloc", "free", "new", "delete"))


def translate(text: str, filename: str, kernel_entry: str | None = None) -> HipifyResult:
    """The HIP translation of the CUDA source `text` (named `filename` in diagnostics).
    `kernel_entry`: a statement written first in every kernel body, on the line of its `{`, and
    threadIdx and blockDim renamed to cass_threadIdx and cass_blockDim (the compatibility
    header defines them all: cass_wave_per_warp.h)."""
    try:
        src = Source(text, filename)
    except LexError as e:
        return HipifyResult(text, [Diagnostic(filename, e.line, e.column, "warning",
                                              f"{e}; the file is left untranslated")])
    changed = rewrite.apply(src)
    changed.update(launches.spaced_launches(src))
    entries = src.kernel_bodies() if kernel_entry else {}
    for brace in entries.values():
        changed[brace] = changed.get(brace, src.tokens[brace].text) + " " + kernel_entry
    if kernel_entry:
        changed.update(_thread_coordinates(src))
    asm = inline_asm.rewrite(src, changed)
    new_text = rewrite.render(src, changed, asm.replacements)
    if _allocates_in_device_code(src):
        # At the end, so no line moves: it defines the functions HIP's device malloc/free call.
        new_text += ("" if new_text.endswith("\n") else "\n") + f'#include "{DEVICE_HEAP_HEADER}"\n'
    compat = COMPAT_HEADER if asm.replacements or entries or _needs_compat(src, changed) else None
    return HipifyResult(new_text, _diagnostics(src, asm.refusals), compat, src.kernels(), sorted(entries))


# CUDA's thread coordinates, which the header that defines the kernel entry may read as CUDA's
# where the hardware's differ (cass_wave_per_warp.h).
THREAD_COORDINATES = {"threadIdx": "cass_threadIdx", "blockDim": "cass_blockDim"}


def _thread_coordinates(src: Source) -> dict[int, str]:
    """{token index: new name} for CUDA's threadIdx and blockDim, wherever they are not members
    (`p.blockDim` of a graph node's parameters) or being declared (a struct's `dim3 blockDim;`)."""
    return {index: THREAD_COORDINATES[src.tokens[index].text] for pos, index in enumerate(src.code)
            if src.tokens[index].kind == IDENT and src.tokens[index].text in THREAD_COORDINATES
            and not src.is_member(index) and src.qualifier(index) is None and not src.declares(pos)}


def runtime_name_macros() -> str:
    """`#define cudaX hipX` for each runtime function and type hipify renames: for the names the
    preprocessor makes after hipify has read the text (`cuda##fn` in a code base's error-check
    macro), included after the compatibility header."""
    return "".join(f"#define {old} {new.target}\n" for old, new in sorted(tables.RENAMES.items())
                   if new.family == "runtime")


def _diagnostics(src: Source, refusals: list[tuple[int, str]]) -> list[Diagnostic]:
    own = src.own_names()
    seen, found = set(), []
    reports = [refusals] + [check(src, own) for check in checks.CHECKS]
    for report in reports:
        for index, message in report:
            tok = src.tokens[index]
            if (tok.line, message) not in seen:
                seen.add((tok.line, message))
                found.append(Diagnostic(src.filename, tok.line, tok.column, "warning", message))
    return sorted(found, key=lambda d: (d.line, d.column))


def _allocates_in_device_code(src: Source) -> bool:
    for first, last in src.device_bodies():
        for pos in range(first, last + 1):
            index = src.code[pos]
            tok = src.tokens[index]
            if tok.kind == IDENT and tok.text in _ALLOCATING and not src.is_member(index) \
                    and src.qualifier(index) in (None, ""):
                return True
    return False


def _needs_compat(src: Source, changed: dict[int, str]) -> bool:
    """The TU names something only the compatibility header provides (or overloads), or it is
    a .cu file that counts on nvcc's implicit cuda_runtime.h, which the header stands in for."""
    if src.filename.endswith(".cu") and not any(
            changed.get(i, src.tokens[i].text)[1:-1] in tables.RUNTIME_HEADERS
            for i in src.headers()):
        return True
    for i in src.code:
        tok = src.tokens[i]
        if tok.kind == HEADER and (changed.get(i, "")[1:-1] in tables.HEADERS_NEEDING_COMPAT
                                   or tok.text[1:-1] in tables.CUDA_HEADERS_NEEDING_COMPAT):
            return True
        if tok.kind == IDENT and not src.is_member(i) and (
                tok.text in tables.COMPAT or changed.get(i) in tables.COMPAT_TARGETS):
            return True
    return False
