"""Hipified code on wave64 targets (gfx90a, gfx942): HIP's warp functions there work on the whole
64-lane wave, so a CUDA kernel built with warpSize 64 is not warp-exact where it uses warp
operations (shuffles, votes, lane masks, warp sync, warpSize-strided reductions, cooperative
groups tiles). The source route and the hipify fallback refuse such files for wave64 targets,
naming each file and its first use of each operation; plain per-thread kernels build."""

from __future__ import annotations

import re

from ..errors import CassError
from ..targets import target
from .mirror import Mirror

# Names of warp operations as they stand in hipified code (hipify keeps CUDA's *_sync names;
# inline PTX becomes them too).
WARP_OPERATION = re.compile(r"^(__shfl(_up|_down|_xor)?(_sync)?|__ballot(_sync)?|__any(_sync)?|__all(_sync)?|"
                            r"__activemask|__match_(any|all)_sync|__reduce_\w+_sync|__syncwarp|__lanemask_\w+|"
                            r"warpSize|tiled_partition|coalesced_threads|thread_block_tile)$")


def warp_operations(text: str) -> dict[str, int]:
    """Each warp operation `text` uses (outside comments and strings) -> its first line."""
    from ..hipify.lexer import IDENT, LexError, tokenize  # the hipify package: only when it ran
    try:
        tokens = tokenize(text)
    except LexError:
        tokens = []
    found: dict[str, int] = {}
    for tok in tokens:
        if tok.kind == IDENT and WARP_OPERATION.match(tok.text):
            found.setdefault(tok.text, tok.line)
    return found


def wave64_refusals(mirror: Mirror, offload_archs: list[str]) -> list[str]:
    """One line per user file with warp operations, for the wave64 targets among `offload_archs`
    (none when there are none)."""
    wave64 = [a for a in offload_archs if target(a).wave_size == 64]
    if not wave64:
        return []
    lines = []
    for original, mirrored in sorted(mirror.files.items()):
        with open(mirrored, encoding="utf-8", errors="replace") as f:
            ops = warp_operations(f.read())
        if ops:
            first = min(ops.values())
            uses = ", ".join(f"{name} (line {line})" for name, line in sorted(ops.items(), key=lambda kv: kv[1]))
            lines.append(f"{original}:{first}: cannot build for {', '.join(wave64)} (64-lane waves): "
                         f"the file uses warp operations, which the hipified code would run over 64 lanes "
                         f"instead of CUDA's 32-thread warps: {uses}")
    return lines


def check_wave64(mirror: Mirror, offload_archs: list[str]) -> None:
    """CassError with every file's refusal (see wave64_refusals)."""
    lines = wave64_refusals(mirror, offload_archs)
    if lines:
        raise CassError("\n".join(lines))
