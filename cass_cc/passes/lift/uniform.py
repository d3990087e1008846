"""The uniform datapath. UR registers are one thread's copies here (their values are the same in
every lane of a warp, so per-thread semantics are exact; on wave64 the two warps of a wave may
hold different values, and the copies keep them apart: LLVM makes one scalar only where it
proves the whole wave agrees); U* opcodes register with their vector twins in
integer.py and bits.py. This module has the moves between the two files."""

from __future__ import annotations

from .core import Lifter, handles
from .warp import split


@handles("R2UR")
def r2ur(ctx: Lifter, ins) -> None:
    """R2UR URd, Ra: a value the compiler knows to be uniform (reads lane's own copy).
    R2UR P, URd, Ra: ptxas's test of a warp operation's mask; it splits the warp into groups of
    equal Ra (warp.split)."""
    ctx.check(ins, set())
    ops = ctx.operands(ins, 2, 3)
    if len(ops) == 3:
        split(ctx, ins)
        return
    d, a = ops
    ctx.set32(d, ctx.u32(a))
