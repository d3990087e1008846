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
release fence that orders the copies' stores before it. Both are a 64-bit compare-and-swap loop,
so the arrive reads the expected count of the same state it updates, as the hardware's 64-bit
atomic does. sm_90 mbarriers (SYNCS.*, with transaction counts) are not these instructions and
stay refused.
"""

from __future__ import annotations

from llvmlite import ir

from .atomics import ScopedCmpXchg, atomic
from .core import I32, I64, Lifter, Mem, Reg, handles, unsupported
from .launch import lds_pointer
from .memory import index32

COUNT = 0x7FFFFFFF
RELOAD = 0x40000000      # high bits 30:0 after a completion = low + RELOAD (2^31 - expected)


def arrive(ctx: Lifter, mem: Mem) -> ir.Value:
    """One arrive on the mbarrier at shared offset `mem`; returns the 64-bit state before it."""
    b = ctx.b
    k = lambda v: ir.Constant(I32, v)
    ptr = lds_pointer(ctx, index32(ctx, mem))
    b.fence("release", "workgroup")
    first = b.load_atomic(ptr, "monotonic", 8, typ=I64)
    start = b.block
    loop, done = ctx.new_block("mbar_arrive"), ctx.new_block("mbar_arrived")
    b.branch(loop)
    b.position_at_end(loop)
    old = b.phi(I64)
    old.add_incoming(first, start)
    low, high = ctx.split64(old)
    bumped = b.add(high, k(1))
    completes = b.icmp_unsigned("==", b.and_(bumped, k(COUNT)), k(0))
    reloaded = b.or_(bumped, b.and_(b.add(low, k(RELOAD)), k(COUNT)))
    new = ctx.join64(low, b.select(completes, reloaded, bumped))
    cx = ScopedCmpXchg(b.block, ptr, old, new, "workgroup")
    b._insert(cx)
    seen = b.extract_value(cx, 0)
    old.add_incoming(seen, b.block)
    b.cbranch(b.extract_value(cx, 1), done, loop)
    b.position_at_end(done)
    b.fence("acquire", "workgroup")
    return seen


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
