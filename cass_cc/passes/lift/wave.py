"""The wave's lanes as one thread sees them: the mask of the active lanes, a ballot of a
predicate, another lane's value. CUDA's warp is a wave32, so these are warp-wide too; the warp
operations (warp.py), warp-convergence branches (control.py) and barriers build on them."""

from __future__ import annotations

from llvmlite import ir

from collections.abc import Callable

from .core import I1, I32, Lifter

ROW_XMASK = 0x160       # DPP control row_xmask:m is 0x160 + m: lane i of a 16-lane row reads lane i ^ m


def ballot(ctx: Lifter, p: ir.Value) -> ir.Value:
    fn = ctx.intrinsic("llvm.amdgcn.ballot.i32", I32, [I1], ("convergent",))
    return ctx.b.call(fn, [p])


def active_mask(ctx: Lifter) -> ir.Value:
    return ballot(ctx, ir.Constant(I1, 1))


def readlane(ctx: Lifter, v: ir.Value, lane: ir.Value) -> ir.Value:
    """`v` of `lane` (a uniform value)."""
    fn = ctx.intrinsic("llvm.amdgcn.readlane.i32", I32, [I32, I32], ("convergent",))
    return ctx.b.call(fn, [v, lane])


def reduce(ctx: Lifter, value: ir.Value, combine: Callable[[ir.Value, ir.Value], ir.Value], identity: int) -> ir.Value:
    """`combine` (associative, commutative) of `value` over the active lanes, as a uniform value:
    in whole-wave mode, the inactive lanes holding `identity`, a butterfly of DPP row_xmask steps
    makes every lane of a 16-lane row hold its row's total and v_permlanex16 adds the other row's:
    about a dozen instructions where a loop of lane reads takes several per active lane."""
    k = lambda v: ir.Constant(I32, v)
    no = ir.Constant(I1, 0)
    v = ctx.call("llvm.amdgcn.set.inactive.i32", I32, [value, k(identity)])
    for m in (1, 2, 4, 8):
        v = combine(v, ctx.call("llvm.amdgcn.update.dpp.i32", I32, [k(identity), v, k(ROW_XMASK + m), k(0xF), k(0xF), no]))
    v = combine(v, ctx.call("llvm.amdgcn.permlanex16.i32", I32, [v, v, k(0), k(0), no, no]))
    return ctx.call("llvm.amdgcn.readfirstlane.i32", I32, [ctx.call("llvm.amdgcn.strict.wwm.i32", I32, [v])])
