"""Barriers: BAR.SYNC 0 (__syncthreads) is gfx1100's workgroup barrier; BAR.RED reduces a predicate
over the block (__syncthreads_count/_and/_or) and B2R.RESULT reads the result."""

from __future__ import annotations

from llvmlite import ir

from .core import I32, Imm, Lifter, Reg, handles, unsupported


def barrier(ctx: Lifter) -> None:
    """__syncthreads as clang emits it: release fence, s_barrier, acquire fence."""
    ctx.b.fence("release", "workgroup")
    ctx.b.call(ctx.intrinsic("llvm.amdgcn.s.barrier", ir.VoidType(), [], ("convergent",)), [])
    ctx.b.fence("acquire", "workgroup")


@handles("BAR", kind="effect")
def bar(ctx: Lifter, ins) -> None:
    """BAR.SYNC 0 -> s_barrier; BAR.RED.{POPC,AND,OR} 0, P (__syncthreads_count/and/or) -> a
    barrier that also reduces P over the block, through a word of LDS (launch.reduction_word):
    barrier, every thread writes the identity, barrier, each thread's atomic, barrier, read. The
    first barrier keeps the previous reduction's readers ahead of the new identity. Named barriers
    and thread counts (BAR.SYNC 1, 64; BAR.ARV) are refused: gfx1100 has one workgroup barrier,
    which waits for every wave, so waves that only arrive would never let it open."""
    ctx.check(ins, {"SYNC", "DEFER_BLOCKING", "SYNCALL", "RED", "POPC", "AND", "OR", "ARV"})
    if "ARV" in ins.modifiers:
        raise unsupported(ins, "arrive at a named barrier: gfx1100's one barrier waits for every wave")
    if "RED" in ins.modifiers:
        _bar_red(ctx, ins)
        return
    if "SYNCALL" not in ins.modifiers and (len(ins.operands) != 1 or ctx.imm_bits32(ins.operands[0]) != 0):
        raise unsupported(ins, "named barriers or thread counts")
    barrier(ctx)


REDUCTIONS = {"POPC": ("add", 0), "AND": ("and", 1), "OR": ("or", 0)}


def _bar_red(ctx: Lifter, ins) -> None:
    from .atomics import ScopedRMW
    from .launch import reduction_word
    op = [m for m in ins.modifiers if m in REDUCTIONS]
    ident, p = ctx.operands(ins, 2)
    if len(op) != 1 or not isinstance(ident, Imm) or ctx.imm_bits32(ident) != 0:
        raise unsupported(ins, "named barriers or thread counts")
    operation, identity = REDUCTIONS[op[0]]
    b = ctx.b
    word = reduction_word(ctx)
    barrier(ctx)
    b.store(ir.Constant(I32, identity), word)
    barrier(ctx)
    b._insert(ScopedRMW(b.block, operation, word, b.zext(ctx.pred(p), I32), "workgroup"))
    barrier(ctx)
    b.store(b.load(word, typ=I32), ctx.slot("BRED", 0))


@handles("B2R", kind="pure")
def b2r(ctx: Lifter, ins) -> None:
    """B2R.RESULT d[, P]: the last BAR.RED's result (a count, or 0/1 for AND/OR); P = result != 0."""
    ctx.check(ins, {"RESULT"})
    if "RESULT" not in ins.modifiers:
        raise unsupported(ins, "barrier state")
    d, *p = ctx.operands(ins, 1, 2)
    value = ctx.b.load(ctx.slot("BRED", 0), typ=I32)
    if not (isinstance(d, Reg) and d.index is None):
        ctx.set32(d, value)
    if p:
        ctx.setp(p[0], ctx.b.icmp_unsigned("!=", value, ir.Constant(I32, 0)))
