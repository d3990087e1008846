"""Where CUDA source uses the legacy warp functions (CUDA 8's `__shfl`, `__ballot`, `__any`,
`__all` without `_sync`): HIP defines them itself, over the whole wave, so on wave64 targets
(64 lanes) they would not be CUDA's 32-lane warp functions, and the compatibility layer
(cass_wave64.h) cannot take their place. Read from the tokens of the translation unit and of
the headers it includes with quotes (found next to the including file); comments and system
headers do not count."""

from __future__ import annotations

import os

from ..hipify.lexer import HEADER, IDENT, LexError, tokenize

LEGACY_WARP_NAMES = frozenset("__shfl __shfl_up __shfl_down __shfl_xor __ballot __any __all".split())


def legacy_warp_uses(path: str) -> list[tuple[str, int, str]]:
    """(file, line, name) of the first use of each legacy warp function in `path` and its quoted
    includes, in the order met."""
    found: dict[str, tuple[str, int, str]] = {}
    _scan(os.path.abspath(path), found, set())
    return list(found.values())


def _scan(path: str, found: dict[str, tuple[str, int, str]], seen: set[str]) -> None:
    if path in seen or not os.path.isfile(path):
        return
    seen.add(path)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            tokens = tokenize(f.read())
    except (OSError, LexError):
        return      # the compiler reports an unreadable or broken file itself
    for tok in tokens:
        if tok.kind == IDENT and tok.text in LEGACY_WARP_NAMES and not tok.directive:
            found.setdefault(tok.text, (path, tok.line, tok.text))
        elif tok.kind == HEADER and tok.text.startswith('"'):
            _scan(os.path.join(os.path.dirname(path), tok.text[1:-1]), found, seen)
