"""sm_80 mbarriers: the arrive instructions of cuda::barrier<thread_scope_block>, of cuda::pipeline's
stage barriers and of cp.async's arrive-on (cuda::memcpy_async with a barrier or a pipeline).

On sm_80 an mbarrier is a 64-bit word in shared memory that nvcc's SASS manipulates itself
(init is an STS.64, waiting is an LDS loop on the high word, adding pending arrivals is an ATOMS.ADD);
only the arrive that can complete a phase is an instruction of its own. What that SASS encodes,
and what the lifted arrive relies on (nvcc 13, `-arch=sm_80`):

- init(n) stores low = 0x40000000 - n, high = 0x80000000 - n;
- the high word's bit 31 is the phase parity: test_wait/try_wait.parity compare it with bit 31 of
  the token (the state an arrive returned) or with the parity asked for;
- bits 30:0 of the high word are 2^31 - pending: mbarrier.pending_count is 0x80000000 -
  (high & 0x7fffffff); cp.async.mbarrier.arrive (without .noinc) adds -k to the high word for k
  more pending arrivals; arrive(n) and arrive.noComplete add 1 (or the count) to it;
- bits 29:0 of the low word are 2^30 - expected: arrive_and_drop adds 1 to the low word
  (ATOMS.POPC.INC) before its arrive; init's high word is its low word + 0x40000000.

So the one arrive that may complete a phase adds 1 to the high word; when its bits 30:0 wrap to 0
the carry has flipped the phase bit and no arrival is pending, and the pending count reloads from
the expected count: bits 30:0 become low + 0x40000000 (the high word init stored). The low word
is untouched. The state returned is the word before the arrive (the token compared with the
phase, PTX's "state prior to the arrive-on").

ATOMS.ARRIVE.64 Rd, [a] is mbarrier.arrive (Rd:Rd+1 = that state); ARRIVES.LDGSTSBAR.64 [a] is
cp.async.mbarrier.arrive.noinc: one arrive per thread once the thread's earlier LDGSTS copies have
landed. The lifted LDGSTS copies at once (memory.py), so its arrive happens at once, after a
release fence that orders the copies' stores before it. A warp's arrivals on one mbarrier are one
update of the word (see arrive).

sm_90 encodes the word differently (its init stores (2^20 - n) << 1 in the low word and
(2^20 - n) << 11 in the high one, next to transaction counts) and arrives with SYNCS.* and
ARRIVES.LDGSTSBAR.64.TRANSCNT: those stay refused.
"""

from __future__ import annotations

from llvmlite import ir

from .atomics import ScopedCmpXchg, atomic
from .core import I32, I64, Lifter, Mem, Reg, handles, unsupported
from .launch import lds_pointer
from .memory import index32
from .warp_model import ballot, first_lane_value, lane_id, lanes_below, read_lane

COUNT = 0x7FFFFFFF
RELOAD = 0x40000000      # high bits 30:0 after a completion = low + RELOAD (2^31 - expected)


def advance(ctx: Lifter, low: ir.Value, high: ir.Value, k: ir.Value) -> ir.Value:
    """The high word after k more arrivals: below the pending count it only counts; at it the
    phase completes, and arrivals past it count in the next phases (each reloading the expected
    count; an expected count of 0, after everyone dropped out, is treated as 1)."""
    b = ctx.b
    c = lambda v: ir.Constant(I32, v)
    pending = b.sub(c(0x80000000), b.and_(high, c(COUNT)))
    reload = b.and_(b.add(low, c(RELOAD)), c(COUNT))
    expected = b.sub(c(0x80000000), reload)
    expected = b.select(b.icmp_unsigned("==", expected, c(0)), c(1), expected)
    past = b.sub(k, pending)                       # arrivals after the first completion
    completions = b.add(b.udiv(past, expected), c(1))
    phase = b.xor(b.lshr(high, c(31)), b.and_(completions, c(1)))
    completed = b.or_(b.shl(phase, c(31)), b.and_(b.add(reload, b.urem(past, expected)), c(COUNT)))
    return b.select(b.icmp_unsigned("<", k, pending), b.add(high, k), completed)


def _swap(ctx: Lifter, ptr: ir.Value, count: ir.Value) -> ir.Value:
    """count arrivals in one update of the word (a compare-and-swap loop over its 64 bits, so the
    expected count reloaded is that of the state updated); returns the word before them."""
    b = ctx.b
    start = b.load_atomic(ptr, "monotonic", 8, typ=I64)
    entry, loop, done = b.block, ctx.new_block("mbar_cas"), ctx.new_block("mbar_swapped")
    b.branch(loop)
    b.position_at_end(loop)
    old = b.phi(I64)
    old.add_incoming(start, entry)
    low, high = ctx.split64(old)
    cx = ScopedCmpXchg(b.block, ptr, old, ctx.join64(low, advance(ctx, low, high, count)), "workgroup")
    b._insert(cx)
    seen = b.extract_value(cx, 0)
    old.add_incoming(seen, loop)
    b.cbranch(b.extract_value(cx, 1), done, loop)
    b.position_at_end(done)
    return seen


def arrive(ctx: Lifter, mem: Mem) -> ir.Value:
    """One arrive per active thread on the mbarrier at shared offset `mem`; returns each thread's
    64-bit state before its arrive. When every active thread of the warp names the same mbarrier
    (the usual case), they arrive together, as if one after another in lane order: their first
    lane updates the word once by their count, and each thread's state is the word advanced by the
    lanes before it. Otherwise each thread arrives on its own."""
    b = ctx.b
    c = lambda v: ir.Constant(I32, v)
    true = ir.Constant(ir.IntType(1), 1)
    offset = index32(ctx, mem)
    ptr = lds_pointer(ctx, offset)
    b.fence("release", "workgroup")
    active = ballot(ctx, true)
    same = b.icmp_unsigned("==", ballot(ctx, b.icmp_unsigned("==", offset, first_lane_value(ctx, offset))), active)
    together, alone, first, share, done = (ctx.new_block(n) for n in
                                           ("mbar_together", "mbar_alone", "mbar_first", "mbar_share", "mbar_arrived"))
    b.cbranch(same, together, alone)

    b.position_at_end(alone)
    own = _swap(ctx, ptr, c(1))
    alone_end = b.block
    b.branch(done)

    b.position_at_end(together)
    count = ctx.call("llvm.ctpop.i32", I32, [active])
    leader = ctx.call("llvm.cttz.i32", I32, [active, true])
    rank = lanes_below(ctx, active)
    b.cbranch(b.icmp_unsigned("==", lane_id(ctx), leader), first, share)
    b.position_at_end(first)
    word = _swap(ctx, ptr, count)
    first_end = b.block
    b.branch(share)
    b.position_at_end(share)
    before = b.phi(I64)
    before.add_incoming(word, first_end)
    before.add_incoming(ir.Constant(I64, 0), together)
    low, high = (read_lane(ctx, w, leader) for w in ctx.split64(before))
    mine = ctx.join64(low, advance(ctx, low, high, rank))
    share_end = b.block
    b.branch(done)

    b.position_at_end(done)
    result = b.phi(I64)
    result.add_incoming(own, alone_end)
    result.add_incoming(mine, share_end)
    b.fence("acquire", "workgroup")
    return result


def _shared_operand(ctx: Lifter, ins, mem) -> Mem:
    if not isinstance(mem, Mem):
        raise unsupported(ins, "mbarrier operand")
    return mem


@handles("ATOMS", kind="effect")
def atoms(ctx: Lifter, ins) -> None:
    """ATOMS.ARRIVE.64 is mbarrier.arrive; every other ATOMS is an ordinary shared atomic."""
    if "ARRIVE" not in ins.modifiers:
        atomic(ctx, ins)
        return
    ctx.check(ins, {"ARRIVE", "64"})
    if "64" not in ins.modifiers:
        raise unsupported(ins, "mbarrier arrive without .64")
    d, mem = ctx.operands(ins, 2)
    state = arrive(ctx, _shared_operand(ctx, ins, mem))
    if not (isinstance(d, Reg) and d.index is None):
        ctx.set64(d, state)


@handles("ARRIVES", kind="effect")
def arrives(ctx: Lifter, ins) -> None:
    """ARRIVES.LDGSTSBAR.64 [a]: the thread's arrive once its copies have landed (they have)."""
    ctx.check(ins, {"LDGSTSBAR", "64"})
    if set(ins.modifiers) != {"LDGSTSBAR", "64"}:
        raise unsupported(ins, "arrive kind")
    (mem,) = ctx.operands(ins, 1)
    arrive(ctx, _shared_operand(ctx, ins, mem))


__all__ = ["arrive"]
