"""What the CUDA driver and device runtime give a kernel besides its parameters: the grid-sync
workspace of cooperative launches, and malloc/free in device code.

Grid sync. `cooperative_groups::this_grid().sync()` compiles to SASS that reads a workspace
address from c[0x0][0x8c] (high word) and c[0x0][0x90] (low word; c[0x0][0x44] and c[0x0][0x48]
on sm_90): PTX's %envreg1/%envreg2, which CUDA's driver fills for cooperative launches. The SASS
runs its own barrier on the word at workspace+4: each block's leader adds 1 (block 0 adds
0x80000001 - nblocks), then spins until the sign bit flips. The sum over a barrier is 0x80000000,
so the word returns to its low bits after every barrier: one zero-initialised word per kernel,
living in the code object, serves every launch of that kernel (two cooperative launches of one
kernel running at once on two streams would share it).

malloc/free. nvcc calls the device runtime with `CALL.ABS.NOINC Rn` where Rn:Rn+1 came from a
c[0x4] word that the cubin relocates to `malloc` or `free`; the size (or the pointer) is in
R4:R5 and malloc's result comes back in R4:R5. A call site whose register load the block shows
(`LDC.64 R2, c[0x4][R0]`) calls that function directly; otherwise those words lift to tags and
the call to a switch on the tag. The allocator is LLVM IR in the kernel's module
(`heap_functions`): size classes of powers of two with lock-free free lists (64-bit
compare-and-swap of an offset and an ABA tag; one list per lane) and a bump pointer, on a heap
whose base and size libcassrt writes into the code object's `__cass_device_heap` (base 0 until
then: malloc returns NULL). cass_cc/runtime/cass_device_heap.h is the same allocator, same layout, for hipcc.
"""

from __future__ import annotations

from llvmlite import ir

from cass_cc.runtime import device_heap as layout

from .core import FLAT, GLOBAL, HANDLERS, I1, I32, I64, I8, ConstRef, Imm, Lifter, Reg, handles, opaque, unsupported
from .opcodes import STORE_OPCODES, is_immediate_move

GRID_WORKSPACE = "__cass_grid_workspace"
# c[0x0] offset -> which half of the workspace address it holds (1: high), by SASS architecture
GRID_WORKSPACE_WORDS = {"sm_90": {0x44: 1, 0x48: 0}}
GRID_WORKSPACE_WORDS_BEFORE_SM90 = {0x8c: 1, 0x90: 0}
HEAP = layout.VARIABLE                         # {u64 base, u64 size}, written by libcassrt
FUNCTIONS = {"malloc": 1, "free": 2}           # device runtime function -> its tag
TAG_BASE = 0xCA55_0000_0000_0000               # a relocated word of FUNCTIONS lifts to TAG_BASE | tag

# Heap layout (cass_cc/runtime/cass_device_heap.h defines it, cass_cc.runtime.device_heap reads
# it): a header of HEAD_BYTES (the bump offset, then LISTS free-list heads per size class), then
# blocks; a block is BLOCK_HEADER bytes (its class, the next free block) + the user's bytes, so
# user pointers are 16-byte aligned, as CUDA's malloc makes them. A thread frees to and first
# allocates from the list of its lane, so the lanes of a wave do not contend for one head; the
# other lanes' lists are searched when the heap is used up.
CLASSES, LISTS, MIN_SHIFT, BLOCK_HEADER, HEAD_BYTES = (layout.CLASSES, layout.LISTS, layout.MIN_SHIFT,
                                                     layout.BLOCK_HEADER, layout.HEAD_BYTES)


# ---- grid sync ---------------------------------------------------------------------------------
def grid_workspace_words(sm_arch: str) -> dict[int, int]:
    return GRID_WORKSPACE_WORDS.get(sm_arch, GRID_WORKSPACE_WORDS_BEFORE_SM90)


def grid_workspace_word(ctx: Lifter, offset: int) -> ir.Value:
    """The high or low word of this kernel's grid-sync workspace address."""
    g = ctx.module.globals.get(GRID_WORKSPACE)
    if g is None:
        g = ir.GlobalVariable(ctx.module, ir.ArrayType(I32, 4), GRID_WORKSPACE, addrspace=1)
        g.linkage = "internal"
        g.initializer = ir.Constant(g.value_type, None)
        g.align = 16
    address = ctx.b.ptrtoint(ctx.b.addrspacecast(opaque(g, 1), FLAT), I64)
    if grid_workspace_words(ctx.sm_arch)[offset]:
        address = ctx.b.lshr(address, ir.Constant(I64, 32))
    return ctx.b.trunc(address, I32)


# ---- malloc / free -----------------------------------------------------------------------------
def function_word(symbol: str, offset_in_word: int, width: int) -> ir.Constant | None:
    """The lifted value of a c[0x4] word that the cubin relocates to a device runtime function
    (None when `symbol` is not one)."""
    tag = FUNCTIONS.get(symbol)
    if tag is None:
        return None
    value = (TAG_BASE | tag) >> (8 * offset_in_word)
    return ir.Constant(ir.IntType(8 * width), value & ((1 << (8 * width)) - 1))


_lift_call = HANDLERS["CALL"][0]       # control.py's CALL (CALL.REL subroutines, vprintf)


@handles("CALL", kind="control")
def call(ctx: Lifter, ins) -> None:
    """CALL.ABS through a register in a kernel that calls malloc/free: a switch on the tag the
    register holds, whose other targets (vprintf, ...) are control.py's; every other CALL is
    control.py's."""
    facts = ctx.state["facts"]
    symbols = {sym for sym, _t, _a in facts.relocations.values()}
    called = symbols & FUNCTIONS.keys()
    ops = [op for op in ins.operands if isinstance(op, Reg) and op.kind == "R"]
    if "ABS" not in ins.modifiers or not called or len(ops) != 1 or len(ins.operands) != 1:
        _lift_call(ctx, ins)
        return
    if "NOINC" not in ins.modifiers:
        raise unsupported(ins, "absolute call form")
    target = callee(ctx, ins, ops[0])
    if target is not None and target not in FUNCTIONS:
        _lift_call(ctx, ins)            # vprintf (or another function control.py knows)
        return
    b = ctx.b
    guard, ctx.guard_value = ctx.guard_value, None
    after = ctx.new_block("call_done")
    if guard is not None:
        run = ctx.new_block("call")
        b.cbranch(guard, run, after)
        b.position_at_end(run)
    other = ctx.new_block("call_other")
    switch = b.switch(ctx.u64(ops[0]), other)
    for name in sorted(called if target is None else {target}):
        block = ctx.new_block(f"call_{name}")
        switch.add_case(ir.Constant(I64, TAG_BASE | FUNCTIONS[name]), block)
        b.position_at_end(block)
        r4 = Reg("R", 4, "R4")
        if name == "malloc":
            ctx.set64(r4, b.ptrtoint(b.call(heap_functions(ctx)[0], [ctx.u64(r4)]), I64))
        else:
            b.call(heap_functions(ctx)[1], [b.inttoptr(ctx.u64(r4), FLAT)])
        b.branch(after)
    b.position_at_end(other)
    if target is None and symbols - called - {v.name for v in facts.variables}:   # vprintf may be called here
        _lift_call(ctx, ins)
        if not b.block.is_terminated:
            b.branch(after)
    else:
        b.unreachable()
    b.position_at_end(after)


def callee(ctx: Lifter, call, reg: Reg) -> str | None:
    """The symbol whose relocated c[0x4] word the call's register was loaded from within its block
    (`LDC.64 R2, c[0x4][R0]` with `MOV R0, 0x8` before it, or `c[0x4][0x8]`), or None."""
    load = _last_write(ctx, call, reg.index)
    if load is None or load.opcode != "LDC" or len(load.operands) != 2:
        return None
    dest, ref = load.operands
    if not isinstance(ref, ConstRef) or ref.bank != 4 or not isinstance(dest, Reg) or dest.index != reg.index:
        return None
    offset = ref.offset
    if ref.reg is not None and ref.reg.index is not None:
        index = _last_write(ctx, load, ref.reg.index)
        moved = index is not None and is_immediate_move(index)
        if not moved or not isinstance(index.operands[-1], Imm):
            return None
        offset += int(index.operands[-1].value)
    hit = ctx.state["facts"].relocations.get((4, offset))
    return hit[0] if hit else None


def _last_write(ctx: Lifter, before, index: int):
    """The unguarded instruction that last wrote R<index> before `before` in its basic block (None
    when there is none, it is guarded, it may write a register range around it, or a call is in
    between)."""
    leaders = ctx.state["cfg"].leaders
    if before.address in leaders:
        return None
    for ins in reversed([i for i in ctx.state["instructions"] if i.address < before.address]):
        if ins.opcode == "CALL":
            return None
        dest = ins.operands[0] if ins.operands else None
        if isinstance(dest, Reg) and dest.kind == "R" and dest.index is not None and \
                dest.index <= index < dest.index + _written(ins) and ins.opcode not in STORE_OPCODES:
            return ins if ins.guard is None and dest.index == index else None
        if ins.address in leaders:
            return None
    return None


def _written(ins) -> int:
    """How many registers from its destination an instruction writes (an upper bound)."""
    mods = set(ins.modifiers)
    if "128" in mods:
        return 4
    if mods & {"64", "WIDE", "F64", "S64", "U64"} or ins.opcode.startswith("D") or ins.opcode == "LEPC":
        return 2
    return 1


def heap_functions(ctx: Lifter) -> tuple[ir.Function, ir.Function]:
    """`ptr __cass_malloc(i64)` and `void __cass_free(ptr)`, defined once per module."""
    module = ctx.module
    found = module.globals.get("__cass_malloc")
    if found is not None:
        return found, module.globals["__cass_free"]
    heap = module.globals.get(HEAP)
    if heap is None:
        heap = ir.GlobalVariable(module, ir.ArrayType(I64, 2), HEAP, addrspace=1)
        heap.linkage = "common"      # every kernel's module has it; the link keeps one, STB_GLOBAL
        heap.initializer = ir.Constant(heap.value_type, None)
        heap.align = 16
    return _define_malloc(module, opaque(heap, 1)), _define_free(module, opaque(heap, 1))


def _intrinsic(module: ir.Module, name: str, ret: ir.Type, args: list) -> ir.Function:
    found = module.globals.get(name)
    return found if found is not None else ir.Function(module, ir.FunctionType(ret, args), name=name)


def _atomic_load(b: ir.IRBuilder, ptr: ir.Value, ty: ir.Type) -> ir.Value:
    return b.load_atomic(ptr, "monotonic", ty.width // 8, typ=ty)


def _store_atomic(b: ir.IRBuilder, value: ir.Value, ptr: ir.Value) -> None:
    # IRBuilder.store_atomic checks a pointee type, which opaque pointers do not have
    b._insert(ir.instructions.StoreAtomicInstr(b.block, value, ptr, "monotonic", value.type.width // 8))


def _cas(b: ir.IRBuilder, ptr: ir.Value, old: ir.Value, new: ir.Value) -> ir.Value:
    """Whether the 64-bit compare-and-swap stored `new`."""
    return b.extract_value(b.cmpxchg(ptr, old, new, "acq_rel", "monotonic"), 1)


def _gep(b: ir.IRBuilder, base: ir.Value, offset: ir.Value) -> ir.Value:
    return b.gep(base, [offset], source_etype=I8)


def _list_head(b: ir.IRBuilder, base: ir.Value, cls: ir.Value, lane: ir.Value) -> ir.Value:
    """The head of free list `lane` of class `cls`: the offset of its first block >> OFFSET_SHIFT
    | ABA tag << 32."""
    index = b.add(b.mul(cls, ir.Constant(I64, LISTS)), lane)
    offset = b.add(ir.Constant(I64, layout.LIST_HEADS), b.mul(index, ir.Constant(I64, 8)))
    return _gep(b, b.inttoptr(base, GLOBAL), offset)


def _lane(b: ir.IRBuilder, module: ir.Module) -> ir.Value:
    """The lane in the wave, modulo LISTS (a wave64's two halves share the lists: any list is
    right, the lane only spreads the contention)."""
    lo = _intrinsic(module, "llvm.amdgcn.mbcnt.lo", I32, [I32, I32])
    hi = _intrinsic(module, "llvm.amdgcn.mbcnt.hi", I32, [I32, I32])
    lane = b.call(hi, [ir.Constant(I32, -1), b.call(lo, [ir.Constant(I32, -1), ir.Constant(I32, 0)])])
    return b.zext(b.and_(lane, ir.Constant(I32, LISTS - 1)), I64)


def _define_pop(module: ir.Module) -> ir.Function:
    """`i64 __cass_heap_pop(ptr addrspace(1) head, i64 base)`: the offset of a block taken off a
    free list, 0 when the list is empty."""
    fn = ir.Function(module, ir.FunctionType(I64, [GLOBAL, I64]), name="__cass_heap_pop")
    fn.linkage = "internal"
    head_ptr, base = fn.args
    entry, loop, take, done = (fn.append_basic_block(n) for n in ("entry", "loop", "take", "done"))
    b = ir.IRBuilder(entry)
    b.branch(loop)
    b.position_at_end(loop)
    head = _atomic_load(b, head_ptr, I64)
    first = b.and_(head, ir.Constant(I64, 0xFFFFFFFF))
    b.cbranch(b.icmp_unsigned("==", first, ir.Constant(I64, 0)), done, take)
    b.position_at_end(take)
    block_off = b.shl(first, ir.Constant(I64, layout.OFFSET_SHIFT))
    nxt = _atomic_load(b, _gep(b, b.inttoptr(base, GLOBAL), b.add(block_off, ir.Constant(I64, layout.NEXT_FREE))), I64)
    tag = b.add(b.lshr(head, ir.Constant(I64, 32)), ir.Constant(I64, 1))
    new_head = b.or_(b.and_(nxt, ir.Constant(I64, 0xFFFFFFFF)), b.shl(tag, ir.Constant(I64, 32)))
    b.cbranch(_cas(b, head_ptr, head, new_head), done, loop)
    b.position_at_end(done)
    taken = b.phi(I64)
    taken.add_incoming(ir.Constant(I64, 0), loop)
    taken.add_incoming(block_off, take)
    b.ret(taken)
    return fn


def _define_malloc(module: ir.Module, heap: ir.Value) -> ir.Function:
    fn = ir.Function(module, ir.FunctionType(FLAT, [I64]), name="__cass_malloc")
    fn.linkage = "internal"
    size, = fn.args
    pop = _define_pop(module)
    entry, own, bump, bumped, scan, scan_next, found, null = (fn.append_basic_block(n) for n in (
        "entry", "own", "bump", "bumped", "scan", "scan_next", "found", "null"))
    b = ir.IRBuilder(entry)
    base = b.load(heap, typ=I64)
    limit = b.load(_gep(b, heap, ir.Constant(I64, 8)), typ=I64)
    # class c holds blocks of 2^(c + MIN_SHIFT) bytes, header included: the smallest power of two
    # >= size + header is 2^shift with shift = 64 - ctlz(size + header - 1)
    last = b.add(size, ir.Constant(I64, BLOCK_HEADER - 1))
    leading = b.call(_intrinsic(module, "llvm.ctlz.i64", I64, [I64, I1]), [last, ir.Constant(I1, 0)])
    shift = b.sub(ir.Constant(I64, 64), leading)
    shift = b.select(b.icmp_unsigned("<", shift, ir.Constant(I64, MIN_SHIFT)), ir.Constant(I64, MIN_SHIFT), shift)
    cls = b.sub(shift, ir.Constant(I64, MIN_SHIFT))
    block_bytes = b.shl(ir.Constant(I64, 1), shift)
    usable = b.icmp_unsigned("!=", base, ir.Constant(I64, 0))
    usable = b.and_(usable, b.icmp_unsigned("<", cls, ir.Constant(I64, CLASSES)))
    usable = b.and_(usable, b.icmp_unsigned("<", size, ir.Constant(I64, 1 << layout.MAX_SHIFT)))
    b.cbranch(usable, own, null)

    b.position_at_end(own)              # a block this lane's threads freed
    mine = b.call(pop, [_list_head(b, base, cls, _lane(b, module)), base])
    b.cbranch(b.icmp_unsigned("!=", mine, ir.Constant(I64, 0)), found, bump)

    b.position_at_end(bump)             # a fresh block from the untouched end of the heap
    words = b.inttoptr(base, GLOBAL)
    room = lambda start: b.and_(       # offsets must fit 32 bits once shifted into a list head
        b.icmp_unsigned("<=", b.add(b.add(start, ir.Constant(I64, HEAD_BYTES)), block_bytes), limit),
        b.icmp_unsigned("<", start, ir.Constant(I64, 1 << (32 + layout.OFFSET_SHIFT))))
    take, undo = fn.append_basic_block("take"), fn.append_basic_block("undo")
    # a request that cannot fit leaves the bump offset alone, so it cannot starve later ones
    b.cbranch(room(_atomic_load(b, words, I64)), take, scan)
    b.position_at_end(take)
    start = b.atomic_rmw("add", words, block_bytes, "monotonic")
    offset = b.add(start, ir.Constant(I64, HEAD_BYTES))      # both multiples of BLOCK_HEADER
    b.cbranch(room(start), bumped, undo)
    b.position_at_end(undo)             # others took the room meanwhile
    b.atomic_rmw("sub", words, block_bytes, "monotonic")
    b.branch(scan)
    b.position_at_end(bumped)
    b.store(cls, _gep(b, words, offset))
    b.branch(found)

    b.position_at_end(scan)             # the heap is used up: blocks other lanes freed
    lane = b.phi(I64)
    lane.add_incoming(ir.Constant(I64, 0), bump)
    lane.add_incoming(ir.Constant(I64, 0), undo)
    theirs = b.call(pop, [_list_head(b, base, cls, lane), base])
    b.cbranch(b.icmp_unsigned("!=", theirs, ir.Constant(I64, 0)), found, scan_next)
    b.position_at_end(scan_next)
    nxt = b.add(lane, ir.Constant(I64, 1))
    lane.add_incoming(nxt, scan_next)
    b.cbranch(b.icmp_unsigned("<", nxt, ir.Constant(I64, LISTS)), scan, null)

    b.position_at_end(found)
    block = b.phi(I64)
    block.add_incoming(mine, own)
    block.add_incoming(offset, bumped)
    block.add_incoming(theirs, scan)
    b.ret(b.inttoptr(b.add(b.add(base, block), ir.Constant(I64, BLOCK_HEADER)), FLAT))

    b.position_at_end(null)
    b.ret(ir.Constant(FLAT, None))
    return fn


def _define_free(module: ir.Module, heap: ir.Value) -> ir.Function:
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [FLAT]), name="__cass_free")
    fn.linkage = "internal"
    ptr, = fn.args
    entry, push, done = (fn.append_basic_block(n) for n in ("entry", "push", "done"))
    b = ir.IRBuilder(entry)
    base = b.load(heap, typ=I64)
    address = b.ptrtoint(ptr, I64)
    limit = b.load(_gep(b, heap, ir.Constant(I64, 8)), typ=I64)
    block_off = b.sub(address, b.add(base, ir.Constant(I64, BLOCK_HEADER)))
    # free(NULL) does nothing, nor does a pointer outside the heap's blocks (no heap: base 0)
    ours = b.and_(b.icmp_unsigned("!=", base, ir.Constant(I64, 0)),
                  b.icmp_unsigned(">=", block_off, ir.Constant(I64, HEAD_BYTES)))
    ours = b.and_(ours, b.icmp_unsigned("<", block_off, limit))
    b.cbranch(ours, push, done)
    heap_ptr = lambda off: _gep(b, b.inttoptr(base, GLOBAL), off)
    b.position_at_end(push)
    cls = b.load(heap_ptr(block_off), typ=I64)
    # a header that holds no class (the pointer is no block start, or the program wrote before
    # its block) is left alone rather than followed outside the list heads
    head_ptr = _list_head(b, base, cls, _lane(b, module))
    loop = fn.append_basic_block("push_loop")
    b.cbranch(b.icmp_unsigned("<", cls, ir.Constant(I64, CLASSES)), loop, done)
    b.position_at_end(loop)
    head = _atomic_load(b, head_ptr, I64)
    next_slot = heap_ptr(b.add(block_off, ir.Constant(I64, layout.NEXT_FREE)))
    _store_atomic(b, b.and_(head, ir.Constant(I64, 0xFFFFFFFF)), next_slot)
    tag = b.add(b.lshr(head, ir.Constant(I64, 32)), ir.Constant(I64, 1))
    new_head = b.or_(b.lshr(block_off, ir.Constant(I64, layout.OFFSET_SHIFT)), b.shl(tag, ir.Constant(I64, 32)))
    b.cbranch(_cas(b, head_ptr, head, new_head), done, loop)
    b.position_at_end(done)
    b.ret_void()
    return fn
