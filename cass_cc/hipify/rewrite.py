"""The rewrite rules: each looks at one token in context and may give its HIP text. Only the
rewritten tokens change; everything else is copied byte for byte."""

from __future__ import annotations

from typing import Callable

from . import tables
from .tables import macros
from .lexer import HASH, HEADER, IDENT
from .source import Source

# A rule: (source, token index) -> new text, or None to leave the token alone.
Rule = Callable[[Source, int], "str | None"]


def header(src: Source, index: int) -> str | None:
    tok = src.tokens[index]
    if tok.kind != HEADER:
        return None
    target = tables.header_rename(tok.text[1:-1])
    return tok.text[0] + target + tok.text[-1] if target else None


def by_arity(src: Source, index: int) -> str | None:
    """Calls whose HIP name depends on the CUDA version's argument list."""
    tok = src.tokens[index]
    if tok.kind != IDENT or tok.text not in tables.BY_ARITY or src.is_member(index):
        return None
    arguments = src.call_arguments(index)
    return tables.BY_ARITY[tok.text].get(len(arguments)) if arguments is not None else None


def table_name(src: Source, index: int) -> str | None:
    """Names from the family tables (runtime, types, errors, driver, device, half, macros)."""
    tok = src.tokens[index]
    if tok.kind != IDENT or tok.text not in tables.RENAMES or src.is_member(index):
        return None
    if src.qualifier(index) not in (None, ""):
        return None   # someone else's namespace member of the same name
    return tables.RENAMES[tok.text].target


def library_name(src: Source, index: int) -> str | None:
    """cuBLAS, cuRAND, cuFFT, cuSPARSE and NVRTC names by their prefix."""
    tok = src.tokens[index]
    if tok.kind != IDENT or src.is_member(index) or src.qualifier(index) not in (None, ""):
        return None
    return tables.library_rename(tok.text)


def namespace(src: Source, index: int) -> str | None:
    """cub:: -> hipcub::, thrust::cuda:: -> thrust::hip::."""
    tok = src.tokens[index]
    after = src.next(index)
    if tok.kind != IDENT or after is None or not after.is_punct("::"):
        return None
    qualifier = src.qualifier(index)
    if qualifier in (None, "") and tok.text in tables.NAMESPACES:
        return tables.NAMESPACES[tok.text]
    return tables.QUALIFIED.get((qualifier, tok.text)) if qualifier else None


def group_member(src: Source, index: int) -> str | None:
    """Cooperative-group members that HIP 5.2 spells differently (`g.num_threads()`)."""
    tok = src.tokens[index]
    after = src.next(index)
    if (tok.kind == IDENT and tok.text in tables.MEMBER_RENAMES and src.is_member(index)
            and after is not None and after.is_punct("(")):
        return tables.MEMBER_RENAMES[tok.text]
    return None


def group_type(src: Source, index: int) -> str | None:
    """Cooperative-group types the compatibility header replaces (`cg::thread_block_tile<32>`)."""
    tok = src.tokens[index]
    if tok.kind != IDENT or tok.text not in tables.GROUP_TYPE_RENAMES or src.is_member(index):
        return None
    return tables.GROUP_TYPE_RENAMES[tok.text]


def int128(src: Source, index: int) -> str | None:
    """`unsigned __int128` -> `cass_u128`, `__int128` -> `cass_s128` (the compatibility header's
    types whose device-side division clang 15 can build); the `unsigned`/`signed` goes."""
    tok = src.tokens[index]
    if tok.kind != IDENT:
        return None
    if tok.text in tables.INT128_NAMES:
        return tables.INT128_NAMES[tok.text]
    if tok.text == "__int128":
        before = src.prev(index)
        return "cass_u128" if before is not None and before.is_ident("unsigned") else "cass_s128"
    after = src.next(index)
    if tok.text in ("unsigned", "signed") and after is not None and after.is_ident("__int128"):
        return ""
    return None


def device_pass_test(src: Source, index: int) -> str | None:
    """`#ifdef __CUDA_ARCH__`, `defined(__CUDA_ARCH__)`: "is this the device pass?" in HIP."""
    old, new = tables.DEVICE_PASS_MACRO
    return new if src.tokens[index].is_ident(old) and is_defined_test(src, index) else None


def arch_number(src: Source, index: int) -> str | None:
    """Other uses of __CUDA_ARCH__ compare it as a number: the compat header's CASS_CUDA_ARCH."""
    old, new = tables.ARCH_NUMBER_MACRO
    return new if src.tokens[index].is_ident(old) and not is_defined_test(src, index) else None


def hip_port_test(src: Source, index: int) -> str | None:
    """`#ifdef __HIPCC__` and kin in a directive: false, as under nvcc (tables.macros)."""
    tok = src.tokens[index]
    if tok.kind != IDENT or not tok.directive or tok.text not in macros.HIP_PORT_MACROS:
        return None
    return f"{macros.UNDEFINED_UNDER_NVCC}{tok.text}"


def is_defined_test(src: Source, index: int) -> bool:
    tok = src.tokens[index]
    if not tok.directive:
        return False
    before, before2 = src.prev(index), src.prev(index, 2)
    if before is not None and before.is_ident("ifdef", "ifndef", "defined"):
        return True
    return (before is not None and before.is_punct("(") and before2 is not None
            and before2.is_ident("defined"))


RULES: tuple[Rule, ...] = (header, device_pass_test, hip_port_test, arch_number, namespace, group_member,
                           group_type, int128, by_arity, table_name, library_name)


def apply(src: Source) -> dict[int, str]:
    """{token index: new text} for the tokens that change. The name a `#define` or `#undef`
    gives is the program's own, CUDA's spelling or not: a header that maps CUDA's names for a HIP
    build (`#define cudaDeviceMapHost hipDeviceMapHost`) would otherwise define HIP's name as
    itself."""
    changed: dict[int, str] = {}
    for index in src.code:
        if _names_a_macro(src, index):
            continue
        for rule in RULES:
            new = rule(src, index)
            if new is not None and new != src.tokens[index].text:
                changed[index] = new
                break
    return changed


def _names_a_macro(src: Source, index: int) -> bool:
    before, hash_ = src.prev(index), src.prev(index, 2)
    return (src.tokens[index].kind == IDENT and before is not None and before.is_ident("define", "undef")
            and hash_ is not None and hash_.kind == HASH)


def render(src: Source, changed: dict[int, str],
           replacements: dict[int, tuple[int, str]]) -> str:
    """The translated text: changed tokens, and runs of tokens replaced whole (first index ->
    (last index, text): the asm statements)."""
    out, i = [], 0
    while i < len(src.tokens):
        if i in replacements:
            last, text = replacements[i]
            out.append(text)
            i = last + 1
            continue
        out.append(changed.get(i, src.tokens[i].text))
        i += 1
    return "".join(out)
