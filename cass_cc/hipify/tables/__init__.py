"""The mapping tables, one module per API family, gathered into lookups for the translator."""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import (coop_groups, device, device_missing, driver, errors, half, headers, libraries,
               macros, rounding, runtime, types, warp)

FAMILIES = (runtime, types, errors, driver, device, warp, half, rounding, coop_groups, macros)


@dataclass(frozen=True)
class Rename:
    target: str
    family: str


def _renames() -> dict[str, Rename]:
    table: dict[str, Rename] = {}
    for module in FAMILIES:
        for old, new in module.RENAMES.items():
            if old in table and table[old].target != new:
                raise ValueError(f"{old} maps to {table[old].target} ({table[old].family}) "
                                 f"and {new} ({module.FAMILY})")
            table[old] = Rename(new, module.FAMILY)
    return table


def _words(attr: str) -> dict[str, str]:
    """{name: family} for a whitespace-separated attribute of the families that have it."""
    return {name: m.FAMILY for m in FAMILIES for name in getattr(m, attr, "").split()}


RENAMES = _renames()
BY_ARITY = runtime.BY_ARITY
KEEP = _words("KEEP")
COMPAT = _words("COMPAT")
# HIP-side names whose use needs the compatibility header: overloads it adds, functions it defines.
COMPAT_TARGETS = frozenset(runtime.COMPAT_OVERLOADS.split() + runtime.COMPAT_FUNCTIONS.split()
                           + runtime.COMPAT_TYPES.split() + half.COMPAT_FUNCTIONS.split()
                           + rounding.COMPAT_FUNCTIONS.split()
                           + list(coop_groups.TYPE_RENAMES.values()) + list(warp.RENAMES.values())
                           + ["cass_s128", "cass_u128"]
                           + [macros.ARCH_NUMBER_MACRO[1]])
UNSUPPORTED = {name: why for m in FAMILIES for name, why in getattr(m, "UNSUPPORTED", {}).items()}
DEVICE_MISSING = frozenset(device_missing.NAMES.split())
HEADERS = headers.HEADERS
HEADER_PREFIXES = headers.HEADER_PREFIXES
HEADERS_NEEDING_COMPAT = headers.NEEDS_COMPAT
CUDA_HEADERS_NEEDING_COMPAT = headers.CUDA_NEEDING_COMPAT
HEADERS_UNSUPPORTED = headers.UNSUPPORTED
HEADERS_UNSUPPORTED_PREFIX = headers.UNSUPPORTED_PREFIX
RUNTIME_HEADERS = headers.RUNTIME
LIBRARY_PREFIXES = libraries.PREFIXES
LIBRARY_UNSUPPORTED = libraries.UNSUPPORTED_PREFIXES
NAMESPACES = libraries.NAMESPACES
QUALIFIED = libraries.QUALIFIED
MEMBER_RENAMES = coop_groups.MEMBER_RENAMES
GROUP_TYPE_RENAMES = coop_groups.TYPE_RENAMES
MEMBER_UNSUPPORTED = coop_groups.MEMBER_UNSUPPORTED
DEVICE_PASS_MACRO = macros.DEVICE_PASS_MACRO
ARCH_NUMBER_MACRO = macros.ARCH_NUMBER_MACRO
ARCH_NUMBER = macros.ARCH_NUMBER
WIDE_IN_HIP = warp.WIDE_IN_HIP
# GCC's names of the 128-bit integer types; `[unsigned] __int128` is rewritten by its own rule.
INT128_NAMES = {"__int128_t": "cass_s128", "__uint128_t": "cass_u128"}


# A library prefix must end a word: curandState and curand_init, not curandom.
_LIBRARY_NAME = re.compile("|".join(
    rf"({re.escape(p)})(?={'' if p.endswith('_') else '[^a-z]'})"
    for p in sorted(LIBRARY_PREFIXES, key=len, reverse=True)))
_LIBRARY_UNSUPPORTED = re.compile("|".join(re.escape(p) for p in LIBRARY_UNSUPPORTED))


def library_rename(name: str) -> str | None:
    """The hip* name of a CUDA math-library identifier, by its prefix; None if not a library name
    or one of an unsupported library."""
    m = _LIBRARY_NAME.match(name)
    if not m or len(name) == m.end() or _LIBRARY_UNSUPPORTED.match(name):
        return None
    return LIBRARY_PREFIXES[m.group(m.lastindex)] + name[m.end():]


def header_rename(header: str) -> str | None:
    """HIP header for a CUDA header name (without <> or quotes), or None to keep it."""
    if header in HEADERS:
        return HEADERS[header]
    for old, new in HEADER_PREFIXES.items():
        if header.startswith(old):
            # A folder maps to a folder (keep the rest of the path) or to one umbrella header.
            return new + header[len(old):] if new.endswith("/") else new
    return None
