"""The kernel's interface and launch state: the AMDGPU kernel signature that reproduces CUDA's
parameter layout, constant banks (c[0x0] launch state and parameters, c[0x2] jump tables,
c[0x3] `__constant__` variables, c[0x4] addresses of device globals), special registers, the
private frame and the LDS array.

Constant bank 0 on sm_80..sm_90 (DESIGN.md, "Facts measured"): blockDim at 0x0/0x4/0x8, gridDim
at 0xc/0x10/0x14, the generic address of shared memory at 0x18, of the local window at 0x20, the
stack pointer at 0x28, the global memory descriptor at 0x118 (0x208 on sm_90), parameters from
0x160 (0x210 on sm_90).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from llvmlite import ir

from .core import CONST, FLAT, I1, I16, I32, I64, I8, LDS, PRIVATE, ConstRef, Lifter, PrivateAlloca, Reg, opaque
from cass_cc.rdna3.code_object import WAVE_PER_WARP_PACKED, WAVE_PER_WARP_PACKS, WAVE_PER_WARP_PREFIX, wave_per_warp_lanes

from .warp_model import WARP, WarpModel, lane_id, model

SHARED_NAME = "__cass_shared"
# The stack of a kernel with recursive subroutines has no static bound (CUDA programs raise
# cudaLimitStackSize for them); such kernels get this many bytes per thread.
RECURSIVE_STACK = 32768
UNKNOWN_STACK = 0xFFFFFFFF   # a stack size attribute nvlink could not determine


@dataclass
class Facts:
    """What the lifter needs of the kernel, in the lifter's terms; made from the one list of what
    the passes read of a cubin (cass_cc.fatbin.facts.KernelFacts, which the translation cache
    keys), never from the kernel itself."""
    name: str
    params: list[tuple[int, int, int]]       # (index, offset from the parameter base, size)
    param_base: int
    shared_size: int = 0
    stack_size: int = 0
    flat_workgroup_size: int = 1024
    launch_bounds: bool = False                # flat_workgroup_size is the kernel's own bound
    bank2: bytes = b""
    indirect_branches: dict[int, list[int]] = field(default_factory=dict)
    variables: list = field(default_factory=list)      # cass_cc.fatbin Variable (bank 3 and globals)
    relocations: dict[tuple[int, int], tuple[str, int, int]] = field(default_factory=dict)
    # (bank, offset) -> (symbol, relocation type, addend) for address words in constant banks


def facts_of(unit) -> Facts:
    from cass_cc.fatbin.facts import KernelFacts
    return lifter_facts(KernelFacts.of(unit))


def lifter_facts(k) -> Facts:
    """The lifter's Facts from a KernelFacts."""
    default_base = 0x210 if k.sm_arch == "sm_90" else 0x160
    f = Facts(k.name, [tuple(p)[:3] for p in k.params], k.param_base or default_base)
    if not k.extracted:
        return f
    f.shared_size = k.static_shared_size
    # nvlink's MIN_STACK_SIZE covers the frames of the device functions the kernel calls;
    # 0xffffffff says "not statically known" (recursion: stack_bytes gives those kernels more)
    sizes = (k.frame_size, k.max_stack_size, k.min_stack_size)
    f.stack_size = max(s for s in sizes if s != UNKNOWN_STACK)
    bounds = k.reqntid or k.max_threads
    if bounds:
        total = 1
        for d in bounds:
            total *= max(d, 1)
        f.flat_workgroup_size = min(total, 1024)
        f.launch_bounds = True
    f.indirect_branches = {a: list(t) for a, t in k.indirect_branches}
    f.variables = list(k.globals)
    banks = k.banks()
    if 2 in banks:
        f.bank2 = banks[2].data
    for bank, cb in banks.items():
        for r in cb.relocations:
            f.relocations[(bank, r.offset)] = (r.symbol, r.type, r.addend)
    return f


def arg_types(params: list[tuple[int, int, int]]) -> list[ir.Type]:
    """Explicit kernel arguments whose natural alignments put each CUDA parameter at its CUDA
    offset: scalars as iN, anything else as an array of the widest integer its offset and size
    allow; a gap alignment cannot produce gets an [n x i8] filler."""
    out: list[ir.Type] = []
    end = 0
    for _index, offset, size in sorted(params, key=lambda p: p[1]):
        align = 8
        while align > 1 and (offset % align or size % align):
            align //= 2
        if (end + align - 1) // align * align != offset:
            out.append(ir.ArrayType(I8, offset - end))
        elem = ir.IntType(8 * align)
        out.append(elem if size == align else ir.ArrayType(elem, size // align))
        end = offset + size
    return out


BLOCK_SHAPE = ir.ArrayType(I32, 3)     # CUDA's blockDim, after CUDA's parameters (wave_per_warp)


def block_shape_offset(facts: Facts) -> int:
    """Where the runtime puts CUDA's blockDim for a kernel run one warp per wave: the first
    4-aligned byte after CUDA's parameters (BLOCK_SHAPE's natural place after arg_types')."""
    end = max((offset + size for _index, offset, size in facts.params), default=0)
    return (end + 3) // 4 * 4


def declare_kernel(module: ir.Module, facts: Facts, warps: WarpModel) -> ir.Function:
    args = arg_types(facts.params)
    if warps.wave_per_warp:
        mark = ir.GlobalVariable(module, ir.ArrayType(I32, 3), WAVE_PER_WARP_PREFIX + facts.name, addrspace=1)
        mark.global_constant = True
        mark.initializer = ir.Constant(ir.ArrayType(I32, 3), [len(args), block_shape_offset(facts),
                                                              WAVE_PER_WARP_PACKS if warps.packs else 0])
        mark.align = 4
        args = args + [BLOCK_SHAPE]
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), args), name=facts.name)
    fn.calling_convention = "amdgpu_kernel"
    fn.attributes.add("nounwind")
    return fn


def module_text(module: ir.Module, facts: Facts, wave_per_warp: bool) -> str:
    """The module's text with the string attributes llvmlite.ir cannot attach (the flat work-group
    size from the CUDA launch bounds, in lanes: 64 for each warp when a wave holds one)."""
    text = str(module)
    marker = ") nounwind\n{"
    if marker not in text:
        raise AssertionError("kernel definition not found in the lifted module")
    lanes = facts.flat_workgroup_size
    if wave_per_warp:
        lanes = min(1024, wave_per_warp_lanes(lanes))
    return text.replace(marker, ') nounwind "amdgpu-flat-work-group-size"="1,%d"\n{' % lanes, 1)


# ---- launch state ------------------------------------------------------------------------------
def _kernarg(ctx: Lifter) -> ir.Value:
    if "kernarg" not in ctx.state:
        with ctx.b.goto_block(ctx.entry):
            ctx.b.position_at_start(ctx.entry)
            ctx.state["kernarg"] = ctx.b.call(ctx.intrinsic("llvm.amdgcn.kernarg.segment.ptr", CONST, []), [])
    return ctx.state["kernarg"]


def _implicitarg(ctx: Lifter) -> ir.Value:
    if "implicitarg" not in ctx.state:
        with ctx.b.goto_block(ctx.entry):
            ctx.b.position_at_start(ctx.entry)
            ctx.state["implicitarg"] = ctx.b.call(ctx.intrinsic("llvm.amdgcn.implicitarg.ptr", CONST, []), [])
    return ctx.state["implicitarg"]


def _load_at(ctx: Lifter, base: ir.Value, offset: ir.Value | int, ty: ir.Type, align: int) -> ir.Value:
    b = ctx.b
    off = offset if isinstance(offset, ir.Value) else ir.Constant(I64, offset)
    if off.type != I64:
        off = b.zext(off, I64)
    ptr = b.gep(base, [off], source_etype=I8)
    ld = b.load(ptr, typ=ty, align=align)
    ld.set_metadata("invariant.load", ctx.module.add_metadata([]))
    return ld


def stack_bytes(ctx: Lifter) -> int:
    size = max(ctx.state["facts"].stack_size, 16)
    return max(size, RECURSIVE_STACK) if ctx.state["cfg"].recursive else size


def frame(ctx: Lifter) -> ir.Value:
    """The private frame that LDL/STL and the stack pointer R1 index (R1 starts at its size)."""
    if "frame" not in ctx.state:
        size = stack_bytes(ctx)
        eb = ctx.entry_builder
        eb.position_at_start(ctx.entry)
        slot = PrivateAlloca(eb.block, ir.ArrayType(I8, size), "frame")
        slot.align = 16
        eb._insert(slot)
        ctx.state["frame"] = slot
    return ctx.state["frame"]


def shared_base(ctx: Lifter) -> ir.Value:
    """One LDS array, static size then dynamic shared memory; SASS addresses it from 0."""
    g = ctx.module.globals.get(SHARED_NAME)
    if g is None:
        # a whole number of 16-byte granules: LLVM may widen LDS loads to the alignment
        size = (ctx.state["facts"].shared_size + 15) // 16 * 16 + reduction_reserve(ctx) + reserved_smem_bytes(ctx)
        if size:
            g = ir.GlobalVariable(ctx.module, ir.ArrayType(I8, size), SHARED_NAME, addrspace=3)
            g.linkage = "internal"
            g.initializer = ir.Constant(g.value_type, ir.Undefined)
        else:   # no static shared memory: the dynamic array starts at 0
            g = ir.GlobalVariable(ctx.module, ir.ArrayType(I8, 0), SHARED_NAME, addrspace=3)
            g.linkage = "external"
        g.align = 16
    if reduction_reserve(ctx):
        return ir.FormattedConstant(LDS, f"getelementptr (i8, ptr addrspace(3) {g.get_reference()}, i64 {REDUCTION_BYTES})")
    return opaque(g, 3)


REDUCTION_BYTES = 16
# CUDA reserves 1 KiB of shared memory per block on sm_80+ (cooperative groups keep the barriers
# and scratch of tiles larger than a warp there, %reserved_smem_offset_1, c[0x0][0x124]). Here it
# follows the block's dynamic shared memory, which ends where the launch says (the runtime puts
# the dynamic bytes after the kernel's static LDS, which these bytes lengthen): RESERVED_SLACK
# keeps it clear of an extern array that ptxas aligned past the static end.
RESERVED_SMEM_BYTES, RESERVED_SLACK = 1024, 256
RESERVED_SMEM_WORD = 0x124


def reserved_smem_bytes(ctx: Lifter) -> int:
    """LDS bytes for CUDA's reserved shared memory, when the kernel reads where it starts."""
    if "reserved_smem" not in ctx.state:
        ctx.state["reserved_smem"] = RESERVED_SMEM_BYTES if ctx.sm_arch != "sm_90" and any(
            isinstance(op, ConstRef) and op.bank == 0 and op.offset == RESERVED_SMEM_WORD and op.reg is None
            for i in ctx.state["instructions"] for op in i.operands) else 0
    return ctx.state["reserved_smem"]


def _reserved_smem_offset(ctx: Lifter) -> ir.Value:
    """%reserved_smem_offset_1: past the static shared memory, the slack and the launch's dynamic
    bytes, 16-byte aligned, as a shared-window offset."""
    b = ctx.b
    shared_base(ctx)
    static_end = (ctx.state["facts"].shared_size + 15) // 16 * 16 + RESERVED_SLACK
    dynamic = b.add(_load_at(ctx, _implicitarg(ctx), DYNAMIC_LDS_SIZE, I32, 4), _dynamic_lds_mark(ctx))
    dynamic = b.and_(b.add(dynamic, ir.Constant(I32, 15)), ir.Constant(I32, ~15 & 0xFFFFFFFF))
    return b.add(dynamic, ir.Constant(I32, static_end))


def reduction_reserve(ctx: Lifter) -> int:
    """Bytes in front of the kernel's shared memory for the word BAR.RED reduces in (AMDGPU's
    barrier reduces nothing): CUDA's static and dynamic shared memory follow it, in that order."""
    return REDUCTION_BYTES if any(i.opcode == "BAR" and "RED" in i.modifiers
                                  for i in ctx.state["instructions"]) else 0


def reduction_word(ctx: Lifter) -> ir.Value:
    shared_base(ctx)
    return opaque(ctx.module.globals[SHARED_NAME], 3)


def _window(ctx: Lifter, base: ir.Value, bias: int = 0) -> ir.Value:
    """The generic address that SASS adds its shared or local offsets to."""
    with ctx.b.goto_block(ctx.entry):
        ctx.b.position_at_end(ctx.entry) if ctx.entry.terminator is None else ctx.b.position_before(ctx.entry.terminator)
        address = ctx.b.ptrtoint(ctx.b.addrspacecast(base, FLAT), I64)
        return ctx.b.sub(address, ir.Constant(I64, bias)) if bias else address


def _indexed_launch_word(ctx: Lifter, where: ir.Value, width: int) -> ir.Value:
    """c[0x0][Rx] below the parameters: -G code reads blockDim/gridDim by a computed index. A
    select over those six words; any other word traps (its value is not known here)."""
    b = ctx.b
    if width != 4:
        raise ctx.refuse("launch state indexed by a register")
    value = ir.Constant(I32, 0)
    known = ir.Constant(I1, 0)
    for offset in (0x0, 0x4, 0x8, 0xc, 0x10, 0x14):
        hit = b.icmp_unsigned("==", where, ir.Constant(I32, offset))
        value = b.select(hit, _launch_word(ctx, offset), value)
        known = b.or_(known, hit)
    trap, done = ctx.new_block("launch_word_unknown"), ctx.new_block("launch_word")
    b.cbranch(known, done, trap)
    b.position_at_end(trap)
    b.call(ctx.intrinsic("llvm.trap", ir.VoidType(), [], ("noreturn", "nounwind")), [])
    b.unreachable()
    b.position_at_end(done)
    return value


DYNAMIC_LDS_SIZE = 120       # hidden_dynamic_lds_size: its offset in the implicit arguments (v5)


def _dynamic_lds_mark(ctx: Lifter) -> ir.Value:
    """0, computed from the address of a zero-sized external LDS array: LLVM lists
    hidden_dynamic_lds_size in the metadata (so runtimes fill it) only for kernels that use such an
    array, and with static shared memory the lifted kernel's own LDS array is not one."""
    g = ctx.module.globals.get(DYNAMIC_MARK_NAME)
    if g is None:
        g = ir.GlobalVariable(ctx.module, ir.ArrayType(I8, 0), DYNAMIC_MARK_NAME, addrspace=3)
        g.linkage = "external"
        g.align = 4
    mark = ir.InlineAsm(ir.FunctionType(I32, [LDS]), "v_mov_b32 $0, 0 ; $1", "=v,v")
    return ctx.b.call(mark, [opaque(g, 3)])


DYNAMIC_MARK_NAME = "__cass_dynamic_shared"


def _launch_word(ctx: Lifter, offset: int) -> ir.Value:
    """A 32-bit word of c[0x0] outside the parameters."""
    b = ctx.b
    facts: Facts = ctx.state["facts"]
    if offset in (0x0, 0x4, 0x8) and model(ctx).wave_per_warp:    # blockDim: CUDA's, from the runtime
        word = _load_at(ctx, _kernarg(ctx), block_shape_offset(facts) + offset, I32, 4)
        return b.and_(word, ir.Constant(I32, ~WAVE_PER_WARP_PACKED & 0xffffffff)) if offset == 0 else word
    if offset in (0x0, 0x4, 0x8):      # blockDim: hidden_group_size_x/y/z (i16 at 12, 14, 16)
        return b.zext(_load_at(ctx, _implicitarg(ctx), 12 + offset // 2, I16, 2), I32)
    if offset in (0xc, 0x10, 0x14):    # gridDim: hidden_block_count_x/y/z (i32 at 0, 4, 8)
        return _load_at(ctx, _implicitarg(ctx), offset - 0xc, I32, 4)
    if offset in (0x18, 0x1c, 0x20, 0x24):
        key = "shared_window" if offset < 0x20 else "local_window"
        if key not in ctx.state:
            ctx.state[key] = _window(ctx, shared_base(ctx), shared_bias(ctx)) if offset < 0x20 \
                else _window(ctx, frame(ctx))
        w = ctx.state[key]
        return b.trunc(w if offset % 8 == 0 else b.lshr(w, ir.Constant(I64, 32)), I32)
    if offset == 0x28:                 # stack pointer: R1 counts down from the frame's size
        frame(ctx)
        return ir.Constant(I32, stack_bytes(ctx))
    from .device_runtime import grid_workspace_word, grid_workspace_words
    if offset in grid_workspace_words(ctx.sm_arch):  # %envreg1/2: the grid-sync workspace
        return grid_workspace_word(ctx, offset)
    if offset in (0x50, 0x54):         # generic address of __constant__ memory (cvta.const)
        from cass_cc.rdna3.globals import CONSTANT_BLOCK
        window = ctx.b.ptrtoint(ctx.b.addrspacecast(external_global(ctx, CONSTANT_BLOCK), FLAT), I64)
        return b.trunc(window if offset == 0x50 else b.lshr(window, ir.Constant(I64, 32)), I32)
    if offset == 0x2c:                 # %dynamic_smem_size: hidden_dynamic_lds_size (code object v5)
        return b.add(_load_at(ctx, _implicitarg(ctx), DYNAMIC_LDS_SIZE, I32, 4), _dynamic_lds_mark(ctx))
    if offset == RESERVED_SMEM_WORD and reserved_smem_bytes(ctx):
        return _reserved_smem_offset(ctx)
    if offset == 0x10c:                # %nsmid: one SM id (see special_register)
        return ir.Constant(I32, 1)
    if offset == 0x140 and ctx.sm_arch == "sm_90":   # 1 in a cluster launch: ptxas guards its cluster
        return ir.Constant(I32, 0)      # barriers with it (BAR.SYNC 0 otherwise); launches have no clusters
    desc = 0x208 if ctx.sm_arch == "sm_90" else 0x118
    if offset in (desc, desc + 4):     # global memory descriptor: AMDGPU has none
        return ir.Constant(I32, 0)
    raise ctx.refuse(f"constant bank 0 word 0x{offset:x}")


def const_load(ctx: Lifter, ref, ty: ir.Type) -> ir.Value:
    """c[bank][offset] (optionally + register) as i32 or i64."""
    b = ctx.b
    facts: Facts = ctx.state["facts"]
    if ref.offset < 0:      # nvdisasm prints offsets from 0x8000 up as negative 16-bit numbers
        ref = replace(ref, offset=ref.offset & 0xFFFF)     # (c[0x0][-0x7030]: word 0x8fd0)
    width = ty.width // 8
    if ref.symbol:          # only in a relocatable cubin, which extract refuses before the device link
        raise ctx.refuse(f"constant word relocated to {ref.symbol} (relocatable device code before the device link)")
    if ref.bank_reg is not None or ref.bank is None:
        raise ctx.refuse("constant bank selected by a register")
    dyn = ctx.u32(ref.reg) if ref.reg is not None and ref.reg.index is not None else None
    if ref.bank == 0:
        rel = ref.offset - facts.param_base
        if dyn is not None and rel < 0:
            return _indexed_launch_word(ctx, b.add(dyn, ir.Constant(I32, ref.offset)), width)
        if rel >= 0:
            off = ir.Constant(I32, rel) if dyn is None else b.add(dyn, ir.Constant(I32, rel))
            return _load_at(ctx, _kernarg(ctx), off, ty, min(width, 4))
        if width == 8:
            return ctx.join64(_launch_word(ctx, ref.offset), _launch_word(ctx, ref.offset + 4))
        if width < 4:
            raise ctx.refuse("sub-word read of the launch state")
        return _launch_word(ctx, ref.offset)
    if dyn is None:
        relocated = _relocated(ctx, ref.bank, ref.offset, width)
        if relocated is not None:
            return relocated
    elif ref.bank == 4:          # c[0x4][R0]: a select over the relocated address words
        value = ir.Constant(ty, 0)
        where = b.add(dyn, ir.Constant(I32, ref.offset))
        for (bank, offset) in sorted(facts.relocations):
            word = _relocated(ctx, bank, offset, width) if bank == 4 else None
            if word is not None:
                value = b.select(b.icmp_unsigned("==", where, ir.Constant(I32, offset)), word, value)
        return value
    if ref.bank == 2 and facts.bank2:
        g = _bank_global(ctx, 2, facts.bank2)
        # bank addresses wrap at 64 KiB: a device-linked jump table reads c[0x2][R0+-0x8000] with
        # 0x8000 added to R0 (the offset masked above makes that R0 + 0x8000)
        off = ir.Constant(I32, ref.offset) if dyn is None else \
            b.and_(b.add(dyn, ir.Constant(I32, ref.offset)), ir.Constant(I32, 0xFFFF))
        return _load_at(ctx, g, off, ty, min(width, 4))
    if ref.bank == 3:
        var = next((v for v in facts.variables if v.bank == 3 and v.offset <= ref.offset < v.offset + max(v.size, 1)), None)
        if var is None:
            raise ctx.refuse(f"c[0x3][0x{ref.offset:x}] is no __constant__ variable")
        g = external_global(ctx, var.name)
        off = ir.Constant(I32, ref.offset - var.offset) if dyn is None else b.add(dyn, ir.Constant(I32, ref.offset - var.offset))
        return _load_at(ctx, g, off, ty, min(width, 4))
    raise ctx.refuse(f"constant bank {ref.bank} word 0x{ref.offset:x}")


def symbol_word(ctx: Lifter, ref) -> ir.Value:
    """`32@lo(g_var)` / `32@hi(g_var)`: half of a device variable's address, as linked cubins
    write it in the code (the loader relocates it)."""
    if ref.label or not any(v.name == ref.symbol for v in ctx.state["facts"].variables):
        raise ctx.refuse(f"address of the symbol {ref.symbol}, which is no device variable of the cubin")
    address = ctx.b.ptrtoint(ctx.b.addrspacecast(external_global(ctx, ref.symbol), FLAT), I64)
    return ctx.b.trunc(address if ref.part == "lo" else ctx.b.lshr(address, ir.Constant(I64, 32)), I32)


def external_global(ctx: Lifter, name: str) -> ir.Value:
    """A device variable of the cubin: declared here, defined once per code object by the back end."""
    from cass_cc.rdna3.globals import code_object_symbol
    name = code_object_symbol(name)
    g = ctx.module.globals.get(name)
    if g is None:
        g = ir.GlobalVariable(ctx.module, ir.ArrayType(I8, 0), name, addrspace=1)
        g.linkage = "external"
    return opaque(g, 1)


def _relocated(ctx: Lifter, bank: int, offset: int, width: int) -> ir.Value | None:
    """A constant-bank word the cubin relocates: the (low/high half of the) address of a symbol."""
    rel = ctx.state["facts"].relocations
    hit = rel.get((bank, offset)) or rel.get((bank, offset - 4))
    if hit is None:
        return None
    symbol, _rtype, addend = hit
    if symbol in ("vprintf", "__assertfail"):
        return ir.Constant(ir.IntType(width * 8), 0)    # CALL.ABS through it is lowered in printf.py
    from .device_runtime import function_word
    base = offset if (bank, offset) in rel else offset - 4
    tag = function_word(symbol, offset - base, width)
    if tag is not None:                                  # malloc/free: device_runtime lowers the call
        return tag
    b = ctx.b
    addr = b.add(b.ptrtoint(external_global(ctx, symbol), I64), ir.Constant(I64, addend))
    base = offset if (bank, offset) in rel else offset - 4
    if width == 8 and base == offset:
        return addr
    if width == 4:
        return b.trunc(addr if offset == base else b.lshr(addr, ir.Constant(I64, 32)), I32)
    raise ctx.refuse(f"unaligned 64-bit read of relocated c[0x{bank:x}][0x{offset:x}]")


def _bank_global(ctx: Lifter, bank: int, data: bytes) -> ir.Value:
    name = f"__cass_cbank{bank}"
    g = ctx.module.globals.get(name)
    if g is None:
        ty = ir.ArrayType(I8, len(data))
        g = ir.GlobalVariable(ctx.module, ty, name, addrspace=4)
        g.linkage = "internal"
        g.global_constant = True
        g.initializer = ir.Constant(ty, bytearray(data))
        g.align = 4
    return opaque(g, 4)


# ---- special registers -------------------------------------------------------------------------
def _packed(ctx: Lifter) -> ir.Value | None:
    """One warp per wave with WAVE_PER_WARP_PACKS: whether this launch runs two warps to a wave
    (the runtime's bit in blockDim.x); None for any other kernel."""
    if not (model(ctx).wave_per_warp and model(ctx).packs):
        return None
    facts: Facts = ctx.state["facts"]
    word = _load_at(ctx, _kernarg(ctx), block_shape_offset(facts), I32, 4)
    return ctx.b.icmp_unsigned("!=", ctx.b.and_(word, ir.Constant(I32, WAVE_PER_WARP_PACKED)), ir.Constant(I32, 0))


def _flat_thread(ctx: Lifter) -> ir.Value:
    """The thread's index in its block, x fastest, as CUDA numbers threads (wave_per_warp: the
    wave's index times 32 plus the lane; lanes 32-63 have ended at entry)."""
    b = ctx.b

    def work_item() -> ir.Value:      # the work-group is CUDA's block
        x, y, z = (ctx.call(f"llvm.amdgcn.workitem.id.{a}", I32, []) for a in "xyz")
        return b.add(x, b.mul(_launch_word(ctx, 0x0), b.add(y, b.mul(_launch_word(ctx, 0x4), z))))
    if not model(ctx).wave_per_warp:
        return work_item()
    x = ctx.call("llvm.amdgcn.workitem.id.x", I32, [])
    per_warp = b.add(b.mul(b.lshr(x, ir.Constant(I32, 6)), ir.Constant(I32, WARP)), b.and_(x, ir.Constant(I32, WARP - 1)))
    packed = _packed(ctx)
    return per_warp if packed is None else b.select(packed, work_item(), per_warp)


def _thread_index(ctx: Lifter, axis: str) -> ir.Value:
    """threadIdx.axis: the work-item id, or, one warp per wave, CUDA's from the flat index."""
    if not model(ctx).wave_per_warp:
        return ctx.call(f"llvm.amdgcn.workitem.id.{axis}", I32, [])
    b = ctx.b
    flat, x_size, y_size = _flat_thread(ctx), _launch_word(ctx, 0x0), _launch_word(ctx, 0x4)
    if axis == "x":
        index = b.urem(flat, x_size)
    else:
        rows = b.udiv(flat, x_size)
        index = b.urem(rows, y_size) if axis == "y" else b.udiv(rows, y_size)
    packed = _packed(ctx)
    return index if packed is None else b.select(packed, ctx.call(f"llvm.amdgcn.workitem.id.{axis}", I32, []), index)


def end_idle_lanes(ctx: Lifter) -> None:
    """One warp per wave: lanes 32-63 of each wave, and the lanes past CUDA's block, end at the
    kernel's entry (not in a launch that runs two warps to a wave); the builder goes on in the
    block the others run."""
    b = ctx.b
    lane = ctx.call("llvm.amdgcn.workitem.id.x", I32, [])
    threads = b.mul(b.mul(_launch_word(ctx, 0x0), _launch_word(ctx, 0x4)), _launch_word(ctx, 0x8))
    idle = b.or_(b.icmp_unsigned("!=", b.and_(lane, ir.Constant(I32, WARP)), ir.Constant(I32, 0)),
                 b.icmp_unsigned(">=", _flat_thread(ctx), threads))
    packed = _packed(ctx)
    if packed is not None:
        idle = b.and_(idle, b.not_(packed))
    end, body = ctx.new_block("idle_lane"), ctx.new_block("warp_lane")
    b.cbranch(idle, end, body)
    b.position_at_end(end)
    b.ret_void()
    b.position_at_end(body)


def special_register(ctx: Lifter, reg: Reg) -> ir.Value:
    b = ctx.b
    name = reg.name
    axis = {"X": "x", "Y": "y", "Z": "z"}
    if name.startswith("SR_TID.") and name[-1] in axis:
        return _thread_index(ctx, axis[name[-1]])
    if name.startswith("SR_CTAID.") and name[-1] in axis:
        return ctx.call(f"llvm.amdgcn.workgroup.id.{axis[name[-1]]}", I32, [])
    if name == "SR_LANEID":
        return lane_id(ctx)     # warp_model: the lane in the warp, on wave64 too
    if name == "SR_CgaCtaId":          # the block's rank in its cluster: launches have no clusters
        return ir.Constant(I32, 0)
    if name == "SR_LMEMHIOFF":         # -G stack checks trap when R1 falls below it: the lifted
        return ir.Constant(I32, 0)     # frame's stack pointer counts down to offset 0
    if name in ("SR_CLOCKLO", "SR_CLOCKHI", "SR_GLOBALTIMERLO", "SR_GLOBALTIMERHI"):
        t = ctx.call("llvm.readsteadycounter", I64, [])    # see integer.cs2r: one 64-bit clock
        return b.trunc(t if name.endswith("LO") else b.lshr(t, ir.Constant(I64, 32)), I32)
    # %smid/%nsmid and %warpid/%nwarpid: CUDA promises only smid < nsmid and warpid < nwarpid, both
    # volatile (PTX ISA, "Special Registers"). One SM id (0 of 1) keeps every per-SM table
    # consistent; the warp's index in its block (the flattened thread ids fill the waves in order,
    # 32 to a warp on wave32 and wave64 alike, as NVIDIA packs warps) is below 32 = nwarpid, and SR_VIRTID/SR_VIRTCFG carry them in
    # bits 8-14 / 8-15, where ptxas's SHF+SGXT read them.
    if name == "SR_VIRTUALSMID":
        return ir.Constant(I32, 0)
    if name == "SR_VIRTID":
        return b.shl(b.lshr(_flat_thread(ctx), ir.Constant(I32, 5)), ir.Constant(I32, 8))
    if name == "SR_VIRTCFG":
        return ir.Constant(I32, 32 << 8)
    masks = {"SR_EQMASK": "==", "SR_LTMASK": "<", "SR_LEMASK": "<=", "SR_GTMASK": ">", "SR_GEMASK": ">="}
    if name in masks:
        lane = lane_id(ctx)
        one = b.shl(ir.Constant(I32, 1), lane)
        return {"==": lambda: one,
                "<": lambda: b.sub(one, ir.Constant(I32, 1)),
                "<=": lambda: b.or_(one, b.sub(one, ir.Constant(I32, 1))),
                ">": lambda: b.not_(b.or_(one, b.sub(one, ir.Constant(I32, 1)))),
                ">=": lambda: b.not_(b.sub(one, ir.Constant(I32, 1)))}[masks[name]]()
    raise ctx.refuse(f"special register {name}")


def frame_pointer(ctx: Lifter, offset: ir.Value) -> ir.Value:
    return ctx.b.gep(frame(ctx), [offset], source_etype=I8)


def shared_bias(ctx: Lifter) -> int:
    """sm_90 addresses shared memory from 0x400 (the reserved first KiB), earlier archs from 0."""
    return 0x400 if ctx.sm_arch == "sm_90" else 0


def lds_pointer(ctx: Lifter, offset: ir.Value) -> ir.Value:
    bias = shared_bias(ctx)
    if bias:
        offset = ctx.b.sub(offset, ir.Constant(offset.type, bias))
    return ctx.b.gep(shared_base(ctx), [offset], source_etype=I8)


__all__ = ["Facts", "facts_of", "declare_kernel", "end_idle_lanes", "block_shape_offset", "const_load",
           "special_register",
           "frame", "frame_pointer", "lds_pointer", "shared_base", "external_global", "LDS",
           "PRIVATE", "I1"]
