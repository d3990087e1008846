"""The uniform datapath. UR registers are one thread's copies here (their values are the same in
every lane, so per-thread semantics are exact); U* opcodes register with their vector twins in
integer.py and bits.py. This module has the moves between the two files."""

from __future__ import annotations

from llvmlite import ir

from .core import I32, Lifter, handles


@handles("R2UR")
def r2ur(ctx: Lifter, ins) -> None:
    """R2UR URd, Ra: a value the compiler knows to be uniform (reads lane's own copy).
    R2UR P, URd, Ra: P = Ra differs between the active lanes, URd = the first active lane's Ra.
    nvcc tests a __reduce_*_sync mask so and takes its one-REDUX path on !P; URd is exact
    whenever P is false (every lane holds the value). When P is true it is the first active
    lane's value: code that branches on P does not read it there."""
    ctx.check(ins, set())
    ops = ctx.operands(ins, 2, 3)
    if len(ops) == 3:
        p, d, a = ops
        from .warp import ballot
        b = ctx.b
        v = ctx.u32(a)
        first = ctx.call("llvm.amdgcn.readfirstlane.i32", I32, [v])
        differs = ballot(ctx, b.icmp_unsigned("!=", v, first))
        ctx.setp(p, b.icmp_unsigned("!=", differs, ir.Constant(I32, 0)))
        ctx.set32(d, first)
        return
    d, a = ops
    ctx.set32(d, ctx.u32(a))


