"""Control: branches (per thread; LLVM's AMDGPU backend handles divergence), BRX jump tables,
EXIT, CALL.REL/RET.REL subroutines and CALL.ABS/RET.ABS device functions within the kernel's
function, BPT.TRAP, memory fences,
WARPSYNC.EXCLUSIVE's lane groups. Barriers (BAR, B2R) are in barrier.py.
BSSY/BSYNC/BREAK/WARPSYNC are reconvergence hints for NVIDIA's scheduler: nothing to do here."""

from __future__ import annotations

from llvmlite import ir

from .cfg import is_subroutine_call, label_address
from .core import I32, Imm, Label, Lifter, Reg, handles, unsupported
from .opcodes import is_warp_branch

SCOPES = {"CTA": "workgroup", "SM": "workgroup", "GPU": "agent", "VC": "agent", "SYS": None}


def _condition(ctx: Lifter, ins) -> ir.Value | None:
    """guard AND the branch's predicate operand; None when unconditional."""
    cond = ctx.guard_value
    for op in ins.operands:
        if isinstance(op, Reg) and op.kind in ("P", "UP") and not ctx.is_pt(op):
            p = ctx.pred(op)
            cond = p if cond is None else ctx.b.and_(cond, p)
    return cond


def _goto(ctx: Lifter, ins, target: ir.Block) -> None:
    cond = _condition(ctx, ins)
    if cond is None:
        ctx.b.branch(target)
    else:
        ctx.b.cbranch(cond, target, ctx.block_at(ins.address + 16))


@handles("BRA", kind="control")
def bra(ctx: Lifter, ins) -> None:
    """BRA [P,] target; BRA.DIV URmask, target / BRA.CONV URmask, target: ptxas's test of whether
    the lanes of a warp operation's mask are converged (all active), choosing between the bare
    warp instruction (BRA.DIV falls through to it, BRA.CONV branches to it) and nvcc's
    warp-synchronous helper (WARPSYNC, then the same instruction). The lifted warp operations do
    not need convergence: they work on the lanes that are active, grouped by their masks
    (warp.py), so both paths compute the same, and the lift takes the bare one: BRA.DIV is never
    taken; BRA.CONV is taken when its guard holds, and always when its bare path is grouped by
    the mask (takes_bare_path). The test's mask, a REDUX.OR of the lanes' masks, and its
    guard, a MATCH.ANY or R2UR comparison of them, are then dead code."""
    ctx.check(ins, {"U", "DIV", "CONV", "INC", "DEC"})
    data = [op for op in ins.operands if isinstance(op, Reg) and op.kind in ("R", "UR")]
    if is_warp_branch(ins):
        if len(data) != 1:
            raise unsupported(ins, "warp branch without its mask")
        if "DIV" in ins.modifiers:
            ctx.b.branch(ctx.block_at(ins.address + 16))
            return
        if takes_bare_path(ctx, ins):
            ctx.b.branch(ctx.block_at(label_address(ins)))
            return
    elif data:
        raise unsupported(ins, "register operand")
    _goto(ctx, ins, ctx.block_at(label_address(ins)))


# ctx.state's set of the BRA.CONV addresses whose target warp.py put in a split's region
BARE_PATHS = "bare_paths"


def takes_bare_path(ctx: Lifter, branch) -> bool:
    return branch.address in ctx.state.get(BARE_PATHS, ())


@handles("CALL", kind="control")
def call(ctx: Lifter, ins) -> None:
    """CALL.REL to a subroutine of the section, CALL.ABS to a device function that the callees
    pass placed after the kernel: both run in the kernel's function, one copy per call site;
    CALL.REL to a block label is a branch; CALL.ABS through a register goes to the function whose
    relocated c[0x4] word the register holds (printf.py: vprintf, __assertfail). Any other call
    through a register goes through a function pointer: to one of the functions the callees pass
    listed, or, when it listed none, to targets that are not known (refused)."""
    if any(isinstance(op, Reg) and op.kind in ("R", "UR") for op in ins.operands):
        from .printf import callee
        if ins.extras.get("call_targets") and ("REL" in ins.modifiers or callee(ctx, ins) is None):
            _call_pointer(ctx, ins, ins.extras["call_targets"])
            return
        if "REL" in ins.modifiers or callee(ctx, ins) is None:
            raise unsupported(ins, "call through a function pointer (its possible targets are not known)")
    if "REL" in ins.modifiers or is_subroutine_call(ins):
        ctx.check(ins, {"REL", "ABS", "NOINC"})
        copied = bool(ctx.state["cfg"].contexts) and is_subroutine_call(ins)
        _goto(ctx, ins, ctx.block_at(label_address(ins), ctx.context + (ins.address,) if copied else None))
        return
    missing = [op.name for op in ins.operands if isinstance(op, Label) and op.address is None]
    if missing:   # vprintf, malloc ... that a device link left to the driver
        from .linked_calls import lower
        lower(ctx, ins, missing[0])
        return
    from .printf import call_abs
    call_abs(ctx, ins)


def _call_pointer(ctx: Lifter, ins, pointed: list[tuple[int, int]]) -> None:
    """A call through a function pointer: a switch on the pointer over the functions it may
    reach (CALL.ABS: the handles of the address-taken functions, cubin.FUNCTION_HANDLE_BASE;
    CALL.REL Rn `(kernel)`: the offsets of the functions in the kernel's section), each case a call
    of that function; any other value (a null or stale pointer) traps, as the GPU would fault."""
    ctx.check(ins, {"ABS", "REL", "NOINC"})
    regs = [op for op in ins.operands if isinstance(op, Reg) and op.kind == "R"]
    if len(regs) != 1:
        raise unsupported(ins, "call through a function pointer in a uniform register")
    b = ctx.b
    target = ctx.u64(Reg("R", regs[0].index, regs[0].name))
    cond = _condition(ctx, ins)
    if cond is not None:
        go = ctx.new_block("indirect_call")
        b.cbranch(cond, go, ctx.block_at(ins.address + 16))
        b.position_at_end(go)
    nowhere = ctx.new_block("bad_function_pointer")
    with b.goto_block(nowhere):
        b.call(ctx.intrinsic("llvm.trap", ir.VoidType(), [], ("noreturn", "nounwind")), [])
        b.unreachable()
    switch = b.switch(target, nowhere)
    copied = bool(ctx.state["cfg"].contexts)
    for handle, start in pointed:
        switch.add_case(ir.Constant(ir.IntType(64), handle),
                        ctx.block_at(start, ctx.context + (ins.address,) if copied else None))


@handles("EXIT", kind="control")
def exit_(ctx: Lifter, ins) -> None:
    ctx.check(ins, {"KEEPREFCOUNT"})
    cond = _condition(ctx, ins)
    if cond is None:
        ctx.b.ret_void()
        return
    done = ctx.new_block("exit")
    ctx.b.cbranch(cond, done, ctx.block_at(ins.address + 16))
    with ctx.b.goto_block(done):
        ctx.b.ret_void()


def _dispatch(ctx: Lifter, ins, value: ir.Value, targets: list[int]) -> None:
    """Switch on a code address; any other value cannot happen in code nvcc wrote."""
    nowhere = ctx.new_block("badtarget")
    with ctx.b.goto_block(nowhere):
        ctx.b.unreachable()
    cond = _condition(ctx, ins)
    if cond is not None:
        go = ctx.new_block("indirect")
        ctx.b.cbranch(cond, go, ctx.block_at(ins.address + 16))
        ctx.b.position_at_end(go)
    sw = ctx.b.switch(value, nowhere)
    for t in dict.fromkeys(targets):
        sw.add_case(ir.Constant(I32, t), ctx.block_at(t))


@handles("BRX", kind="control")
def brx(ctx: Lifter, ins) -> None:
    """`BRX R4 -0x380`: target = R4 + imm + address of the next instruction; the jump table in
    c[0x2] holds function-relative addresses, the .nv.info lists the targets."""
    ctx.check(ins, set())
    regs = [op for op in ins.operands if isinstance(op, Reg) and op.kind == "R"]
    imms = [op for op in ins.operands if not isinstance(op, Reg)]
    if len(regs) != 1 or any(not isinstance(op, Imm) for op in imms):   # SectionOffset: relocatable code
        raise unsupported(ins, "BRX operands")
    value = ctx.u32(regs[0], ("64",))
    delta = ins.address + 16 + (ctx.imm_bits32(imms[0]) if imms else 0)
    value = ctx.b.add(value, ctx.c32(delta))
    _dispatch(ctx, ins, value, ctx.state["cfg"].brx_targets[ins.address])


@handles("RET", kind="control")
def ret(ctx: Lifter, ins) -> None:
    """RET.REL from a subroutine, RET.ABS from a device function: back to the call site (the
    return-address register only matters when recursion keeps one shared body)."""
    ctx.check(ins, {"REL", "ABS", "NODEC"})
    regs = [op for op in ins.operands if isinstance(op, Reg) and op.kind == "R"]
    if len(regs) != 1:
        raise unsupported(ins, "RET without a return-address register")
    if ctx.state["cfg"].contexts:       # this copy of the subroutine returns to its one call site
        if not ctx.context:
            raise unsupported(ins, "RET outside a subroutine")
        _goto(ctx, ins, ctx.block_at(ctx.context[-1] + 16, ctx.context[:-1]))
        return
    value = ctx.u32(Reg(regs[0].kind, regs[0].index, regs[0].name))
    _dispatch(ctx, ins, value, ctx.state["cfg"].return_sites)


@handles("BSSY", "BSYNC", "BREAK", "NOP", "YIELD", "NANOSLEEP", "DEPBAR", "LDGDEPBAR",
         "CCTL", "ERRBAR", "CGAERRBAR", "PMTRIG", "CCTLL", "ENDCOLLECTIVE", kind="pure")
def hint(ctx: Lifter, ins) -> None:
    """Scheduling, reconvergence and cache hints: no effect on one thread's results (WARPSYNC is
    registered by warp.py, which handles .EXCLUSIVE and hands every other form here).
    WARPSYNC.COLLECTIVE mask, L ... ENDCOLLECTIVE (sm_90) runs the enclosed warp operation for the
    lanes of the mask and continues at L, the instruction after ENDCOLLECTIVE: straight-line code."""
    if "COLLECTIVE" in ins.modifiers:
        end = next((i for i in ctx.state["instructions"] if i.address > ins.address and i.opcode == "ENDCOLLECTIVE"), None)
        if end is None or label_address(ins) != end.address + 16:
            raise unsupported(ins, "collective region that does not end at its label")


@handles("BMOV", kind="pure")
def bmov(ctx: Lifter, ins) -> None:
    """BMOV.32[.CLEAR] R, B / BMOV.32 B, R: saving and restoring convergence barriers around calls.
    The barriers (BSSY/BSYNC) are hints here, so their saved state is 0 and restoring is nothing."""
    ctx.check(ins, {"32", "CLEAR"})
    d, src = ctx.operands(ins, 2)
    if isinstance(d, Reg) and d.kind == "R":
        ctx.set32(d, ir.Constant(I32, 0))
    elif not (isinstance(d, Reg) and d.kind == "B"):
        raise unsupported(ins, "operands")


@handles("BPT", kind="effect")
def bpt(ctx: Lifter, ins) -> None:
    """BPT.TRAP n: the device-side abort nvcc emits for impossible cases (a tiled_partition of a
    size that is not a power of two): llvm.trap, which ends the kernel with an error."""
    ctx.check(ins, {"TRAP"})
    if "TRAP" not in ins.modifiers:
        raise unsupported(ins, "breakpoint")
    ctx.b.call(ctx.intrinsic("llvm.trap", ir.VoidType(), [], ("noreturn", "nounwind")), [])


@handles("MEMBAR", kind="effect")
def membar(ctx: Lifter, ins) -> None:
    ctx.check(ins, {"SC", "ALL", "CTA", "GPU", "SYS", "VC", "SM"})
    scope = next((SCOPES[m] for m in ins.modifiers if m in SCOPES), "agent")
    ctx.b.fence("seq_cst" if "SC" in ins.modifiers else "acq_rel", scope)


@handles("LEPC", kind="pure")
def lepc(ctx: Lifter, ins) -> None:
    """The address of this instruction, function-relative like every code address here."""
    ctx.set64(ins.operands[0], ir.Constant(ir.IntType(64), ins.address))
