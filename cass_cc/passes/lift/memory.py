"""Memory: LDG/STG (global, addrspace 1), LDS/STS (the kernel's LDS array, addrspace 3),
LDL/STL (the private frame), LD/ST (generic: flat), LDC/ULDC (constant banks), LDGSTS (an
asynchronous global->shared copy, done synchronously; its DEPBARs are then no-ops), QSPC (which
window a generic address falls in)."""

from __future__ import annotations

from llvmlite import ir

from .core import FLAT, GLOBAL, I16, I32, I64, I8, ConstRef, Lifter, Mem, Reg, handles, unsupported
from .launch import const_load, frame_pointer, lds_pointer

WIDTHS = {"U8": (1, False), "S8": (1, True), "U16": (2, False), "S16": (2, True), "32": (4, False),
          "64": (8, False), "128": (16, False)}
# cache and ordering hints that do not change one thread's result
HINTS = {"E", "EF", "EL", "LU", "EU", "NA", "CONSTANT", "WEAK", "PRIVATE", "LTC64B", "LTC128B",
         "LTC256B", "ZD", "BYPASS", "CTA", "SM", "GPU", "SYS", "VC", "STRONG", "MMIO", "U", "EN"}
SCOPE = {"CTA": "workgroup", "SM": "workgroup", "GPU": "agent", "VC": "agent", "SYS": None}


def access_width(ctx: Lifter, ins) -> tuple[int, bool]:
    sizes = [WIDTHS[m] for m in ins.modifiers if m in WIDTHS]
    ctx.check(ins, HINTS | set(WIDTHS))
    if len(sizes) > 1:
        raise unsupported(ins, "two access widths")
    return sizes[0] if sizes else (4, False)


def index32(ctx: Lifter, mem: Mem) -> ir.Value:
    """A 32-bit address: base register (scaled by .X4/.X8/.X16), uniform register and offset."""
    b = ctx.b
    v = ir.Constant(I32, mem.offset & 0xFFFFFFFF)
    if mem.base is not None:
        scale = 1
        for s in mem.base.suffixes:
            if s in ("X4", "X8", "X16"):
                scale = int(s[1:])
            elif s not in ("U32",):
                raise ctx.refuse(f"address suffix .{s}")
        r = ctx.u32(Reg(mem.base.kind, mem.base.index, mem.base.name))
        v = b.add(v, b.mul(r, ir.Constant(I32, scale)) if scale > 1 else r)
    if mem.ureg is not None:
        v = b.add(v, ctx.u32(Reg(mem.ureg.kind, mem.ureg.index, mem.ureg.name)))
    return v


def address64(ctx: Lifter, ins, mem: Mem) -> ir.Value:
    """A 64-bit global/generic address: `[R2.64+0x10]`, `[R2.64+UR4]`, `[UR4.64]`, `[0x10]`; with .E
    a base register is a pair even when nvdisasm omits `.64`."""
    b = ctx.b
    v = ir.Constant(I64, mem.offset & 0xFFFFFFFFFFFFFFFF)
    wide = "E" in ins.modifiers or mem.desc is not None or ctx.sm_arch == "sm_90"
    for r in (mem.base, mem.ureg):
        if r is None:
            continue
        extra = set(r.suffixes) - {"64", "U32"}
        if extra:
            raise ctx.refuse(f"address suffix .{extra.pop()}")
        plain = Reg(r.kind, r.index, r.name)
        if "64" in r.suffixes or (r is mem.base and wide and "U32" not in r.suffixes):
            v = b.add(v, ctx.u64(plain))
        else:
            v = b.add(v, b.zext(ctx.u32(plain), I64))
    return v


def pointer(ctx: Lifter, ins, mem, space: str) -> ir.Value:
    b = ctx.b
    if not isinstance(mem, Mem):
        raise unsupported(ins, "memory operand")
    if space == "global":
        return b.inttoptr(address64(ctx, ins, mem), GLOBAL)
    if space == "generic":
        return b.inttoptr(address64(ctx, ins, mem), FLAT)
    if space == "shared":
        return lds_pointer(ctx, index32(ctx, mem))
    return frame_pointer(ctx, index32(ctx, mem))


def load_value(ctx: Lifter, ins, ptr: ir.Value, size: int, signed: bool, fresh: bool = False) -> list[ir.Value]:
    """Load `size` bytes as the 32-bit register words they fill. A `fresh` load (shared memory)
    reads memory each time it runs, as every SASS load does: a relaxed atomic, which LLVM does
    not hoist out of a loop, so the SASS's spin loops on shared words (mbarrier waits, volatile
    flags) see other waves' writes. On AMD it is the same ds_load."""
    b = ctx.b
    strong = ("STRONG" in ins.modifiers or fresh) and size <= 8
    ty = {1: I8, 2: I16, 4: I32, 8: I64, 16: ir.VectorType(I32, 4)}[size]
    if strong:
        v = b.load_atomic(ptr, "monotonic", size, typ=ty)
    else:
        v = b.load(ptr, typ=ty, align=size)
        if "CONSTANT" in ins.modifiers:
            # LDG.E.CONSTANT is PTX's ld.global.nc, valid only on memory that stays read-only for
            # the kernel's lifetime: invariant, so LLVM may load a uniform address on the scalar
            # unit (s_load, as hipcc does for `const __restrict__`) instead of a vector load
            # whose uniform value then needs v_readfirstlane copies into SGPRs
            v.set_metadata("invariant.load", ctx.module.add_metadata([]))
    if size < 4:
        return [(b.sext if signed else b.zext)(v, I32)]
    if size == 4:
        return [v]
    if size == 8:
        return list(ctx.split64(v))
    return [b.extract_element(v, ir.Constant(I32, i)) for i in range(4)]


def store_value(ctx: Lifter, ins, ptr: ir.Value, size: int, words: list[ir.Value]) -> None:
    b = ctx.b
    if size < 4:
        v = b.trunc(words[0], I8 if size == 1 else I16)
    elif size == 4:
        v = words[0]
    elif size == 8:
        v = ctx.join64(words[0], words[1])
    else:
        v = ir.Constant(ir.VectorType(I32, 4), None)
        for i, w in enumerate(words):
            v = b.insert_element(v, w, ir.Constant(I32, i))
    if "STRONG" in ins.modifiers and size <= 8:
        # IRBuilder.store_atomic checks a pointee type, which opaque pointers do not have
        b._insert(ir.instructions.StoreAtomicInstr(b.block, v, ptr, "monotonic", size))
    else:
        b.store(v, ptr, align=size)


def _words(size: int) -> int:
    return max(size // 4, 1)


def _load(space: str):
    def handler(ctx: Lifter, ins) -> None:
        size, signed = access_width(ctx, ins)
        d, mem = ctx.operands(ins, 2)
        ctx.set_regs(d, load_value(ctx, ins, pointer(ctx, ins, mem, space), size, signed, space == "shared"))
    return handler


def _store(space: str):
    def handler(ctx: Lifter, ins) -> None:
        size, _ = access_width(ctx, ins)
        mem, src = ctx.operands(ins, 2)
        words = ctx.get_regs(src, _words(size)) if not (isinstance(src, Reg) and src.index is None) \
            else [ir.Constant(I32, 0)] * _words(size)
        store_value(ctx, ins, pointer(ctx, ins, mem, space), size, words)
    return handler


for _op, _space in (("LDG", "global"), ("LDS", "shared"), ("LDL", "local"), ("LD", "generic")):
    handles(_op, kind="effect")(_load(_space))
for _op, _space in (("STG", "global"), ("STS", "shared"), ("STL", "local"), ("ST", "generic")):
    handles(_op, kind="effect")(_store(_space))


@handles("LDC", "ULDC", kind="effect")
def ldc(ctx: Lifter, ins) -> None:
    size, signed = access_width(ctx, ins)
    d, ref = ctx.operands(ins, 2)
    if not isinstance(ref, ConstRef):
        raise unsupported(ins, "LDC source")
    if size == 8:
        ctx.set64(d, const_load(ctx, ref, I64))
    elif size == 4:
        ctx.set32(d, const_load(ctx, ref, I32))
    else:
        v = const_load(ctx, ref, I8 if size == 1 else I16)
        ctx.set32(d, (ctx.b.sext if signed else ctx.b.zext)(v, I32))


@handles("LDGSTS", kind="effect")
def ldgsts(ctx: Lifter, ins) -> None:
    """LDGSTS [shared], [global][, Pread]: cp.async. With a false Pread the global side is not
    read and the shared bytes become zeros (cp.async's ignore-src / src-size 0: nvcc writes
    `@P0 LDGSTS [s], [g], !PT` for the threads past the end). .ZFILL: cp.async with a src-size
    in a register; the low bits of the global address (below the copy's size) hold the number of
    trailing bytes to zero, and Pread is src-size != 0."""
    if "ZFILL" in ins.modifiers:
        _ldgsts_zfill(ctx, ins)
        return
    size, _ = access_width(ctx, ins)
    ops = ctx.operands(ins, 2, 3)
    dst, src = ops[:2]
    if len(ops) == 2 or ctx.is_pt(ops[2]):
        words = load_value(ctx, ins, pointer(ctx, ins, src, "global"), size, False)
        store_value(ctx, ins, pointer(ctx, ins, dst, "shared"), size, words)
        return
    b = ctx.b
    read = ctx.pred(ops[2])
    target = pointer(ctx, ins, dst, "shared")
    copy, fill, done = ctx.new_block("ldgsts_copy"), ctx.new_block("ldgsts_zero"), ctx.new_block("ldgsts_done")
    b.cbranch(read, copy, fill)
    b.position_at_end(copy)
    store_value(ctx, ins, target, size, load_value(ctx, ins, pointer(ctx, ins, src, "global"), size, False))
    b.branch(done)
    b.position_at_end(fill)
    store_value(ctx, ins, target, size, [ir.Constant(I32, 0)] * _words(size))
    b.branch(done)
    b.position_at_end(done)


def _ldgsts_zfill(ctx: Lifter, ins) -> None:
    """Copy the src-size leading bytes from the aligned global address and zero the rest, byte by
    byte: no byte past src-size is read (it may lie past the end of the source)."""
    ctx.check(ins, HINTS | set(WIDTHS) | {"ZFILL"})
    sizes = [WIDTHS[m][0] for m in ins.modifiers if m in WIDTHS]
    if len(sizes) > 1:
        raise unsupported(ins, "two access widths")
    size = sizes[0] if sizes else 4
    ops = ctx.operands(ins, 2, 3)
    dst, src = ops[:2]
    b = ctx.b
    k = lambda v: ir.Constant(I32, v)
    address = address64(ctx, ins, src) if isinstance(src, Mem) else None
    if address is None:
        raise unsupported(ins, "memory operand")
    tail = b.trunc(b.and_(address, ir.Constant(I64, size - 1)), I32)
    base = b.inttoptr(b.sub(address, b.zext(tail, I64)), GLOBAL)
    keep = b.sub(k(size), tail)
    if len(ops) == 3 and not ctx.is_pt(ops[2]):
        keep = b.select(ctx.pred(ops[2]), keep, k(0))
    target = pointer(ctx, ins, dst, "shared")
    entry = b.block
    loop, done = ctx.new_block("zfill_byte"), ctx.new_block("zfill_done")
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I32)
    i.add_incoming(k(0), entry)
    copy, zero, next_ = ctx.new_block("zfill_copy"), ctx.new_block("zfill_zero"), ctx.new_block("zfill_next")
    b.cbranch(b.icmp_unsigned("<", i, keep), copy, zero)
    b.position_at_end(copy)
    byte = b.load(b.gep(base, [i], source_etype=I8), typ=I8)
    b.branch(next_)
    b.position_at_end(zero)
    b.branch(next_)
    b.position_at_end(next_)
    value = b.phi(I8)
    value.add_incoming(byte, copy)
    value.add_incoming(ir.Constant(I8, 0), zero)
    b.store(value, b.gep(target, [i], source_etype=I8))
    after = b.add(i, k(1))
    i.add_incoming(after, next_)
    b.cbranch(b.icmp_unsigned("<", after, k(size)), loop, done)
    b.position_at_end(done)


@handles("QSPC")
def qspc(ctx: Lifter, ins) -> None:
    """QSPC.E.S P, RZ, [a]: is the generic address in the shared window (isspacep.shared; nvcc's
    slow path of a generic atomic). QSPC.E.D asks for the cluster's distributed shared window,
    which holds the block's own shared memory: without clusters (gfx1100) that is the same
    question. QSPC.E.G (isspacep.global, -G builds of cg::memcpy_async): neither shared nor local."""
    ctx.check(ins, {"E", "S", "D", "G"})
    window = [m for m in ins.modifiers if m in ("S", "D", "G")]
    if len(window) != 1:
        raise unsupported(ins, "address window")
    p, d, mem = ctx.operands(ins, 3)
    if not (isinstance(d, Reg) and d.index is None):
        raise unsupported(ins, "register result")
    ptr = pointer(ctx, ins, mem, "generic")
    shared = ctx.call("llvm.amdgcn.is.shared", ir.IntType(1), [ptr])
    if window[0] != "G":
        ctx.setp(p, shared)
        return
    private = ctx.call("llvm.amdgcn.is.private", ir.IntType(1), [ptr])
    ctx.setp(p, ctx.b.not_(ctx.b.or_(shared, private)))
