"""The uniform datapath. UR registers are one thread's copies here (their values are the same in
every lane, so per-thread semantics are exact); U* opcodes register with their vector twins in
integer.py and bits.py. This module has the moves between the two files."""

from __future__ import annotations

from llvmlite import ir

from .core import I32, Lifter, Reg, handles, unsupported


@handles("R2UR")
def r2ur(ctx: Lifter, ins) -> None:
    """R2UR URd, Ra: a value the compiler knows to be uniform (reads lane's own copy).
    R2UR P, URZ, Ra: P = Ra differs between the active lanes. nvcc tests a __reduce_*_sync mask
    so and takes its one-REDUX path on !P (as it does on the MATCH-based test before a shuffle);
    a kept URd of a non-uniform value would be some lane's, which one is not known: refused."""
    ctx.check(ins, set())
    ops = ctx.operands(ins, 2, 3)
    if len(ops) == 3:
        p, d, a = ops
        if not (isinstance(d, Reg) and d.index is None):
            raise unsupported(ins, "uniform result of a value that may differ between lanes")
        from .warp import ballot
        b = ctx.b
        v = ctx.u32(a)
        first = ctx.call("llvm.amdgcn.readfirstlane.i32", I32, [v])
        differs = ballot(ctx, b.icmp_unsigned("!=", v, first))
        ctx.setp(p, b.icmp_unsigned("!=", differs, ir.Constant(I32, 0)))
        return
    d, a = ops
    ctx.set32(d, ctx.u32(a))


