"""How CUDA's 32-lane warp sits in the target's wave: the one place that decides it.

wave32 (RDNA): a warp is a wave, its lane the wave's lane, its masks the wave's.
wave64 (CDNA): a wave holds two warps, lanes 0-31 and 32-63 (the thread ids of a block fill the
waves in order, so the warps are NVIDIA's), each confined to its half as SCALE does: a warp's lane
is the wave's lane & 31, its masks are the 32 bits of its half of the wave's 64-bit ballot, and a
lane of the warp is read with ds_bpermute at the half's base, because the two warps of a wave
read different lanes at once: v_readlane and v_readfirstlane, whose lane is one for the whole
wave, serve wave32 only. Nothing here is per-wave uniform on wave64 unless LLVM proves it.

What two warps in one wave cannot do is wait for each other: the lanes of a wave run one side of
a branch at a time, so a warp spinning until its sibling half (on the other side) writes memory
never lets it run. Kernels that do it are refused on wave64 (check_kernel): BAR.ARV (a producer
warp arriving where a consumer waits) and spin loops on block-scope memory (.STRONG.SM/.CTA
loads, as cooperative groups' multi-warp tiles sync through). Barriers every warp reaches
together (BAR.SYNC, the software barrier's counts) are fine: both halves arrive in one instruction.

The warp operations (warp.py, wave.py), warp branches (control.py), barriers (barrier.py,
mbarrier.py), tensor-core fragments (mma.py) and special registers (launch.py) build on these."""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir

from cass_cc.targets import target

from .cfg import label_address
from .core import I1, I32, Label, Lifter, unsupported

WARP = 32       # CUDA's warp, on every target
STATE_KEY = "warp_model"


@dataclass(frozen=True)
class WarpModel:
    wave_size: int          # lanes of the target's waves: 32 or 64

    @property
    def split(self) -> bool:
        """Two warps share each wave."""
        return self.wave_size == 2 * WARP


def for_target(offload_arch: str) -> WarpModel:
    return WarpModel(target(offload_arch).wave_size)


def model(ctx: Lifter) -> WarpModel:
    """The kernel's warp model (lift_module puts it in the Lifter's state)."""
    return ctx.state[STATE_KEY]


def wave_lane(ctx: Lifter) -> ir.Value:
    """The lane in the wave: 0..wave_size-1."""
    lane = ctx.call("llvm.amdgcn.mbcnt.lo", I32, [ir.Constant(I32, -1), ir.Constant(I32, 0)])
    if model(ctx).split:
        lane = ctx.call("llvm.amdgcn.mbcnt.hi", I32, [ir.Constant(I32, -1), lane])
    return lane


def lane_id(ctx: Lifter) -> ir.Value:
    """%laneid: the lane in the warp, 0..31."""
    lane = wave_lane(ctx)
    return ctx.b.and_(lane, ir.Constant(I32, WARP - 1)) if model(ctx).split else lane


def _half_base(ctx: Lifter) -> ir.Value:
    """The wave lane of this warp's lane 0 (0 or 32; wave64 only)."""
    return ctx.b.and_(wave_lane(ctx), ir.Constant(I32, WARP))


def ballot(ctx: Lifter, p: ir.Value) -> ir.Value:
    """The 32-bit mask of the lanes of this thread's warp where `p` holds (active lanes only)."""
    b = ctx.b
    if not model(ctx).split:
        return b.call(ctx.intrinsic("llvm.amdgcn.ballot.i32", I32, [I1], ("convergent",)), [p])
    i64 = ir.IntType(64)
    wave = b.call(ctx.intrinsic("llvm.amdgcn.ballot.i64", i64, [I1], ("convergent",)), [p])
    return b.trunc(b.lshr(wave, b.zext(_half_base(ctx), i64)), I32)


def active_mask(ctx: Lifter) -> ir.Value:
    return ballot(ctx, ir.Constant(I1, 1))


def fetch(ctx: Lifter, lane: ir.Value, value: ir.Value) -> ir.Value:
    """`value` as lane `lane` (0..31, may differ between threads) of this thread's warp holds it
    (ds_bpermute: an inactive source lane reads 0)."""
    b = ctx.b
    if model(ctx).split:
        lane = b.or_(lane, _half_base(ctx))
    fn = ctx.intrinsic("llvm.amdgcn.ds.bpermute", I32, [I32, I32], ("convergent",))
    return b.call(fn, [b.shl(lane, ir.Constant(I32, 2)), value])


def read_lane(ctx: Lifter, value: ir.Value, lane: ir.Value) -> ir.Value:
    """`value` of lane `lane` of the warp, `lane` being the same in every lane of the warp: on
    wave32 a scalar read; on wave64 the two warps of a wave may name different lanes (fetch)."""
    if model(ctx).split:
        return fetch(ctx, lane, value)
    fn = ctx.intrinsic("llvm.amdgcn.readlane.i32", I32, [I32, I32], ("convergent",))
    return ctx.b.call(fn, [value, lane])


def first_lane_value(ctx: Lifter, value: ir.Value) -> ir.Value:
    """`value` of the warp's first active lane."""
    if model(ctx).split:
        first = ctx.call("llvm.cttz.i32", I32, [active_mask(ctx), ir.Constant(I1, 1)])
        return fetch(ctx, first, value)
    return ctx.call("llvm.amdgcn.readfirstlane.i32", I32, [value])


def lanes_below(ctx: Lifter, mask: ir.Value) -> ir.Value:
    """How many lanes of the warp mask `mask` sit below this thread's lane."""
    if not model(ctx).split:
        return ctx.call("llvm.amdgcn.mbcnt.lo", I32, [mask, ir.Constant(I32, 0)])
    b = ctx.b
    below = b.sub(b.shl(ir.Constant(I32, 1), lane_id(ctx)), ir.Constant(I32, 1))
    return ctx.call("llvm.ctpop.i32", I32, [b.and_(mask, below)])


BLOCK_SCOPES = {"SM", "CTA"}


def check_kernel(model_: WarpModel, instructions: list) -> None:
    """Refuse (Refusal naming the instruction) a kernel whose warps may wait for each other, on a
    target where two warps share a wave (see the module text); `instructions` in address order."""
    if not model_.split:
        return
    for n, ins in enumerate(instructions):
        if ins.opcode == "BAR" and "ARV" in ins.modifiers:
            raise unsupported(ins, "on wave64, where two warps share a wave, a warp arriving at a "
                                   "barrier that its wave's other warp waits at never lets it go on")
        if ins.opcode == "BRA" and any(isinstance(op, Label) for op in ins.operands):
            start = label_address(ins)
            if start > ins.address:
                continue
            loop = [i for i in instructions[:n + 1] if i.address >= start]
            poll = next((i for i in loop if i.opcode in ("LD", "LDG") and "STRONG" in i.modifiers
                         and BLOCK_SCOPES & set(i.modifiers)), None)
            if poll is not None:
                raise unsupported(poll, "a loop polling block-scope memory (warps of a block waiting for "
                                        "each other): on wave64 two warps share a wave and cannot wait for each other")
