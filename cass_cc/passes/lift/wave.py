"""The wave's lanes as one thread sees them: the mask of the active lanes, a ballot of a
predicate, another lane's value. CUDA's warp is a wave32, so these are warp-wide too; the warp
operations (warp.py), warp-convergence branches (control.py) and barriers build on them."""

from __future__ import annotations

from llvmlite import ir

from .core import I1, I32, Lifter


def ballot(ctx: Lifter, p: ir.Value) -> ir.Value:
    fn = ctx.intrinsic("llvm.amdgcn.ballot.i32", I32, [I1], ("convergent",))
    return ctx.b.call(fn, [p])


def active_mask(ctx: Lifter) -> ir.Value:
    return ballot(ctx, ir.Constant(I1, 1))


def readlane(ctx: Lifter, v: ir.Value, lane: ir.Value) -> ir.Value:
    """`v` of `lane` (a uniform value)."""
    fn = ctx.intrinsic("llvm.amdgcn.readlane.i32", I32, [I32, I32], ("convergent",))
    return ctx.b.call(fn, [v, lane])
