"""Where CUDA source uses warp operations: the places that hipcc's 64-lane warps (wave64 targets,
warpSize 64) would misread, so that the source route can name them instead of building code that
is not warp-exact. Read from the tokens of the translation unit and of the headers it includes
with quotes (found next to the including file); comments and system headers do not count."""

from __future__ import annotations

import os
import re

from ..hipify.lexer import HEADER, IDENT, STRING, LexError, tokenize

WARP_NAMES = frozenset("""
__shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync __shfl __shfl_up __shfl_down __shfl_xor
__ballot_sync __ballot __any_sync __all_sync __any __all __uni_sync __activemask
__match_any_sync __match_all_sync __reduce_add_sync __reduce_min_sync __reduce_max_sync
__reduce_and_sync __reduce_or_sync __reduce_xor_sync __syncwarp __lanemask_lt __lanemask_eq
warpSize tiled_partition thread_block_tile coalesced_threads coalesced_group labeled_partition
wmma
""".split())
# PTX in inline assembly that works on lanes of a warp
WARP_PTX = re.compile(r"%laneid|%warpid|%lanemask|\bshfl\.|\bvote\.|\bmatch\.|\bredux\.|\bmma\.|\bldmatrix|\bwmma\.")


def warp_uses(path: str) -> list[tuple[str, int, str]]:
    """(file, line, what) of the first use of each warp operation in `path` and its quoted
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
        if tok.kind == IDENT and tok.text in WARP_NAMES and not tok.directive:
            found.setdefault(tok.text, (path, tok.line, tok.text))
        elif tok.kind == STRING and (m := WARP_PTX.search(tok.text)):
            found.setdefault(m.group(0), (path, tok.line, f"PTX '{m.group(0)}'"))
        elif tok.kind == HEADER and tok.text.startswith('"'):
            _scan(os.path.join(os.path.dirname(path), tok.text[1:-1]), found, seen)
