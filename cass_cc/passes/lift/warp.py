"""Warp operations (CUDA's 32-lane warp, placed in the wave by warp_model.py): SHFL -> ds_bpermute
with PTX's in-range rule, VOTE/VOTEU -> ballot, REDUX -> a butterfly in whole-wave mode
(wave.reduce), MATCH -> a loop of lane reads over the distinct values, one ballot each. Loops, not
32 unrolled reads: a kernel of tile reductions has hundreds of these.

WARPSYNC.EXCLUSIVE Rmask (a __*_sync with a mask that may differ between lanes, as a
cooperative_groups tile's or a per-lane computed mask does) runs what follows, up to the
reconvergence, one group of lanes at a time: the warp operations there (VOTE, MATCH, REDUX; SHFL
reads a lane's value whatever its group) see their group's lanes only. CUDA has every lane that a
mask names run the operation with that same mask, so a lane's group is its own mask's active
lanes, a per-lane value: a vote is the ballot ANDed with it, a reduction a ds_bpermute butterfly
within it, a MATCH a loop over its group's values only (a tile of n lanes: at most n turns), none
a loop over the warp's lanes or masks. Every other WARPSYNC form is control.hint's.

sm_70..sm_89 code tests the mask of a vote or match with R2UR P, URZ, Rmask and, when the masks
differ (P), runs the bare VOTE/MATCH, which is right only because a uniform register cannot hold
differing values: the lanes go on in groups of equal Rmask, each group seeing its own value. So
R2UR P opens a group region like WARPSYNC.EXCLUSIVE's, through the warp-convergence branches
(BRA.DIV/BRA.CONV, control.bra) of ptxas's idiom and BSSY, up to the next branch target (where the
idiom's slow path, which masks its result, joins again) or reconvergence point."""

from __future__ import annotations

from collections import Counter

from llvmlite import ir

from . import control
from .cfg import is_unconditional, label_address
from .core import I1, I32, Label, Lifter, Reg, handles, unsupported
from .opcodes import REGION_ENDS, is_warp_branch
from .wave import reduce as wave_reduce
from .warp_model import WARP, active_mask, ballot, fetch, first_lane_value, lane_id, read_lane


@handles("SHFL", kind="effect")
def shfl(ctx: Lifter, ins) -> None:
    """SHFL.mode P, d, a, b, c (PTX shfl.sync): c packs the clamp (bits 4:0) and the segment mask
    (bits 12:8); out of range, a lane reads its own value and P is false."""
    modes = ("IDX", "UP", "DOWN", "BFLY")
    ctx.check(ins, set(modes))
    mode = [m for m in ins.modifiers if m in modes]
    if len(mode) != 1:
        raise unsupported(ins, "shuffle mode")
    p, d, a, bb, c = ctx.operands(ins, 5)
    b = ctx.b
    k = lambda v: ir.Constant(I32, v)
    lane = lane_id(ctx)
    bval = b.and_(ctx.u32(bb), k(31))
    cv = ctx.u32(c)
    seg = b.and_(b.lshr(cv, k(8)), k(31))
    clamp = b.and_(cv, k(31))
    max_lane = b.or_(b.and_(lane, seg), b.and_(clamp, b.not_(seg)))
    mode = mode[0]
    if mode == "IDX":
        j = b.or_(b.and_(lane, seg), b.and_(bval, b.not_(seg)))
        ok = b.icmp_signed("<=", j, max_lane)
    elif mode == "UP":
        j = b.sub(lane, bval)
        ok = b.icmp_signed(">=", j, max_lane)
    elif mode == "DOWN":
        j = b.add(lane, bval)
        ok = b.icmp_signed("<=", j, max_lane)
    else:
        j = b.xor(lane, bval)
        ok = b.icmp_signed("<=", j, max_lane)
    j = b.select(ok, j, lane)
    value = fetch(ctx, j, ctx.u32(a))
    ctx.set32(d, value)
    ctx.setp(p, ok)


GROUPED = {"SHFL", "VOTE", "VOTEU", "MATCH", "REDUX"}


@handles("WARPSYNC", kind="pure")
def warpsync(ctx: Lifter, ins) -> None:
    if "EXCLUSIVE" in ins.modifiers:
        exclusive(ctx, ins)
    else:
        control.hint(ctx, ins)


def exclusive(ctx: Lifter, ins) -> None:
    """WARPSYNC.EXCLUSIVE Rmask: the mask goes to a slot that the region's warp operations read
    (group_mask); a branch into the region is refused."""
    ctx.check(ins, {"EXCLUSIVE"})
    (mask,) = ctx.operands(ins, 1)
    _open_region(ctx, ins, ctx.u32(mask), through_warp_branches=False)


def split(ctx: Lifter, ins) -> None:
    """R2UR P, URd, Ra: P = Ra differs between the active lanes; the lanes go on in groups of
    equal Ra (a region like WARPSYNC.EXCLUSIVE's, see the module text), so URd is this lane's Ra,
    the value of its group."""
    p, d, a = ctx.operands(ins, 3)
    b = ctx.b
    v = ctx.u32(a)
    first = first_lane_value(ctx, v)
    differs = ballot(ctx, b.icmp_unsigned("!=", v, first))
    ctx.setp(p, b.icmp_unsigned("!=", differs, ir.Constant(I32, 0)))
    ctx.set32(d, v)
    _open_region(ctx, ins, v, through_warp_branches=True)


def _branch_targets(ctx: Lifter) -> tuple[dict[int, int], Counter]:
    """(address -> position in the code, address -> how many branches name it), computed once a
    kernel."""
    if "warp_code_index" not in ctx.state:
        code = ctx.state["instructions"]
        ctx.state["warp_code_index"] = {i.address: n for n, i in enumerate(code)}
        ctx.state["warp_targets"] = Counter(op.address for i in code for op in i.operands if isinstance(op, Label))
    return ctx.state["warp_code_index"], ctx.state["warp_targets"]


def _within_split(ins) -> bool:
    """Instructions that do not end an R2UR split: the idiom's warp-convergence branches, and
    BSSY, which only names the point (its BSYNC) where the lanes meet again."""
    return ins.opcode == "BSSY" or is_warp_branch(ins)


def _open_region(ctx: Lifter, ins, mask: ir.Value, through_warp_branches: bool) -> None:
    """Mark the warp operations of the straight-line code after `ins` as grouped by `mask`.
    A WARPSYNC.EXCLUSIVE region ends at a reconvergence point and refuses a branch into it; an
    R2UR one goes on past BRA.DIV/BRA.CONV (their fall-through is the same groups) and BSSY, and
    ends at a branch target. An R2UR split groups only what follows the BRA.DIV/BRA.CONV that
    tests its predicate: ptxas schedules unrelated warp operations (a whole-warp REDUX of another
    reduction) between the test and its branch, and those run over every active lane."""
    code = ctx.state["instructions"]
    index, targets = _branch_targets(ctx)
    at = index[ins.address] + 1
    split_predicate = ins.operands[0].name if through_warp_branches else None
    armed = not through_warp_branches
    while at < len(code):
        following = code[at]
        if following.opcode in REGION_ENDS and not (through_warp_branches and _within_split(following)):
            break
        if following.address in targets:
            if through_warp_branches:
                break
            raise unsupported(ins, "a branch into the exclusive region")
        if (following.opcode == "BRA" and following.guard is not None
                and following.guard.name == split_predicate):
            armed = True
            if "CONV" in following.modifiers:
                _group_bare_path(ctx, following)
        if armed and following.opcode in GROUPED:
            ctx.state.setdefault("exclusive", set()).add(following.address)
        at += 1
    ctx.b.store(mask, ctx.slot("EXCL", 0))


def _group_bare_path(ctx: Lifter, branch) -> None:
    """An R2UR split's BRA.CONV jumps to the bare warp instruction, which ptxas runs when the
    masks are alike and converged, and falls through to nvcc's helper (WARPSYNC mask, the same
    instruction over the warp, its result ANDed with the mask). When nothing else reaches the
    bare path (its one branch, from before it; no fall-through into it), its straight-line code
    joins the split's region: grouped by the mask it computes what the helper does whatever the
    masks, and the branch is always taken (control.bra), so a tile's MATCH loops over its own
    values, not over the whole warp's."""
    code = ctx.state["instructions"]
    index, targets = _branch_targets(ctx)
    start = index.get(label_address(branch))
    if start is None or start <= index[branch.address] or targets[code[start].address] != 1:
        return          # lifted in address order, a path before its branch is lifted already
    before = code[start - 1]
    if before.opcode not in ("BRA", "EXIT", "RET") or is_warp_branch(before) or not is_unconditional(before):
        return
    grouped = []
    for following in code[start:]:
        if (following.opcode in REGION_ENDS and not _within_split(following)) or (
                following is not code[start] and following.address in targets):
            break
        if following.opcode in GROUPED:
            grouped.append(following.address)
    if grouped:
        ctx.state.setdefault("exclusive", set()).update(grouped)
        ctx.state.setdefault(control.BARE_PATHS, set()).add(branch.address)


def in_region(ctx: Lifter, ins) -> bool:
    return ins.address in ctx.state.get("exclusive", ())


def group_mask(ctx: Lifter, ins) -> ir.Value:
    """The lanes a warp operation works on: the active ones, in an exclusive region those of the
    region's mask. Every region's mask is a membership mask (WARPSYNC.EXCLUSIVE's, or the one an
    R2UR split tests before its BRA.DIV/BRA.CONV), and CUDA has each lane it names run the
    operation with the same mask, so this lane's mask is its group: one AND, where comparing
    the lanes' masks took a loop over the distinct masks."""
    active = active_mask(ctx)
    if not in_region(ctx, ins):
        return active
    return ctx.b.and_(ctx.b.load(ctx.slot("EXCL", 0), typ=I32), active)


def _lanes_alike(ctx: Lifter, words: list[ir.Value], group: ir.Value, uniform: bool) -> ir.Value:
    """The lanes of `group` (this lane's: the active lanes, or its region's group) whose `words`
    all equal this lane's. A loop in which each group, at once, takes its lowest lane not yet
    placed as the lead, and the lanes of the group alike to the lead leave with their answer:
    as many turns as a group has distinct values (a tile of one lane: one), not as the warp has.
    `uniform`: the group is the same in every lane of the warp, so the lead's words are a scalar
    read (wave32) and the lead is alike to itself. Otherwise the lead leaves whatever it reads,
    so the loop ends even for masks that do not partition the lanes (undefined in CUDA)."""
    b = ctx.b
    k = lambda v: ir.Constant(I32, v)
    start, loop, done = b.block, ctx.new_block("lanes"), ctx.new_block("lanes_done")
    b.branch(loop)
    b.position_at_end(loop)
    rest, mine = b.phi(I32), b.phi(I32)
    rest.add_incoming(group, start)
    mine.add_incoming(k(0), start)
    lead = ctx.call("llvm.cttz.i32", I32, [rest, ir.Constant(I1, 1)])
    alike = ir.Constant(I1, 1)
    for w in words:
        theirs = read_lane(ctx, w, lead) if uniform else fetch(ctx, lead, w)
        alike = b.and_(alike, b.icmp_unsigned("==", w, theirs))
    same = ballot(ctx, alike)
    if not uniform:
        same = b.or_(b.and_(same, rest), b.and_(rest, b.neg(rest)))
    after = b.and_(rest, b.not_(same))
    placed = b.select(alike, same, mine)
    rest.add_incoming(after, b.block)
    mine.add_incoming(placed, b.block)
    back = b.cbranch(b.icmp_unsigned("!=", after, k(0)), loop, done)
    back.set_metadata("llvm.loop", _must_progress(ctx))
    b.position_at_end(done)
    return placed


def _must_progress(ctx: Lifter) -> ir.MDValue:
    """A loop's identity with llvm.loop.mustprogress: every turn of a lane loop takes at least
    its lead out of its mask, so it ends, and LLVM may delete one whose results nobody reads
    (a MATCH.ANY that only fed a BRA.DIV test, control.bra). A loop identity is a node that
    names itself first, one per loop."""
    module = ctx.module
    loop = ir.MDValue(module, [], name=str(len(module.metadata)))
    loop.operands = (loop, module.add_metadata([ir.MetaDataString(module, "llvm.loop.mustprogress")]))
    return loop


@handles("VOTE", "VOTEU", kind="effect")
def vote(ctx: Lifter, ins) -> None:
    """VOTE.{ANY,ALL,EQ} [R,] P, Ps: R = ballot(Ps) over the active lanes (of the group)."""
    ctx.check(ins, {"ANY", "ALL", "EQ"})
    b = ctx.b
    ops = ctx.operands(ins, 2, 3)
    rdest = ops[0] if len(ops) == 3 else None
    pdest, src = ops[-2], ops[-1]
    active = group_mask(ctx, ins)
    votes = b.and_(ballot(ctx, ctx.pred(src)), active)
    if rdest is not None:
        ctx.set32(rdest, votes)
    zero = ir.Constant(I32, 0)
    if "ANY" in ins.modifiers:
        r = b.icmp_unsigned("!=", votes, zero)
    elif "ALL" in ins.modifiers:
        r = b.icmp_unsigned("==", votes, active)
    else:
        r = b.or_(b.icmp_unsigned("==", votes, zero), b.icmp_unsigned("==", votes, active))
    ctx.setp(pdest, r)


@handles("MATCH", kind="effect")
def match(ctx: Lifter, ins) -> None:
    """MATCH.ANY d, a: the active lanes holding the same value; MATCH.ALL [P,] d, a: all active
    lanes if they all agree, else 0."""
    ctx.check(ins, {"ANY", "ALL", "U32", "U64"})
    b = ctx.b
    ops = list(ins.operands)
    pdest = ops.pop(0) if isinstance(ops[0], Reg) and ops[0].kind == "P" else None
    d, a = ops
    words = ctx.get_regs(a, 2 if "U64" in ins.modifiers else 1)
    group = group_mask(ctx, ins)
    same = _lanes_alike(ctx, words, group, uniform=not in_region(ctx, ins))
    if "ALL" in ins.modifiers:
        agree = b.icmp_unsigned("==", same, group)
        ctx.set32(d, b.select(agree, group, ir.Constant(I32, 0)))
        if pdest is not None:
            ctx.setp(pdest, agree)
    else:
        ctx.set32(d, same)


@handles("REDUX", kind="effect")
def redux(ctx: Lifter, ins) -> None:
    """REDUX[.{SUM,MIN,MAX,OR,XOR}][.S32] d, a: reduction over the active lanes; no operation
    written means AND (nvdisasm omits the default: atomicAnd aggregation shows it)."""
    ops = {"SUM", "MIN", "MAX", "AND", "OR", "XOR"}
    ctx.check(ins, ops | {"S32", "U32"})
    b = ctx.b
    op = [m for m in ins.modifiers if m in ops] or ["AND"]
    if len(op) != 1:
        raise unsupported(ins, "reduction")
    op = op[0]
    signed = "S32" in ins.modifiers
    d, a = ctx.operands(ins, 2)
    identity = {"SUM": 0, "AND": -1, "OR": 0, "XOR": 0,
                "MIN": 0x7FFFFFFF if signed else -1, "MAX": -0x80000000 if signed else 0}[op]
    value = ctx.u32(a)

    def combine(x, v):
        if op == "SUM":
            return b.add(x, v)
        if op in ("AND", "OR", "XOR"):
            return {"AND": b.and_, "OR": b.or_, "XOR": b.xor}[op](x, v)
        cmp = (b.icmp_signed if signed else b.icmp_unsigned)("<" if op == "MIN" else ">", v, x)
        return b.select(cmp, v, x)

    if not in_region(ctx, ins):
        ctx.set32(d, wave_reduce(ctx, value, combine, identity))
        return
    ctx.set32(d, _group_reduce(ctx, value, combine, group_mask(ctx, ins)))


def _group_reduce(ctx: Lifter, value: ir.Value, combine, group: ir.Value) -> ir.Value:
    """`combine` of `value` over the lanes of `group`, this lane's group of a partition of the
    active lanes (every member has the same group), in five steps of a butterfly: before the
    step of distance d each lane holds its group's total over its aligned block of d lanes;
    the partner block (lane ^ d's) holds the same for any member of the group there, so the
    lane reads the total of the lowest such member, when there is one (ds_bpermute)."""
    b = ctx.b
    k = lambda v: ir.Constant(I32, v)
    lane = lane_id(ctx)
    total = value
    for d in (1, 2, 4, 8, 16):
        base = b.and_(b.xor(lane, k(d)), k(-d))
        members = b.and_(group, b.shl(k((1 << d) - 1), base))
        source = ctx.call("llvm.cttz.i32", I32, [members, ir.Constant(I1, 0)])
        other = fetch(ctx, b.and_(source, k(WARP - 1)), total)
        total = b.select(b.icmp_unsigned("!=", members, k(0)), combine(total, other), total)
    return total
