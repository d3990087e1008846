"""Device printf: nvcc calls `vprintf(format, args)` with CALL.ABS.NOINC through an address that
c[0x4] relocates to `vprintf`; R4:R5 hold the format string (a relocated c[0x4] word naming a
`$str` variable) and R6:R7 the generic address of the packed argument buffer in the local frame.

The lifter reads the format string from the cubin, so it knows each argument's type and offset
(the buffer aligns every argument to its size; floats arrive as doubles), and lowers the call to
ROCm's printf protocol (__ockl_printf_begin / append_string_n / append_args from ockl.bc, which the
lift pass links in; the emulator serves their hostcalls). vprintf's result (R4) is the number of
arguments, as CUDA documents printf's."""

from __future__ import annotations

import re

from llvmlite import ir

from .core import FLAT, I32, I64, ConstRef, Lifter, Reg, unsupported

SPEC = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
                  r"(?P<length>hh|h|ll|l|j|z|t|L)?(?P<conv>[diouxXfFeEgGaAcsp%])")
OCKL = ("__ockl_printf_begin", "__ockl_printf_append_args", "__ockl_printf_append_string_n")


def arguments(fmt: str) -> list[tuple[int, bool]]:
    """(size, is a string) of each argument a format string consumes, in order."""
    out = []
    for m in SPEC.finditer(fmt):
        conv = m.group("conv")
        if conv == "%":
            continue
        for part in ("width", "prec"):
            if m.group(part) == "*":
                out.append((4, False))
        if conv in "fFeEgGaAsp" or (m.group("length") or "") in ("l", "ll", "j", "z", "t"):
            out.append((8, conv == "s"))
        else:
            out.append((4, False))
    return out


def _strlen(ctx: Lifter, ptr: ir.Value) -> ir.Value:
    """Bytes of a NUL-terminated string, the NUL included (a loop over its bytes); 0 for NULL,
    which ockl prints as "(null)"."""
    b = ctx.b
    start = b.block
    loop, done = ctx.new_block("strlen"), ctx.new_block("strlen_done")
    null = b.icmp_unsigned("==", b.ptrtoint(ptr, I64), ir.Constant(I64, 0))
    b.cbranch(null, done, loop)
    b.position_at_end(loop)
    n = b.phi(I64)
    n.add_incoming(ir.Constant(I64, 0), start)
    byte = b.load(b.gep(ptr, [n], source_etype=ir.IntType(8)), typ=ir.IntType(8))
    nxt = b.add(n, ir.Constant(I64, 1))
    n.add_incoming(nxt, loop)
    b.cbranch(b.icmp_unsigned("==", byte, ir.Constant(ir.IntType(8), 0)), done, loop)
    b.position_at_end(done)
    length = b.phi(I64)
    length.add_incoming(ir.Constant(I64, 0), start)
    length.add_incoming(nxt, loop)
    return length


def _written_from(instructions, call, register: tuple[str, int], leaders: set[int]):
    """The c[0x4] offset whose word the last write of `register` before `call` (same block) moved
    in, following register moves (sm_90 goes through a uniform register: ULDC.64 UR4, c[0x4][0x8];
    MOV R4, UR4)."""
    earlier = [i for i in instructions if i.address < call.address]
    for ins in reversed(earlier):
        if ins.opcode in ("BRA", "EXIT", "CALL", "RET", "BRX") or \
                (ins.address + 16 in leaders and ins.address + 16 != call.address):
            return None
        if not ins.operands or not isinstance(ins.operands[0], Reg):
            continue
        dest = ins.operands[0]
        wide = "64" in ins.modifiers
        if dest.kind != register[0] or dest.index is None or \
                not dest.index <= register[1] <= dest.index + (1 if wide else 0):
            continue
        src = ins.operands[-1]
        if isinstance(src, ConstRef) and src.bank == 4 and src.reg is None:
            return src.offset + 4 * (register[1] - dest.index)
        if isinstance(src, Reg) and src.kind in ("R", "UR") and src.index is not None and not wide and \
                ins.opcode in ("MOV", "UMOV", "IMAD", "R2UR") and all(
                    isinstance(o, Reg) and o.index is None for o in ins.operands[1:-1]):
            return _written_from([i for i in earlier if i.address < ins.address] + [ins], ins,
                                 (src.kind, src.index), leaders)
        return None
    return None


def format_string(ctx: Lifter, ins) -> tuple[str, str]:
    """(symbol, text) of the format string this CALL.ABS passes in R4:R5."""
    facts = ctx.state["facts"]
    offset = _written_from(ctx.state["instructions"], ins, ("R", 4), ctx.state["cfg"].leaders)
    hit = facts.relocations.get((4, offset)) if offset is not None else None
    var = next((v for v in facts.variables if hit and v.name == hit[0]), None)
    if var is None:
        raise unsupported(ins, "format string not found")
    return var.name, bytes(var.data).split(b"\0")[0].decode("latin-1")


def call_abs(ctx: Lifter, ins) -> None:
    facts = ctx.state["facts"]
    if not any(sym == "vprintf" for sym, _t, _a in facts.relocations.values()):
        raise unsupported(ins, "absolute call to a function other than vprintf")
    ops = [op for op in ins.operands if isinstance(op, Reg) and op.kind == "R"]
    if len(ops) != 1 or "NOINC" not in ins.modifiers:
        raise unsupported(ins)
    symbol, fmt = format_string(ctx, ins)
    args = arguments(fmt)
    b = ctx.b
    from .launch import external_global
    fmt_ptr = b.addrspacecast(external_global(ctx, symbol), FLAT)
    buffer = ctx.u64(Reg("R", 6, "R6"))
    words = []                      # (value, is a string pointer)
    offset = 0
    for size, is_string in args:
        offset = (offset + size - 1) // size * size
        ptr = b.inttoptr(b.add(buffer, ir.Constant(I64, offset)), FLAT)
        v = b.load(ptr, typ=ir.IntType(8 * size), align=size)
        words.append((b.zext(v, I64) if size < 8 else v, is_string))
        offset += size
    i32 = lambda v: ir.Constant(I32, v)
    append_string = ctx.intrinsic(OCKL[2], I64, [I64, FLAT, I64, I32])
    append_args = ctx.intrinsic(OCKL[1], I64, [I64, I32] + [I64] * 7 + [I32])
    desc = b.call(ctx.intrinsic(OCKL[0], I64, [I64]), [ir.Constant(I64, 0)])
    desc = b.call(append_string, [desc, fmt_ptr, ir.Constant(I64, len(fmt.encode("latin-1")) + 1),
                                  i32(0 if words else 1)])
    pending: list[ir.Value] = []    # scalars go out seven at a time, strings on their own
    for k, (value, is_string) in enumerate(words):
        last = k == len(words) - 1
        if is_string:
            if pending:
                desc = _flush(ctx, append_args, desc, pending, False)
            string = b.inttoptr(value, FLAT)
            desc = b.call(append_string, [desc, string, _strlen(ctx, string), i32(1 if last else 0)])
            continue
        pending.append(value)
        if len(pending) == 7 or last:
            desc = _flush(ctx, append_args, desc, pending, last)
    ctx.set32(Reg("R", 4, "R4"), i32(len(args)))


def _flush(ctx: Lifter, append_args, desc: ir.Value, pending: list, last: bool) -> ir.Value:
    padded = pending + [ir.Constant(I64, 0)] * (7 - len(pending))
    out = ctx.b.call(append_args, [desc, ir.Constant(I32, len(pending))] + padded + [ir.Constant(I32, int(last))])
    pending.clear()
    return out
