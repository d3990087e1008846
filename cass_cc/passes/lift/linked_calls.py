"""Calls that a device link leaves to the CUDA driver. In a linked cubin (-rdc) kernels call
vprintf, __assertfail, malloc and free as `CALL.ABS.NOINC `(vprintf)`, a symbol the cubin does not define, and
load a format string's address as `32@lo($str)` / `32@hi($str)` immediates; whole-program builds
reach the same functions through relocated c[0x4] words instead (printf.py, device_runtime.py).
The lowerings are theirs: ROCm's printf protocol, the device heap."""

from __future__ import annotations

from .core import FLAT, I64, Lifter, Reg, SymbolRef, unsupported
from .opcodes import MOVE_OPCODES


def lower(ctx: Lifter, ins, name: str) -> None:
    """CALL.ABS `(name)`, its guard honoured."""
    if name not in ("vprintf", "__assertfail", "malloc", "free"):
        raise unsupported(ins, f"call to '{name}', which is not defined in the cubin")
    b = ctx.b
    after = None
    if ctx.guard_value is not None:
        run, after = ctx.new_block("call"), ctx.new_block("call_done")
        b.cbranch(ctx.guard_value, run, after)
        b.position_at_end(run)
    if name == "vprintf":
        _printf(ctx, ins)
    elif name == "__assertfail":
        from .printf import assert_fail
        assert_fail(ctx, ins)       # the texts printed from their addresses (32@lo(...) immediates)
    else:
        from .device_runtime import heap_functions
        r4 = Reg("R", 4, "R4")
        malloc, free = heap_functions(ctx)
        if name == "malloc":
            ctx.set64(r4, b.ptrtoint(b.call(malloc, [ctx.u64(r4)]), I64))
        else:
            b.call(free, [b.inttoptr(ctx.u64(r4), FLAT)])
    if after is not None:
        b.branch(after)
        b.position_at_end(after)


def symbol_in(ctx: Lifter, call, kind: str, index: int) -> str | None:
    """The symbol whose address's low half register kind+index holds at `call`: written in the
    call's block by `MOV R4, 32@lo($str)`, or moved there from a register that was
    (`UMOV UR4, 32@lo($str)`; `MOV R4, UR4`)."""
    leaders = ctx.state["cfg"].leaders
    at = call
    for ins in reversed([i for i in ctx.state["instructions"] if i.address < call.address]):
        if at.address in leaders:
            return None
        at = ins
        dest = ins.operands[0] if ins.operands else None
        if not (isinstance(dest, Reg) and dest.kind == kind and dest.index == index):
            continue
        src = ins.operands[-1]
        between = ins.operands[1:-1]
        if ins.guard is not None or ins.opcode not in MOVE_OPCODES or ("64" in ins.modifiers) or \
                any(not (isinstance(o, Reg) and o.index is None) for o in between):
            return None
        if isinstance(src, SymbolRef):
            return src.symbol if src.part == "lo" and not src.label else None
        if isinstance(src, Reg) and src.kind in ("R", "UR") and src.index is not None:
            kind, index = src.kind, src.index
            continue
        return None
    return None


def _printf(ctx: Lifter, ins) -> None:
    """vprintf(format in R4:R5, argument buffer in R6:R7): the format string is read from the
    cubin, so each argument's size and offset in the buffer is known."""
    from .printf import print_buffer

    symbol = symbol_in(ctx, ins, "R", 4)
    var = next((v for v in ctx.state["facts"].variables if v.name == symbol), None)
    if var is None:
        raise unsupported(ins, "vprintf's format string not found")
    print_buffer(ctx, symbol, bytes(var.data).split(b"\0")[0].decode("latin-1"))
