"""A reduction over the active lanes of a warp in whole-wave mode (REDUX; warp.py), shaped by the
warp model (warp_model.py): a butterfly in which every lane ends up holding its warp's total."""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir

from .core import I1, I32, Lifter
from .warp_model import model

ROW_XMASK = 0x160       # DPP control row_xmask:m is 0x160 + m: lane i of a 16-lane row reads lane i ^ m
QUAD_XOR = (0xB1, 0x4E)  # DPP quad_perm [1,0,3,2] and [2,3,0,1]: lane i reads lane i ^ 1, i ^ 2
ROW_HALF_MIRROR, ROW_MIRROR = 0x141, 0x140   # DPP: lane i of an 8-lane (16-lane) group reads 7 - i (15 - i)
SWIZZLE_XOR16 = (0x10 << 10) | 0x1F          # ds_swizzle bit mode (and 0x1F, or 0, xor 16) within 32 lanes


def reduce(ctx: Lifter, value: ir.Value, combine: Callable[[ir.Value, ir.Value], ir.Value], identity: int) -> ir.Value:
    """`combine` (associative, commutative) of `value` over the active lanes of the warp: in
    whole-wave mode, the inactive lanes holding `identity`, steps that make every lane of a group
    hold its group's total, the groups doubling, about a dozen instructions where a loop of lane
    reads takes several per active lane.
    wave32: DPP row_xmask 1, 2, 4, 8 within 16-lane rows, v_permlanex16 for the other row; the
    total is uniform (readfirstlane).
    wave64 (GFX9 has neither row_xmask nor permlanes): DPP quad_perm xor 1 and 2, row_half_mirror
    (quad pairs: a commutative total needs only that each lane meet the other group),
    row_mirror, then ds_swizzle's xor 16, which stays within 32 lanes: each half, one warp, has
    its own total, a per-lane value."""
    k = lambda v: ir.Constant(I32, v)
    no = ir.Constant(I1, 0)
    v = ctx.call("llvm.amdgcn.set.inactive.i32", I32, [value, k(identity)])

    def dpp(control: int) -> ir.Value:
        return ctx.call("llvm.amdgcn.update.dpp.i32", I32, [k(identity), v, k(control), k(0xF), k(0xF), no])

    if model(ctx).split:
        for control in (*QUAD_XOR, ROW_HALF_MIRROR, ROW_MIRROR):
            v = combine(v, dpp(control))
        v = combine(v, ctx.call("llvm.amdgcn.ds.swizzle", I32, [v, k(SWIZZLE_XOR16)]))
        return ctx.call("llvm.amdgcn.strict.wwm.i32", I32, [v])
    for m in (1, 2, 4, 8):
        v = combine(v, dpp(ROW_XMASK + m))
    v = combine(v, ctx.call("llvm.amdgcn.permlanex16.i32", I32, [v, v, k(0), k(0), no, no]))
    return ctx.call("llvm.amdgcn.readfirstlane.i32", I32, [ctx.call("llvm.amdgcn.strict.wwm.i32", I32, [v])])
