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
never lets it run. A kernel that may (wait_hazard: BAR.ARV, a producer warp arriving where a
consumer waits; loops polling block-scope memory, as cooperative groups' multi-warp tiles sync;
spin loops on an atomic or volatile global read, as locks and flags taken by one lane of each
warp are) runs one warp per wave instead (wave_per_warp): the warp in lanes 0-31, lanes 32-63
ended at entry, the thread ids computed from the wave's index and CUDA's block shape, which the
runtime passes in a kernel argument after CUDA's (launch.py), launching 64 lanes per warp, so
blocks of at most 512 threads. Barriers every warp reaches together (BAR.SYNC, the software
barrier's counts) are fine either way: both halves arrive in one instruction.

The warp operations (warp.py, wave.py), warp branches (control.py), barriers (barrier.py,
mbarrier.py), tensor-core fragments (mma.py) and special registers (launch.py) build on these."""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir

from cass_cc.targets import target

from cass_cc.sass.model import Imm, Label, Mem, Reg

from .cfg import label_address
from .core import I1, I32, Lifter
from .opcodes import STORE_OPCODES, TERMINATORS, is_immediate_move
from .thread_zero import only_thread_zero_reaches

WARP = 32       # CUDA's warp, on every target
STATE_KEY = "warp_model"


@dataclass(frozen=True)
class WarpModel:
    wave_size: int          # lanes of the target's waves: 32 or 64
    wave_per_warp: bool = False     # wave64 with one warp per wave, in lanes 0-31
    packs: bool = False             # wave_per_warp, but a 1-D block may run two warps a wave (launch.py)

    @property
    def split(self) -> bool:
        """Two warps share each wave."""
        return self.wave_size == 2 * WARP


def for_target(offload_arch: str) -> WarpModel:
    return WarpModel(target(offload_arch).wave_size)


WAVE_PER_WARP_THREADS = 512     # a block's threads, at 64 lanes per warp, in 1024 lanes


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
DEVICE_SCOPES = {"GPU", "SYS"}


@dataclass(frozen=True)
class Wait:
    """An instruction by which warps of a block may wait for each other, and why; a spin loop's
    addresses (first, last) too (None for BAR.ARV and block-scope polls)."""
    instruction: object
    why: str
    spin_loop: tuple[int, int] | None = None


def waits(model_: WarpModel, instructions: list) -> list[Wait]:
    """On a target where two warps share a wave (see the module text), every instruction by which
    warps of a block may wait for each other; none where no wave is shared. `instructions` in
    address order."""
    if not model_.split:
        return []
    found = []
    for n, ins in enumerate(instructions):
        if ins.opcode == "BAR" and "ARV" in ins.modifiers:
            found.append(Wait(ins, "a warp arriving at a barrier that another warp waits at (BAR.ARV)"))
        if ins.opcode == "BRA" and any(isinstance(op, Label) for op in ins.operands):
            start = label_address(ins)
            if start > ins.address:
                continue
            loop = [i for i in instructions[:n + 1] if i.address >= start]
            poll = next((i for i in loop if i.opcode in ("LD", "LDG") and "STRONG" in i.modifiers
                         and BLOCK_SCOPES & set(i.modifiers)), None)
            if poll is not None:
                found.append(Wait(poll, "a loop polling block-scope memory (warps of a block waiting for each other)"))
                continue
            poll = _spin(loop, ins)
            if poll is not None:
                found.append(Wait(poll, "a spin loop on an atomic or volatile read (a lock, flag or barrier "
                                        "another thread sets)", (start, ins.address)))
    return found


def wait_hazard(model_: WarpModel, instructions: list) -> tuple[object, str] | None:
    """The first of `waits`: (instruction, why), or None."""
    found = waits(model_, instructions)
    return (found[0].instruction, found[0].why) if found else None


# What another thread could signal a spinning thread with: a store or atomic to global or generic
# memory, and to shared memory where a spin polls it.
SIGNALS = frozenset(("ST", "STG", "ATOM", "ATOMG", "RED"))
SHARED_SIGNALS = frozenset(("STS", "ATOMS"))


def packs_one_dimensional(instructions: list, found: list[Wait]) -> bool:
    """Whether a one-dimensional block of the kernel may run two warps to a wave after all: its
    only waits are spin loops that no thread but threadIdx.x == 0 reaches, and no other thread
    writes the memory such a loop polls, so one thread of the block spins, waiting for other
    blocks (the common `if (threadIdx.x == 0) { lock; ...; unlock; }` after a block reduction).
    libcassrt does so for blocks of more than WAVE_PER_WARP_THREADS, which one warp per wave
    cannot hold."""
    if not found or any(w.spin_loop is None for w in found):
        return False
    signals = SIGNALS | (SHARED_SIGNALS if any(w.instruction.opcode in ("LDS", "ATOMS") for w in found) else set())
    kept = {i.address for w in found for i in instructions if w.spin_loop[0] <= i.address <= w.spin_loop[1]}
    kept |= {i.address for i in instructions if i.opcode in signals}
    return only_thread_zero_reaches(instructions, kept)


def _spin(loop: list, branch) -> object | None:
    """The atomic, shared-memory or device-scope strong load of `loop` that the loop repeats until
    another thread changes memory: its address and data are the same each time round (no
    instruction of the loop but itself and immediate moves writes them) and the branch back tests
    its result (cuda::barrier's wait polls its phase word with LDS). A compare-and-swap retry
    loop, whose compare value is the last value read, is not one."""
    if branch.guard is None:
        return None
    setters = [i for i in loop if branch.guard.index in _predicates_written(i)]
    writes = [(i, _written(i)) for i in loop if not _sets_constant(i)]
    for ins in loop:
        if not (ins.opcode in ("ATOM", "ATOMG", "ATOMS", "LDS") or (
                ins.opcode in ("LD", "LDG") and "STRONG" in ins.modifiers and DEVICE_SCOPES & set(ins.modifiers))):
            continue
        dest = _destination(ins)
        if dest is None or not any(isinstance(op, Reg) and op.kind == "R" and op.index == dest
                                   for s in setters for op in s.operands):
            continue
        inputs = _inputs(ins)
        varying = set().union(*(w for i, w in writes if i is not ins))
        if not inputs & varying:
            return ins
    return None


def _destination(ins) -> int | None:
    """The register a load or atomic returns its value in (None: RZ or none)."""
    for op in ins.operands:
        if isinstance(op, Mem):
            return None
        if isinstance(op, Reg) and op.kind == "R":
            return op.index
    return None


def _predicates_written(ins) -> set[int]:
    """The predicates an instruction sets: those it names before its first R register (ISETP P0,
    PT, R2, ...; LOP3.LUT P0, RZ, R5, ...)."""
    out: set[int] = set()
    for op in ins.operands:
        if not isinstance(op, Reg) or op.kind not in ("P", "R"):
            break
        if op.kind == "R":
            break
        if op.index is not None:
            out.add(op.index)
    return out


def _inputs(ins) -> set[int]:
    """The registers a load or atomic reads: its address and, after it, its data."""
    out: set[int] = set()
    seen_address = False
    for op in ins.operands:
        if isinstance(op, Mem):
            seen_address = True
            if op.base is not None and op.base.kind == "R" and op.base.index is not None:
                out |= {op.base.index, op.base.index + 1} if "64" in op.base.suffixes else {op.base.index}
        elif seen_address and isinstance(op, Reg) and op.kind == "R" and op.index is not None:
            out.add(op.index)
    return out


def _written(ins) -> set[int]:
    """The R registers an instruction may write (its destination and, for 64- and 128-bit
    results, the registers after it); predicate-only instructions write none."""
    if ins.opcode.endswith("SETP") or ins.opcode in ("PLOP3", "R2P") or ins.opcode in TERMINATORS:
        return set()
    dest = _destination(ins) if ins.opcode in STORE_OPCODES else next(
        (op.index for op in ins.operands if isinstance(op, Reg) and op.kind == "R"), None)
    if dest is None:
        return set()
    width = 4 if "128" in ins.modifiers else 2 if {"64", "WIDE"} & set(ins.modifiers) else 1
    return set(range(dest, dest + width))


def _sets_constant(ins) -> bool:
    """An instruction that writes the same value each time round a loop: a move of an immediate or
    RZ, and ptxas's other constant moves, which it picks to balance pipes: HFMA2 of RZ * RZ plus
    an f16 pair (HFMA2.MMA R4, -RZ, RZ, 0, 0) and CS2R of SRZ (a zero register pair)."""
    ops = ins.operands
    if ins.opcode == "HFMA2":
        return (len(ops) >= 4 and all(_is_rz(op) for op in ops[1:3])
                and all(isinstance(op, Imm) for op in ops[3:]))
    if ins.opcode == "CS2R":
        return len(ops) == 2 and isinstance(ops[1], Reg) and ops[1].name == "SRZ"
    last = ops[-1] if ops else None
    return is_immediate_move(ins) and (isinstance(last, Imm) or _is_rz(last))


def _is_rz(op) -> bool:
    return isinstance(op, Reg) and op.kind == "R" and op.index is None
