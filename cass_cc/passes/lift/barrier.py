"""Barriers. BAR.SYNC 0 for the whole block (__syncthreads) is gfx1100's one workgroup barrier,
s_barrier; BAR.RED 0 for the whole block (__syncthreads_count/_and/_or) reduces through a word of
LDS between s_barriers, and B2R.RESULT reads the result.

Named barriers and barriers with thread counts (`BAR.SYNC 1, 64`, `BAR.SYNC R3, R4`, `BAR.ARV`,
`BAR.RED.POPC 2, 0x80, P0`; producer/consumer warp specialisation) and sm_90's cluster barrier
(UCGABAR_ARV/WAIT) cannot use s_barrier, which waits for every wave of the workgroup, unless the
count is the whole block and the kernel has no BAR.ARV: then every wave must reach a barrier of
that id before any goes on (one that waits at another barrier meanwhile would deadlock on NVIDIA),
so s_barrier is exact, and a count checked at run time chooses it. Otherwise they are a
software barrier in LDS that the lifter reserves: per barrier an arrival count, a generation and
two reduction words (one per generation parity). As on NVIDIA, a warp (wave) arrives as a whole
and counts as 32 threads; its first active lane does the atomics (on wave64 each half of a wave
is a warp and arrives on its own). The last arrival resets the
count and bumps the generation; waiters spin (s_sleep) until the generation moves. The spin is a
separate function placed after the kernel, so a scheduler that favours low addresses (the
emulator's) runs every other wave before a spinning one.

What this assumes: the waves reaching a named barrier are converged (nvcc puts WARPSYNC before a
divergent BAR), and no wave of a barrier without a thread count has exited (those wait for every
wave of the block). Launches have no cluster dimensions, so a cluster is one block and its barrier
is the block's (software, because UCGABAR_ARV and UCGABAR_WAIT are split).
"""

from __future__ import annotations

from llvmlite import ir

from .core import I1, I32, LDS, VOID, ConstRef, Imm, Lifter, Reg, handles, unsupported
from .warp_model import WARP, active_mask, ballot, first_lane_value, lane_id, lanes_below

BARRIERS = 16                   # NVIDIA's per-CTA barriers 0..15
CLUSTER = BARRIERS              # the slot of the cluster barrier (a cluster of one block)
WORDS = 4                       # count, generation, reduction word of even and of odd generations
STATE_NAME = "cass.barriers"
WAIT_NAME = "cass.barrier.wait"
SPIN_SECTION = ".text.cass.spin"


def barrier(ctx: Lifter) -> None:
    """__syncthreads as clang emits it: release fence, s_barrier, acquire fence."""
    ctx.b.fence("release", "workgroup")
    ctx.b.call(ctx.intrinsic("llvm.amdgcn.s.barrier", VOID, [], ("convergent",)), [])
    ctx.b.fence("acquire", "workgroup")


@handles("BAR", kind="effect")
def bar(ctx: Lifter, ins) -> None:
    """BAR.SYNC 0 -> s_barrier; BAR.RED.{POPC,AND,OR} 0, P -> the block-wide reduction below; any
    barrier id or thread count, and BAR.ARV -> the software barrier; a count of the whole block in a
    kernel without BAR.ARV -> s_barrier (see the module text)."""
    ctx.check(ins, {"SYNC", "DEFER_BLOCKING", "SYNCALL", "RED", "POPC", "AND", "OR", "ARV"})
    kinds = [m for m in ins.modifiers if m in ("SYNC", "SYNCALL", "RED", "ARV")]
    if len(kinds) != 1:
        raise unsupported(ins, "barrier operation")
    kind = kinds[0]
    if kind == "SYNCALL":
        barrier(ctx)
        return
    if kind == "RED":
        *where, p = ctx.operands(ins, 2, 3)
    else:
        where, p = list(ctx.operands(ins, 1, 2)), None
    whole_block = len(where) == 1 and isinstance(where[0], Imm) and ctx.imm_bits32(where[0]) == 0
    if whole_block and kind == "SYNC":
        barrier(ctx)
        return
    if whole_block and kind == "RED":
        _bar_red(ctx, ins, p)
        return
    if kind == "ARV" and len(where) != 2:
        raise unsupported(ins, "arrive without a thread count")
    ident, expected = _id_and_count(ctx, where)
    b = ctx.b
    if kind != "ARV" and not _has_arrivals(ctx):
        # a count of the whole block: every wave waits here, so s_barrier serves (see the module text)
        whole, software, done = ctx.new_block("bar_whole"), ctx.new_block("bar_software"), ctx.new_block("bar_done")
        b.cbranch(b.icmp_unsigned("==", expected, _block_threads(ctx)), whole, software)
        b.position_at_end(whole)
        if kind == "RED":
            _bar_red(ctx, ins, p)
        else:
            barrier(ctx)
        b.branch(done)
        b.position_at_end(software)
        _software(ctx, ins, kind, p, ident, expected)
        b.branch(done)
        b.position_at_end(done)
        return
    _software(ctx, ins, kind, p, ident, expected)


def _software(ctx: Lifter, ins, kind: str, p, ident: ir.Value, expected: ir.Value) -> None:
    reduce = _reduction(ctx, ins, p) if kind == "RED" else None
    g = arrive(ctx, ident, expected, reduce)
    if kind == "ARV":
        return
    wait(ctx, ident, g)
    if reduce is not None:
        ctx.b.store(_result(ctx, ins, ident, g), ctx.slot("BRED", 0))


def _has_arrivals(ctx: Lifter) -> bool:
    """Whether the kernel has a BAR.ARV: its arrivals count in the software barrier only, so a
    waiter must use that too, whatever its count."""
    if "bar_arrivals" not in ctx.state:
        ctx.state["bar_arrivals"] = any(i.opcode == "BAR" and "ARV" in i.modifiers for i in ctx.state["instructions"])
    return ctx.state["bar_arrivals"]


def _id_and_count(ctx: Lifter, where: list) -> tuple[ir.Value, ir.Value]:
    """The barrier id and the number of threads it waits for (all of the block's warps when no
    count is given). Both in one register (`BAR.SYNC R4, R4`): the id in bits 3:0, the count in
    bits 27:16, as nvcc packs them; one register alone holds its value as is."""
    b = ctx.b
    k = lambda v: ir.Constant(I32, v)
    first = where[0]
    ident = b.and_(ctx.u32(first), k(BARRIERS - 1))
    if len(where) == 1:
        return ident, _block_threads(ctx)
    count = ctx.u32(where[1])
    if isinstance(first, Reg) and isinstance(where[1], Reg):
        count = b.and_(b.lshr(count, k(16)), k(0xFFF))
    # a count of 0 never occurs in valid code; treat it as the whole block rather than never opening
    return ident, b.select(b.icmp_unsigned("==", count, k(0)), _block_threads(ctx), count)


def _block_threads(ctx: Lifter) -> ir.Value:
    """The block's thread count rounded up to whole warps: each warp arrives as 32 threads."""
    from .launch import const_load
    b = ctx.b
    x, y, z = (const_load(ctx, ConstRef(0, off), I32) for off in (0x0, 0x4, 0x8))
    threads = b.mul(b.mul(x, y), z)
    return b.and_(b.add(threads, ir.Constant(I32, WARP - 1)), ir.Constant(I32, -WARP))


def _state(ctx: Lifter) -> ir.GlobalVariable:
    """The barriers' LDS words, zeroed by every wave at kernel entry before an s_barrier (LDS
    starts undefined on AMD GPUs)."""
    g = ctx.module.globals.get(STATE_NAME)
    if g is not None:
        return g
    g = ir.GlobalVariable(ctx.module, ir.ArrayType(I32, (BARRIERS + 1) * WORDS), STATE_NAME, addrspace=3)
    g.linkage = "internal"
    g.initializer = ir.Constant(g.value_type, ir.Undefined)
    g.align = 16
    b = ir.IRBuilder(ctx.entry)
    if ctx.entry.terminator is not None:
        b.position_before(ctx.entry.terminator)
    size = (BARRIERS + 1) * WORDS * 4
    memset = ctx.intrinsic("llvm.memset.p3.i32", VOID, [LDS, ir.IntType(8), I32, I1])
    b.call(memset, [_opaque(g), ir.Constant(ir.IntType(8), 0), ir.Constant(I32, size), ir.Constant(I1, 0)])
    b.fence("release", "workgroup")
    b.call(ctx.intrinsic("llvm.amdgcn.s.barrier", VOID, [], ("convergent",)), [])
    b.fence("acquire", "workgroup")
    return g


def _opaque(g: ir.GlobalVariable) -> ir.Value:
    return ir.FormattedConstant(LDS, g.get_reference())


def _word(ctx: Lifter, ident: ir.Value, which: int | ir.Value) -> ir.Value:
    b = ctx.b
    index = b.add(b.mul(ident, ir.Constant(I32, WORDS)), which if isinstance(which, ir.Value) else ir.Constant(I32, which))
    return b.gep(_opaque(_state(ctx)), [index], source_etype=I32)


def _load(ctx: Lifter, ptr: ir.Value, order: str) -> ir.Value:
    return ctx.b.load_atomic(ptr, order, 4, typ=I32)


def arrive(ctx: Lifter, ident: ir.Value, expected: ir.Value, reduce: ir.Value | None = None) -> ir.Value:
    """The warp arrives (its first active lane adds 32 to the count, and the warp's part of a
    reduction to this generation's word); returns the generation it arrived in, in every lane."""
    b = ctx.b
    k = lambda v: ir.Constant(I32, v)
    _state(ctx)
    b.fence("release", "workgroup")
    active = active_mask(ctx)
    first = ctx.call("llvm.cttz.i32", I32, [active, ir.Constant(I1, 0)])
    leader = b.icmp_unsigned("==", lane_id(ctx), first)
    before = b.block
    go, complete, after = ctx.new_block("bar_arrive"), ctx.new_block("bar_complete"), ctx.new_block("bar_arrived")
    b.cbranch(leader, go, after)
    b.position_at_end(go)
    g = _load(ctx, _word(ctx, ident, 1), "monotonic")
    if reduce is not None:
        part = _word(ctx, ident, b.add(b.and_(g, k(1)), k(2)))
        b.atomic_rmw("add", part, reduce, "monotonic")
    old = b.atomic_rmw("add", _word(ctx, ident, 0), k(WARP), "acq_rel")
    last = b.icmp_unsigned(">=", b.add(old, k(WARP)), expected)
    b.cbranch(last, complete, after)
    b.position_at_end(complete)
    if reduce is not None:       # the next generation's word: its readers of two generations ago are done
        _atomic_store(ctx, k(0), _word(ctx, ident, b.add(b.and_(b.add(g, k(1)), k(1)), k(2))), "monotonic")
    _atomic_store(ctx, k(0), _word(ctx, ident, 0), "monotonic")
    _atomic_store(ctx, b.add(g, k(1)), _word(ctx, ident, 1), "release")
    b.branch(after)
    b.position_at_end(after)
    seen = b.phi(I32)
    seen.add_incoming(k(0), before)
    seen.add_incoming(g, go)
    seen.add_incoming(g, complete)
    return first_lane_value(ctx, seen)


def _atomic_store(ctx: Lifter, value: ir.Value, ptr: ir.Value, order: str) -> None:
    ctx.b._insert(AtomicStore(ctx.b.block, value, ptr, order))


class AtomicStore(ir.instructions.Instruction):
    """`store atomic i32 v, ptr addrspace(3) p syncscope("workgroup") ORDER, align 4`: llvmlite's
    store_atomic wants typed pointers and has no sync scope."""

    def __init__(self, parent, value, ptr, order):
        super().__init__(parent, VOID, "store", [value, ptr])
        self.order = order

    def descr(self, buf):
        v, p = self.operands
        buf.append(f'store atomic {v.type} {v.get_reference()}, {p.type} {p.get_reference()} '
                   f'syncscope("workgroup") {self.order}, align 4\n')


def wait(ctx: Lifter, ident: ir.Value, generation: ir.Value) -> None:
    """Spin until the barrier's generation moves past the one the wave arrived in."""
    ctx.b.call(_wait_function(ctx), [_word(ctx, ident, 1), generation])
    ctx.b.fence("acquire", "workgroup")


def _wait_function(ctx: Lifter) -> ir.Function:
    fn = ctx.module.globals.get(WAIT_NAME)
    if fn is not None:
        return fn
    fn = ir.Function(ctx.module, ir.FunctionType(VOID, [LDS, I32]), WAIT_NAME)
    fn.linkage = "internal"
    fn.attributes.add("noinline")
    fn.section = SPIN_SECTION    # after .text, so after the kernel that calls it
    word, generation = fn.args
    entry, spin, done = fn.append_basic_block("entry"), fn.append_basic_block("spin"), fn.append_basic_block("done")
    b = ir.IRBuilder(entry)
    b.branch(spin)
    b.position_at_end(spin)
    now = b.load_atomic(word, "monotonic", 4, typ=I32)
    moved = b.icmp_unsigned("!=", now, generation)
    sleep = ctx.intrinsic("llvm.amdgcn.s.sleep", VOID, [I32])
    back = fn.append_basic_block("sleep")
    b.cbranch(moved, done, back)
    b.position_at_end(back)
    b.call(sleep, [ir.Constant(I32, 1)])
    b.branch(spin)
    b.position_at_end(done)
    b.ret_void()
    return fn


REDUCTIONS = {"POPC": ("add", 0), "AND": ("and", 1), "OR": ("or", 0)}


def _reduction(ctx: Lifter, ins, p) -> ir.Value:
    """A wave's part of a BAR.RED: its count of lanes with P (POPC, OR) or without P (AND)."""
    op = [m for m in ins.modifiers if m in REDUCTIONS]
    if len(op) != 1:
        raise unsupported(ins, "barrier reduction")
    value = ctx.pred(p)
    if op[0] == "AND":
        value = ctx.b.not_(value)
    return ctx.call("llvm.ctpop.i32", I32, [ballot(ctx, value)])


def _result(ctx: Lifter, ins, ident: ir.Value, g: ir.Value) -> ir.Value:
    b = ctx.b
    k = lambda v: ir.Constant(I32, v)
    total = _load(ctx, _word(ctx, ident, b.add(b.and_(g, k(1)), k(2))), "monotonic")
    if "POPC" in ins.modifiers:
        return total
    cond = b.icmp_unsigned("==" if "AND" in ins.modifiers else "!=", total, k(0))
    return b.zext(cond, I32)


def _bar_red(ctx: Lifter, ins, p) -> None:
    """BAR.RED 0 for the whole block: barrier, every thread writes the identity, barrier, each
    warp's atomic, barrier, read (launch.reduction_word). The first barrier keeps the previous
    reduction's readers ahead of the new identity. A warp reduces its lanes with a ballot and its
    first active lane does the one atomic: an atomic of every lane's 0/1 became LLVM's loop of a
    v_readlane per lane (realworld/block_votes: 3.3x hipcc's wave-instructions)."""
    from .atomics import insert_rmw
    from .launch import reduction_word
    op = [m for m in ins.modifiers if m in REDUCTIONS]
    if len(op) != 1:
        raise unsupported(ins, "barrier reduction")
    operation, identity = REDUCTIONS[op[0]]
    b = ctx.b
    word = reduction_word(ctx)
    barrier(ctx)
    b.store(ir.Constant(I32, identity), word)
    barrier(ctx)
    mask, active = ballot(ctx, ctx.pred(p)), active_mask(ctx)
    value = {"POPC": lambda: ctx.call("llvm.ctpop.i32", I32, [mask]),
             "AND": lambda: b.zext(b.icmp_unsigned("==", mask, active), I32),
             "OR": lambda: b.zext(b.icmp_unsigned("!=", mask, ir.Constant(I32, 0)), I32)}[op[0]]()
    first, after = ctx.new_block("bar_red_first"), ctx.new_block("bar_red_after")
    b.cbranch(b.icmp_unsigned("==", lanes_below(ctx, active), ir.Constant(I32, 0)), first, after)
    b.position_at_end(first)
    insert_rmw(ctx, operation, word, value, "workgroup")
    b.branch(after)
    b.position_at_end(after)
    barrier(ctx)
    b.store(b.load(word, typ=I32), ctx.slot("BRED", 0))


@handles("UCGABAR_ARV", kind="effect")
def cluster_arrive(ctx: Lifter, ins) -> None:
    """barrier.cluster.arrive: the block's software barrier, every warp; the generation waited
    for at UCGABAR_WAIT is the thread's own."""
    ctx.check(ins, set())
    ident = ir.Constant(I32, CLUSTER)
    ctx.b.store(arrive(ctx, ident, _block_threads(ctx)), ctx.slot("CGA", 0))


@handles("UCGABAR_WAIT", kind="effect")
def cluster_wait(ctx: Lifter, ins) -> None:
    ctx.check(ins, set())
    wait(ctx, ir.Constant(I32, CLUSTER), ctx.b.load(ctx.slot("CGA", 0), typ=I32))


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
