"""Device printf: nvcc calls `vprintf(format, args)` with CALL.ABS.NOINC through an address that
c[0x4] relocates to `vprintf`; R4:R5 hold the format string (a relocated c[0x4] word naming a
`$str` variable) and R6:R7 the generic address of the packed argument buffer in the local frame.

The lifter reads the format string from the cubin, so it knows each argument's type and offset
(the buffer aligns every argument to its size; floats arrive as doubles), and lowers the call to
ROCm's printf protocol (__ockl_printf_begin / append_string_n / append_args from ockl.bc, which the
lift pass links in; the emulator serves their hostcalls). vprintf's result (R4) is the number of
arguments, as CUDA documents printf's.

A failed assert() calls `__assertfail(message, file, line, function, charSize)` the same way (R4:R5,
R6:R7, R8, R10:R11, R12:R13): it prints CUDA's message through the same protocol, sets the code
object's ASSERT_FLAG and ends its wave. CUDA reports the assert to the host as cudaErrorAssert at
the next synchronization, and the context is unusable after it (every call fails), so what the
kernel's other threads still do is never seen; libcassrt reads the flag when it waits for the
device and returns that error from then on. A trap would end the whole process on ROCm. The
callee of a CALL.ABS is the symbol relocated into the c[0x4] word its register was loaded from;
any other callee is refused by name."""

from __future__ import annotations

import re

from llvmlite import ir

from .core import FLAT, I32, I64, ConstRef, Imm, Lifter, Reg, opaque, unsupported
from .opcodes import MOVE_OPCODES, TERMINATORS, is_immediate_move

SPEC = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
                  r"(?P<length>hh|h|ll|l|j|z|t|L)?(?P<conv>[diouxXfFeEgGaAcsp%])")
OCKL = ("__ockl_printf_begin", "__ockl_printf_append_args", "__ockl_printf_append_string_n")
ASSERT_FLAG = "__cass_assert_raised"    # an i32, 1 once an assert failed; cassrt.h names it too


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
        if ins.opcode in TERMINATORS or \
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
                ins.opcode in MOVE_OPCODES and all(
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


def _loaded_from(instructions, call, index: int, leaders: set[int]) -> int | None:
    """The c[0x4] offset of `LDC.64 Rn, c[0x4][Rm]` (Rm an immediate moved in) writing the call's
    register pair Rn, in the call's block."""
    for ins in reversed([i for i in instructions if i.address < call.address]):
        if ins.address + 16 in leaders and ins.address + 16 != call.address:
            return None
        dest = ins.operands[0] if ins.operands else None
        if not (isinstance(dest, Reg) and dest.kind == "R" and dest.index == index):
            continue
        src = ins.operands[-1]
        if ins.opcode != "LDC" or not isinstance(src, ConstRef) or src.bank != 4 or src.reg is None:
            return None
        for earlier in reversed([i for i in instructions if i.address < ins.address]):
            first = earlier.operands[0] if earlier.operands else None
            if isinstance(first, Reg) and first.kind == "R" and first.index == src.reg.index:
                value = earlier.operands[-1]
                moved = is_immediate_move(earlier)
                return src.offset + int(value.value) if moved and isinstance(value, Imm) else None
        return None
    return None


def callee(ctx: Lifter, ins) -> str | None:
    """The function a CALL.ABS through a register calls, from the relocation of the c[0x4] word
    the register was loaded from; when that load is not found, the only function relocated there."""
    facts = ctx.state["facts"]
    regs = [op for op in ins.operands if isinstance(op, Reg) and op.kind == "R"]
    if len(regs) == 1 and regs[0].index is not None:
        args = (ctx.state["instructions"], ins, regs[0].index, ctx.state["cfg"].leaders)
        offset = _written_from(args[0], ins, ("R", regs[0].index), args[3])
        offset = offset if offset is not None else _loaded_from(*args)
        hit = facts.relocations.get((4, offset)) if offset is not None else None
        if hit is not None:
            return hit[0]
    variables = {v.name for v in facts.variables}
    functions = {sym for (bank, _o), (sym, _t, _a) in facts.relocations.items() if bank == 4 and sym not in variables}
    return functions.pop() if len(functions) == 1 else None


def call_abs(ctx: Lifter, ins) -> None:
    ops = [op for op in ins.operands if isinstance(op, Reg) and op.kind == "R"]
    if len(ops) != 1 or "NOINC" not in ins.modifiers:
        raise unsupported(ins)
    target = callee(ctx, ins)
    if target == "__assertfail":
        assert_fail(ctx, ins)
        return
    if target != "vprintf":
        raise unsupported(ins, f"absolute call to {target or 'an unknown function'}")
    symbol, fmt = format_string(ctx, ins)
    print_buffer(ctx, symbol, fmt)


def print_buffer(ctx: Lifter, symbol: str, fmt: str) -> None:
    """vprintf(format, argument buffer in R6:R7) with the format string known: each argument's size
    and offset in the buffer follow from it. R4 gets the argument count, as vprintf returns."""
    from .launch import external_global
    b = ctx.b
    buffer = ctx.u64(Reg("R", 6, "R6"))
    words = []                      # (value, is a string pointer)
    offset = 0
    for size, is_string in arguments(fmt):
        offset = (offset + size - 1) // size * size
        ptr = b.inttoptr(b.add(buffer, ir.Constant(I64, offset)), FLAT)
        v = b.load(ptr, typ=ir.IntType(8 * size), align=size)
        words.append((b.zext(v, I64) if size < 8 else v, is_string))
        offset += size
    _print(ctx, b.addrspacecast(external_global(ctx, symbol), FLAT), len(fmt.encode("latin-1")) + 1, words)
    ctx.set32(Reg("R", 4, "R4"), ir.Constant(I32, len(words)))


def _static_string(ctx: Lifter, ins, index: int) -> str | None:
    """The text of the cubin string whose address the call passes in R<index>:R<index+1>."""
    facts = ctx.state["facts"]
    offset = _written_from(ctx.state["instructions"], ins, ("R", index), ctx.state["cfg"].leaders)
    hit = facts.relocations.get((4, offset)) if offset is not None else None
    var = next((v for v in facts.variables if hit and v.name == hit[0] and not hit[2]), None)
    return bytes(var.data).split(b"\0")[0].decode("latin-1") if var is not None else None


def assert_fail(ctx: Lifter, ins) -> None:
    """CUDA's assertion message, then the code object's ASSERT_FLAG set and the wave ended. The
    message, file and function texts are read from the cubin when their relocations say which
    strings they are (then they are part of the format), else printed from their addresses."""
    b = ctx.b
    from .launch import special_register
    texts, words = [], []
    for index in (6, 8, 10):                  # file, line, function
        text = _static_string(ctx, ins, index) if index != 8 else None
        if text is not None:
            texts.append(text.replace("%", "%%"))
        elif index == 8:
            texts.append("%u")
            words.append((b.zext(ctx.u32(Reg("R", 8, "R8")), I64), False))
        else:
            texts.append("%s")
            words.append((ctx.u64(Reg("R", index, f"R{index}")), True))
    words += [(b.zext(special_register(ctx, Reg("SR", None, f"SR_{kind}.{axis}")), I64), False)
              for kind in ("CTAID", "TID") for axis in "XYZ"]
    message = _static_string(ctx, ins, 4)
    if message is None:
        words.append((ctx.u64(Reg("R", 4, "R4")), True))
    fmt = (f"{texts[0]}:{texts[1]}: {texts[2]}: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `"
           f"{'%s' if message is None else message.replace('%', '%%')}` failed.\n")
    data = bytearray(fmt.encode("latin-1") + b"\0")
    name = f"__cass_assert_{ins.address:x}"     # one per call instruction, shared by its copies
    g = ctx.module.globals.get(name)
    if g is None:
        g = ir.GlobalVariable(ctx.module, ir.ArrayType(ir.IntType(8), len(data)), name, addrspace=1)
        g.initializer = ir.Constant(ir.ArrayType(ir.IntType(8), len(data)), data)
        g.global_constant = True
        g.linkage = "private"
    _print(ctx, b.addrspacecast(g, FLAT), len(data), words)
    flag = ctx.module.globals.get(ASSERT_FLAG)
    if flag is None:
        flag = ir.GlobalVariable(ctx.module, I32, ASSERT_FLAG, addrspace=1)
        flag.linkage = "common"          # every kernel's module that asserts has it; the link keeps one
        flag.initializer = ir.Constant(I32, 0)
        flag.align = 4
    b.store(ir.Constant(I32, 1), opaque(flag, 1), align=4)
    b.call(ctx.intrinsic("llvm.amdgcn.endpgm", ir.VoidType(), [], ("noreturn", "nounwind")), [])


def _print(ctx: Lifter, fmt_ptr: ir.Value, fmt_size: int, words: list) -> None:
    """One printf through ROCm's protocol: the format, then the arguments ((value, is a string))."""
    b = ctx.b
    i32 = lambda v: ir.Constant(I32, v)
    append_string = ctx.intrinsic(OCKL[2], I64, [I64, FLAT, I64, I32])
    append_args = ctx.intrinsic(OCKL[1], I64, [I64, I32] + [I64] * 7 + [I32])
    desc = b.call(ctx.intrinsic(OCKL[0], I64, [I64]), [ir.Constant(I64, 0)])
    desc = b.call(append_string, [desc, fmt_ptr, ir.Constant(I64, fmt_size), i32(0 if words else 1)])
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


def _flush(ctx: Lifter, append_args, desc: ir.Value, pending: list, last: bool) -> ir.Value:
    padded = pending + [ir.Constant(I64, 0)] * (7 - len(pending))
    out = ctx.b.call(append_args, [desc, ir.Constant(I32, len(pending))] + padded + [ir.Constant(I32, int(last))])
    pending.clear()
    return out
