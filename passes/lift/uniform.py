"""The uniform datapath. UR registers are one thread's copies here (their values are the same in
every lane, so per-thread semantics are exact); U* opcodes register with their vector twins in
integer.py and bits.py. This module has the moves between the two files."""

from __future__ import annotations

from .core import Lifter, handles


@handles("R2UR")
def r2ur(ctx: Lifter, ins) -> None:
    """R2UR URd, Ra: a value the compiler knows to be uniform (reads lane's own copy)."""
    ctx.check(ins, set())
    d, a = ctx.operands(ins, 2)
    ctx.set32(d, ctx.u32(a))
