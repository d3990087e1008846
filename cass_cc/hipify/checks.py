"""What the translator cannot translate, reported as `file:line: warning: ...`: CUDA
names it does not know, texture references, warp-size assumptions, __CUDA_ARCH__ tests.
Each check reads the original tokens and yields (token index, message)."""

from __future__ import annotations

import re
from typing import Callable, Iterator

from . import tables
from .lexer import IDENT, NUMBER
from .rewrite import is_defined_test
from .source import Source

Check = Callable[[Source, set], Iterator[tuple[int, str]]]

# Names that claim to be CUDA's: runtime (cuda*), driver (cu*, CU*, CUDA_*), NVIDIA types (__nv_*).
_CUDA_NAME = re.compile(r"^(cuda[A-Z_0-9]|cu[A-Z]|CU[a-z]|CU_|CUDA_|CUDART_|__nv_|nv_bfloat|__cuda|"
                        r"make_cu)")
_LIBRARY_NAME = re.compile(r"^(cublas|CUBLAS_|curand|CURAND_|cufft|CUFFT_|cusparse|CUSPARSE_|"
                           r"cusolver|CUSOLVER_|cudnn|CUDNN_|nvrtc|NVRTC_|nccl)")
_LANE_MASK_FUNCS = frozenset("__ballot_sync __activemask __match_any_sync __match_all_sync".split())
_SHUFFLES = frozenset("__shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync".split())


def unknown_names(src: Source, own: set) -> Iterator[tuple[int, str]]:
    """CUDA-looking names in no table (and not the TU's own), each at its first use."""
    uses: dict[str, list[int]] = {}
    for index in src.code:
        tok = src.tokens[index]
        if (tok.kind == IDENT and tok.text not in own and not src.is_member(index)
                and src.qualifier(index) in (None, "") and not _macro_call(src, index)):
            uses.setdefault(tok.text, []).append(index)
    for name, indices in uses.items():
        message = _unknown_name_message(name)
        if message:
            more = f" ({len(indices)} uses)" if len(indices) > 1 else ""
            yield indices[0], message + more


def _macro_call(src: Source, index: int) -> bool:
    """`CUDA_CHECK(...)`: an upper-case name called like a function is a project's own macro
    (CUDA's upper-case names are constants and types, never called)."""
    after = src.next(index)
    name = src.tokens[index].text
    return name.isupper() and after is not None and after.is_punct("(")


def _unknown_name_message(name: str) -> str | None:
    if name in tables.UNSUPPORTED:
        return f"'{name}' has no HIP equivalent: {tables.UNSUPPORTED[name]}"
    if name in tables.DEVICE_MISSING:
        return f"'{name}' is a CUDA device function that HIP 5.2 lacks; it is left unchanged"
    if (name in tables.RENAMES or name in tables.KEEP or name in tables.COMPAT
            or name == tables.DEVICE_PASS_MACRO[0]):
        return None
    if _LIBRARY_NAME.match(name):
        why = next((w for p, w in tables.LIBRARY_UNSUPPORTED.items() if name.startswith(p)),
                   None)
        return f"'{name}' is not translated: {why}" if why else None
    if _CUDA_NAME.match(name):
        return f"'{name}' is not in the CUDA->HIP tables; it is left unchanged"
    return None


def device_launches(src: Source, own: set) -> Iterator[tuple[int, str]]:
    """Kernel launches inside device code: CUDA dynamic parallelism."""
    for first, last in src.device_bodies():
        for pos in range(first, last + 1):
            if src.tokens[src.code[pos]].is_punct("<<<"):
                yield src.code[pos], ("kernel launch from device code (CUDA dynamic parallelism) "
                                      "is not supported by HIP; launch from the host")


def unsupported_headers(src: Source, own: set) -> Iterator[tuple[int, str]]:
    prefix, prefix_reason = tables.HEADERS_UNSUPPORTED_PREFIX
    for index in src.headers():
        name = src.tokens[index].text[1:-1]
        why = tables.HEADERS_UNSUPPORTED.get(name) or (
            prefix_reason if name.startswith(prefix) and name not in tables.HEADERS else None)
        if why:
            yield index, f"header '{name}' is not translated: {why}"


def texture_references(src: Source, own: set) -> Iterator[tuple[int, str]]:
    for index in src.code:
        tok = src.tokens[index]
        after = src.next(index)
        if (tok.is_ident("texture", "surface") and not src.is_member(index)
                and after is not None and after.is_punct("<") and _declares_template(src, index)):
            yield index, (f"{tok.text} reference: HIP on AMD does not support {tok.text} "
                          f"references reliably; use {tok.text} objects "
                          f"(cuda{tok.text.capitalize()}Object_t)")


def cuda_arch(src: Source, own: set) -> Iterator[tuple[int, str]]:
    name, replacement = tables.DEVICE_PASS_MACRO
    for index in src.code:
        if not src.tokens[index].is_ident(name):
            continue
        if is_defined_test(src, index):
            yield index, (f"{name} test rewritten to {replacement}: it selects device code, "
                          f"but no NVIDIA architecture")
        else:
            yield index, (f"{name} compared as a number: the device pass takes the code for "
                          f"sm_{tables.ARCH_NUMBER // 10} ({tables.ARCH_NUMBER_MACRO[1]} = "
                          f"{tables.ARCH_NUMBER}, the features HIP provides); check that path")


def warp_size(src: Source, own: set) -> Iterator[tuple[int, str]]:
    """Places where a 32-lane warp and the HIP spelling visibly disagree."""
    masks = _lane_mask_variables(src)
    for index in src.code:
        tok = src.tokens[index]
        if tok.kind != IDENT or src.is_member(index):
            continue
        after = src.next(index)
        if tok.text in tables.WIDE_IN_HIP and after is not None and after.is_punct("("):
            yield index, (f"{tok.text} returns a 64-bit mask in HIP (32 bits in legacy CUDA); "
                          f"use __ballot_sync for a 32-lane mask")
        elif tok.text in _LANE_MASK_FUNCS or tok.text in masks:
            wide = _wide_literal_in_statement(src, index)
            if wide is not None:
                yield wide, (f"{tok.text} holds a 32-bit lane mask, but the statement uses the "
                             f"64-bit value {src.tokens[wide].text}")
        elif tok.text in _SHUFFLES:
            width = _shuffle_width(src, index)
            if width is not None and width > 32:
                yield index, (f"{tok.text} with width {width}: a warp has 32 lanes (wave32 on "
                              f"gfx10/gfx11)")


def group_members(src: Source, own: set) -> Iterator[tuple[int, str]]:
    uses_groups = any("cooperative_groups" in src.tokens[i].text for i in src.code)
    if not uses_groups:
        return
    for index in src.code:
        tok = src.tokens[index]
        after = src.next(index)
        if (tok.kind == IDENT and tok.text in tables.MEMBER_UNSUPPORTED and src.is_member(index)
                and after is not None and after.is_punct("(")):
            yield index, tables.MEMBER_UNSUPPORTED[tok.text]


CHECKS: tuple[Check, ...] = (unknown_names, unsupported_headers, texture_references,
                             cuda_arch, warp_size, group_members, device_launches)


def _declares_template(src: Source, index: int) -> bool:
    """`name<...> declarator`: the closing `>` is followed by an identifier."""
    depth = 0
    for pos in range(src.position(index) + 1, len(src.code)):
        tok = src.tokens[src.code[pos]]
        if tok.is_punct(";", "{", "}"):
            return False
        depth += tok.is_punct("<") - tok.is_punct(">") - 2 * tok.is_punct(">>")
        if depth <= 0:
            after = src.tokens[src.code[pos + 1]] if pos + 1 < len(src.code) else None
            return after is not None and after.kind == IDENT
    return False


def _statement_bounds(src: Source, index: int) -> tuple[int, int]:
    """Positions in src.code of the statement around a token (between ; { } boundaries)."""
    pos = src.position(index)
    start = pos
    while start > 0 and not src.tokens[src.code[start - 1]].is_punct(";", "{", "}"):
        start -= 1
    end = pos
    while end < len(src.code) - 1 and not src.tokens[src.code[end]].is_punct(";", "{", "}"):
        end += 1
    return start, end


def _lane_mask_variables(src: Source) -> set[str]:
    """Names assigned a lane mask: `m = __ballot_sync(...)`, `auto m = __activemask();`."""
    names = set()
    for index in src.code:
        if src.tokens[index].text not in _LANE_MASK_FUNCS:
            continue
        start, _ = _statement_bounds(src, index)
        for pos in range(start, src.position(index)):
            tok, after = src.tokens[src.code[pos]], src.tokens[src.code[pos + 1]]
            if tok.kind == IDENT and after.is_punct("=", "|=", "&=", "^="):
                names.add(tok.text)
    return names


def _wide_literal_in_statement(src: Source, index: int) -> int | None:
    start, end = _statement_bounds(src, index)
    for pos in range(start, end + 1):
        tok = src.tokens[src.code[pos]]
        if tok.kind == NUMBER and (_int_value(tok.text) or 0) > 0xFFFFFFFF:
            return src.code[pos]
    return None


def _shuffle_width(src: Source, index: int) -> int | None:
    """The literal fourth argument of a __shfl*_sync call, if there is one."""
    arguments = src.call_arguments(index)
    if arguments and len(arguments) == 4 and len(arguments[3]) == 1 \
            and arguments[3][0].kind == NUMBER:
        return _int_value(arguments[3][0].text)
    return None


def _int_value(text: str) -> int | None:
    digits = text.replace("'", "").rstrip("uUlL")
    try:
        return int(digits, 0) if not digits.startswith("0") or digits[:2].lower() in ("0x", "0b") \
            or digits == "0" else int(digits, 8)
    except ValueError:
        return None
