"""Atomics: ATOMG (global), ATOM (generic), ATOMS (shared) and RED (no result) of every operation
and type -> atomicrmw / cmpxchg, monotonic, at the scope the modifier names (.GPU -> agent,
.CTA -> workgroup, .SYS -> system). INC/DEC have CUDA's wrap semantics: LLVM's uinc_wrap and
udec_wrap are exactly atomicInc/atomicDec. Packed ADD.F16x2/.BF16x2 (atomicAdd on __half2 and
__nv_bfloat162) is a compare-and-swap loop over the 32-bit word, each half rounded to nearest.
.F32x2/.F32x4 (sm_90 atomicAdd on float2/float4) add each element atomically. A generic ATOM's
predicate result says "done" (nvcc branches to a shared/local slow path when it is false): flat
atomics reach every window on AMD GPUs, so it is always true here.

Native atomics: LLVM's AMDGPU backend turns an atomicrmw into a compare-and-swap loop unless it
may assume the location is not in fine-grained memory (PCIe carries only add, swap and CAS to
host memory). Block- and device-scope atomics carry `!amdgpu.no.fine.grained.memory` and
`!amdgpu.no.remote.memory`, as clang's HIP front end puts on every atomic by default, so they
become global_/flat_/ds_atomic_{add,sub,min,max,and,or,xor,inc,dec,add_f32,...}: device memory
comes from hipMalloc (coarse-grained), and hipcc's build of the same source makes the same
assumption for managed and host-mapped memory. System-scope atomics (`.SYS`: atomicAdd_system and
the like) are what CUDA code aims at memory shared with the host or a peer, so they stay plain and
the backend keeps its loop where fine-grained memory needs one."""

from __future__ import annotations

from llvmlite import ir

from .core import F16, F32, F64, I1, I32, I64, LDS, Lifter, Reg, handles, unsupported
from .memory import SCOPE, pointer
from .rounding import flush32

OPS = {"ADD": "add", "MIN": "min", "MAX": "max", "INC": "uinc_wrap", "DEC": "udec_wrap",
       "AND": "and", "OR": "or", "XOR": "xor", "EXCH": "xchg"}
TYPES = {"U32": (I32, False), "S32": (I32, True), "32": (I32, False), "64": (I64, False),
         "U64": (I64, False), "S64": (I64, True), "F32": (F32, False), "F64": (F64, False)}
PAIRS = {"F16x2", "BF16x2"}
VECTORS = {"F32x2": 2, "F32x4": 4}     # sm_90 atomicAdd(float2*/float4*): one atomic per element
IGNORED = {"E", "STRONG", "GPU", "CTA", "SM", "SYS", "VC", "FTZ", "RN", "WEAK", "MMIO", "EF",
           "EL", "LU", "NA", "PRIVATE"}


def _scope_text(scope: str | None) -> str:
    return f'syncscope("{scope}") ' if scope else ""


class ScopedRMW(ir.instructions.Instruction):
    """`atomicrmw op ptr, val syncscope(...) monotonic` (llvmlite's has no syncscope)."""

    def __init__(self, parent, op, ptr, val, scope, name=""):
        super().__init__(parent, val.type, "atomicrmw", (ptr, val), name=name)
        self.operation, self.scope = op, scope

    def descr(self, buf):
        ptr, val = self.operands
        buf.append(f"atomicrmw {self.operation} {ptr.type} {ptr.get_reference()}, {val.type} "
                   f"{val.get_reference()} {_scope_text(self.scope)}monotonic"
                   f"{self._stringify_metadata(leading_comma=True)}\n")


# Operations LLVM's AMDGPU atomic optimizer would reassociate across the lanes of a wave.
FLOAT_OPS = {"fadd", "fsub", "fmin", "fmax"}


def insert_rmw(ctx: Lifter, op: str, ptr: ir.Value, val: ir.Value, scope: str | None) -> ScopedRMW:
    """An atomicrmw at `scope` in the current block, native on coarse-grained memory below system
    scope (see the module's docstring), one per lane where the atomic optimizer would combine
    them (see `lane_by_lane`)."""
    if op in FLOAT_OPS or ptr.type == LDS:
        ptr = lane_by_lane(ctx, ptr)
    rmw = ScopedRMW(ctx.b.block, op, ptr, val, scope)
    if scope is not None:
        empty = ctx.module.add_metadata([])
        rmw.set_metadata("amdgpu.no.fine.grained.memory", empty)
        rmw.set_metadata("amdgpu.no.remote.memory", empty)
    ctx.b._insert(rmw)
    return rmw


def lane_by_lane(ctx: Lifter, ptr: ir.Value) -> ir.Value:
    """`ptr` through an empty inline asm with a VGPR result, which LLVM must take as different in
    every lane: its AMDGPU atomic optimizer then leaves the atomic one per lane. Otherwise, on a
    wave-uniform address it reduces the lanes' operands first (a v_readlane loop over the active
    lanes) and one lane issues the atomic. For float adds that rounds the lanes' sum once where
    CUDA rounds every add: not the result of any order of the lanes' atomics. On LDS the loop
    costs ~8 instructions a lane where the LDS serialises the lanes of one address itself (hipcc's
    build issues one ds_add_u64 a wave there). Global integer atomics keep the optimizer: fewer
    atomics at L2."""
    asm = ir.InlineAsm(ir.FunctionType(ptr.type, [ptr.type]), "", "=v,0")
    return ctx.b.call(asm, [ptr])


class ScopedCmpXchg(ir.instructions.Instruction):
    def __init__(self, parent, ptr, cmp, val, scope, name=""):
        super().__init__(parent, ir.LiteralStructType([val.type, ir.IntType(1)]), "cmpxchg",
                         (ptr, cmp, val), name=name)
        self.scope = scope

    def descr(self, buf):
        ptr, cmp, val = self.operands
        buf.append(f"cmpxchg {ptr.type} {ptr.get_reference()}, {cmp.type} {cmp.get_reference()}, "
                   f"{val.type} {val.get_reference()} {_scope_text(self.scope)}monotonic monotonic\n")


def _space(ins) -> str:
    """ATOM and RED take generic addresses: flat atomics reach global, shared and private alike."""
    return {"ATOMG": "global", "ATOM": "generic", "ATOMS": "shared", "RED": "generic",
            "REDG": "global"}[ins.opcode]


def _value(ctx: Lifter, op, ty: ir.Type) -> ir.Value:
    if isinstance(op, Reg) and op.index is None:
        return ir.Constant(ty, 0)
    if ty == I64 or ty == F64:
        v = ctx.u64(op)
    else:
        v = ctx.u32(op)
    return v if v.type == ty else ctx.b.bitcast(v, ty)


def _result(ctx: Lifter, dest, value: ir.Value) -> None:
    if dest is None or (isinstance(dest, Reg) and dest.index is None):
        return
    if value.type in (I64, F64):
        ctx.set64(dest, value)
    else:
        ctx.set32(dest, value)


def _pair_sum(ctx: Lifter, kind: str, old: ir.Value, add: ir.Value) -> ir.Value:
    """The two 16-bit lanes of old + add, each rounded to nearest even, denormals kept."""
    b = ctx.b
    if kind == "F16x2":
        pair = ir.VectorType(F16, 2)
        return b.bitcast(b.fadd(b.bitcast(old, pair), b.bitcast(add, pair)), I32)
    from .rounding import to_bf16_bits, two_sum
    word = ir.Constant(I32, 0)
    for shift in (0, 16):                   # bf16 is the top half of an f32: widening is exact
        lanes = [b.fpext(b.bitcast(b.shl(b.lshr(v, ir.Constant(I32, shift)), ir.Constant(I32, 16)), F32), F64)
                 for v in (old, add)]
        half = b.and_(to_bf16_bits(ctx, *two_sum(ctx, *lanes)), ir.Constant(I32, 0xFFFF))
        word = b.or_(word, b.shl(half, ir.Constant(I32, shift)))
    return word


def _pair_add(ctx: Lifter, ins, ptr: ir.Value, add: ir.Value, scope: str | None) -> ir.Value:
    """A compare-and-swap loop adding a packed pair; returns the old word."""
    b = ctx.b
    kind = next(m for m in ins.modifiers if m in PAIRS)
    first = b.load(ptr, typ=I32, align=4)
    start = b.block
    loop, done = ctx.new_block("pair_add"), ctx.new_block("pair_done")
    b.branch(loop)
    b.position_at_end(loop)
    old = b.phi(I32)
    old.add_incoming(first, start)
    cx = ScopedCmpXchg(b.block, ptr, old, _pair_sum(ctx, kind, old, add), scope)
    b._insert(cx)
    seen = b.extract_value(cx, 0)
    old.add_incoming(seen, b.block)
    b.cbranch(b.extract_value(cx, 1), done, loop)
    b.position_at_end(done)
    return seen


def _vector_add(ctx: Lifter, ins, dest, ptr: ir.Value, values, count: int, scope: str | None) -> None:
    """.F32x2/.F32x4: consecutive floats, each added atomically on its own (PTX's vector atomics
    are atomic per element), old values into consecutive registers."""
    b = ctx.b
    olds = []
    for i, word in enumerate(ctx.get_regs(values, count)):
        element = b.gep(ptr, [ir.Constant(I64, 4 * i)], source_etype=ir.IntType(8))
        rmw = insert_rmw(ctx, "fadd", element, b.bitcast(word, F32), scope)
        olds.append(b.bitcast(rmw, I32))
    if dest is not None and not (isinstance(dest, Reg) and dest.index is None):
        ctx.set_regs(dest, olds)


@handles("ATOMG", "ATOM", "ATOMS", "RED", "REDG", kind="effect")
def atomic(ctx: Lifter, ins) -> None:
    b = ctx.b
    mods = list(ins.modifiers)
    space = _space(ins)
    scope = next((SCOPE[m] for m in mods if m in SCOPE), "agent" if space != "shared" else "workgroup")
    if "POPC" in mods and "INC" in mods:     # ATOMS.POPC.INC: each active thread adds 1
        ctx.check(ins, IGNORED | {"POPC", "INC", "32"})
        dest, mem = ctx.operands(ins, 2)
        rmw = insert_rmw(ctx, "add", pointer(ctx, ins, mem, space), ir.Constant(I32, 1), scope)
        _result(ctx, dest, rmw)
        return
    op = [m for m in mods if m in OPS or m in ("CAS", "CAST")]
    ctx.check(ins, IGNORED | set(OPS) | set(TYPES) | PAIRS | set(VECTORS) | {"CAS", "CAST", "SPIN"})
    if len(op) != 1:
        raise unsupported(ins, "atomic operation")
    op = op[0]
    ty, signed = next((TYPES[m] for m in mods if m in TYPES), (I32, False))
    operands = list(ins.operands)
    pdest = operands.pop(0) if isinstance(operands[0], Reg) and operands[0].kind == "P" else None
    if ins.opcode in ("RED", "REDG") or (op == "CAST" and not isinstance(operands[0], Reg)):
        dest = None
    else:
        dest = operands.pop(0)
    mem, *values = operands
    ptr = pointer(ctx, ins, mem, space)
    if pdest is not None and op != "CAST":
        ctx.setp(pdest, ir.Constant(I1, 1))
    vector = [VECTORS[m] for m in mods if m in VECTORS]
    if vector:
        if op != "ADD" or len(values) != 1 or len(vector) != 1 or set(mods) & (set(TYPES) | PAIRS):
            raise unsupported(ins, "vector atomic")
        _vector_add(ctx, ins, dest, ptr, values[0], vector[0], scope)
        return
    if PAIRS & set(mods):
        if op != "ADD" or len(values) != 1 or set(mods) & set(TYPES):
            raise unsupported(ins, "packed 16-bit atomic")
        _result(ctx, dest, _pair_add(ctx, ins, ptr, _value(ctx, values[0], I32), scope))
        return
    if op in ("CAS", "CAST"):
        if len(values) != 2 or ty in (F32, F64):
            raise unsupported(ins, "compare-and-swap operands")
        cx = ScopedCmpXchg(b.block, ptr, _value(ctx, values[0], ty), _value(ctx, values[1], ty), scope)
        b._insert(cx)
        if op == "CAST":                     # ATOMS.CAST.SPIN P, [a], cmp, new: P = swapped
            swapped = b.extract_value(cx, 1)
            if pdest is not None:
                ctx.setp(pdest, swapped)
            if dest is not None:             # ATOMS.CAST.SPIN Rd, [a], cmp, new: Rd = swapped (0/1)
                _result(ctx, dest, b.zext(swapped, ty))
        else:
            _result(ctx, dest, b.extract_value(cx, 0))
        return
    if len(values) != 1:
        raise unsupported(ins, "operand count")
    llvm_op = OPS[op]
    if ty in (F32, F64):
        if op not in ("ADD", "MIN", "MAX", "EXCH"):
            raise unsupported(ins, "float atomic operation")
        llvm_op = {"ADD": "fadd", "MIN": "fmin", "MAX": "fmax", "EXCH": "xchg"}[op]
    elif op in ("MIN", "MAX") and not signed:
        llvm_op = "u" + llvm_op
    if op in ("INC", "DEC") and ty != I32:
        raise unsupported(ins, "64-bit INC/DEC")
    value = _value(ctx, values[0], ty)
    if llvm_op == "fadd" and ty == F32 and "FTZ" in mods:
        # nvcc's float atomicAdd is .FTZ: an H200 adds a denormal operand as zero (32 adds of the
        # smallest denormal to 0 leave 0). The sum itself is the native instruction's, which keeps
        # a denormal result that NVIDIA's would flush (a cancellation to below FLT_MIN).
        value = flush32(ctx, value)
    rmw = insert_rmw(ctx, llvm_op, ptr, value, scope)
    _result(ctx, dest, rmw)
