"""Surface loads and stores: SULD/SUST.D.BA (surf1D/2D/3D and layered 1D/2D read and write: raw
element data at a byte x coordinate and row/slice/layer indices) through the surface object in the constant bank
(`SUST.D.BA.2D.STRONG.SM.TRAP [R4], R0, 0x0, 0x58`) or, on sm_90, in a uniform register.

A cudaSurfaceObject_t is the device address of the same descriptor as a texture object
(cassrt/cuda_texture.c, struct cass_texture; fields in texture.FIELDS). Out of range, .TRAP ends
the kernel with an error (llvm.trap), .IGN reads zero and drops the store, and no mode clamps the
coordinates to the surface (cudaBoundaryModeClamp).
"""

from __future__ import annotations

from llvmlite import ir

from .core import GLOBAL, I1, I8, I16, I32, I64, ConstRef, Imm, Lifter, Mem, Reg, handles, unsupported
from .launch import const_load
from .texture import FIELDS, _parameter_of

WIDTHS = {"U8": (1, False), "S8": (1, True), "U16": (2, False), "S16": (2, True), "32": (4, False),
          "64": (8, False), "128": (16, False)}
BOUNDARY = {"TRAP", "IGN"}
# shape -> (dimensions, layered): coordinates x (bytes), y, z, then the layer of a layered array
SHAPES = {"1D": (1, False), "2D": (2, False), "3D": (3, False), "1D_ARRAY": (1, True), "2D_ARRAY": (2, True)}
HINTS = {"D", "BA", "STRONG", "WEAK", "SM", "CTA", "GPU", "SYS", "EF", "EL", "LU", "EU", "NA"}


def _decode(ctx: Lifter, ins):
    """(memory operand, data register, descriptor pointer, shape, (size, signed), boundary)."""
    mods = set(ins.modifiers)
    shapes = [m for m in ins.modifiers if m in SHAPES]
    widths = [WIDTHS[m] for m in ins.modifiers if m in WIDTHS]
    if not {"D", "BA"} <= mods or len(shapes) != 1 or len(widths) > 1 or \
            mods - HINTS - BOUNDARY - set(SHAPES) - set(WIDTHS):
        extra = sorted(mods - HINTS - BOUNDARY - set(SHAPES) - set(WIDTHS)) or ["(form)"]
        raise unsupported(ins, f"surface access .{extra[0]}" if extra[0] != "(form)"
                          else "surface access other than .D.BA with one shape")
    ops = ins.operands
    mem = next((op for op in ops if isinstance(op, Mem)), None)
    regs = [op for op in ops if isinstance(op, Reg) and op.kind == "R"]
    uniform = [op for op in ops if isinstance(op, Reg) and op.kind == "UR"]
    imms = [op.value for op in ops if isinstance(op, Imm)]
    if mem is None or mem.base is None or mem.offset or mem.ureg is not None or len(regs) != 1:
        raise unsupported(ins, "surface operands")
    if uniform:
        if len(uniform) != 1 or imms != [0]:
            raise unsupported(ins, "surface operands")
        source = _parameter_of(ctx, ins, uniform[0])
    elif len(imms) == 2:
        source = ConstRef(imms[0], imms[1] * 4)
    else:
        raise unsupported(ins, "surface operands")
    desc = ctx.b.inttoptr(const_load(ctx, source, I64), GLOBAL)
    boundary = next((m for m in ins.modifiers if m in BOUNDARY), "CLAMP")
    return mem, regs[0], desc, shapes[0], widths[0] if widths else (4, False), boundary


def _field(ctx: Lifter, desc, name: str) -> ir.Value:
    offset, ty = FIELDS[name]
    b = ctx.b
    v = b.load(b.gep(desc, [ir.Constant(I64, offset)], source_etype=I8), typ=ty, align=1)
    return b.zext(v, I32) if ty == I8 else v


def _address(ctx: Lifter, mem: Mem, desc, shape: str, size: int, boundary: str) -> tuple[ir.Value, ir.Value]:
    """(pointer, inside): the element's address after the boundary mode, and whether the
    coordinates were inside the surface."""
    b = ctx.b
    k = lambda v: ir.Constant(I32, v)
    dims, layered = SHAPES[shape]
    coords = ctx.get_regs(Reg("R", mem.base.index, mem.base.name), dims + layered)
    element = b.udiv(b.mul(_field(ctx, desc, "channels"), _field(ctx, desc, "bits")), k(8))
    limits = [b.sub(b.mul(_field(ctx, desc, "width"), element), k(size - 1)),
              _field(ctx, desc, "height"), _field(ctx, desc, "depth")][:dims]
    strides = ["pitch", "slice_pitch"][:dims - 1]
    if layered:                          # the layers are the slices
        limits.append(_field(ctx, desc, "depth"))
        strides.append("slice_pitch")
    inside = ir.Constant(I1, 1)
    clamped = []
    for c, limit in zip(coords, limits):
        inside = b.and_(inside, b.icmp_unsigned("<", c, limit))
        low = b.select(b.icmp_signed("<", c, k(0)), k(0), c)
        clamped.append(b.select(b.icmp_signed(">=", low, limit), b.sub(limit, k(1)), low))
    if boundary == "CLAMP":
        coords = clamped
    offset = b.zext(coords[0], I64)
    for c, stride in zip(coords[1:], strides):
        offset = b.add(offset, b.mul(b.zext(c, I64), b.zext(_field(ctx, desc, stride), I64)))
    return b.inttoptr(b.add(_field(ctx, desc, "base"), offset), GLOBAL), inside


def _guarded(ctx: Lifter, inside: ir.Value, boundary: str, body) -> list[ir.Value]:
    """body()'s values where the access is allowed: always when clamping, in range otherwise (out
    of range .TRAP traps; .IGN skips body, its values read as zero)."""
    b = ctx.b
    if boundary == "CLAMP":
        return body()
    then, other, after = ctx.new_block("surface"), ctx.new_block("outside"), ctx.new_block("surface_end")
    b.cbranch(inside, then, other)
    b.position_at_end(other)
    if boundary == "TRAP":
        b.call(ctx.intrinsic("llvm.trap", ir.VoidType(), [], ("noreturn", "nounwind")), [])
        b.unreachable()
    else:
        b.branch(after)
    b.position_at_end(then)
    values = body()
    end = b.block
    b.branch(after)
    b.position_at_end(after)
    if boundary == "TRAP":
        return values
    merged = []
    for v in values:
        phi = b.phi(v.type)
        phi.add_incoming(v, end)
        phi.add_incoming(ir.Constant(v.type, 0), other)
        merged.append(phi)
    return merged


def _value_type(size: int) -> ir.Type:
    return {1: I8, 2: I16, 4: I32, 8: I64, 16: ir.VectorType(I32, 4)}[size]


@handles("SULD", kind="effect")
def suld(ctx: Lifter, ins) -> None:
    mem, dst, desc, shape, (size, signed), boundary = _decode(ctx, ins)
    b = ctx.b
    ptr, inside = _address(ctx, mem, desc, shape, size, boundary)

    def load():
        v = b.load(ptr, typ=_value_type(size), align=1)
        if size < 4:
            parts = [(b.sext if signed else b.zext)(v, I32)]
        elif size == 4:
            parts = [v]
        elif size == 8:
            parts = list(ctx.split64(v))
        else:
            parts = [b.extract_element(v, ir.Constant(I32, i)) for i in range(4)]
        return parts
    ctx.set_regs(dst, _guarded(ctx, inside, boundary, load))


@handles("SUST", kind="effect")
def sust(ctx: Lifter, ins) -> None:
    mem, src, desc, shape, (size, _), boundary = _decode(ctx, ins)
    b = ctx.b
    ptr, inside = _address(ctx, mem, desc, shape, size, boundary)
    words = ctx.get_regs(src, max(size // 4, 1))

    def store():
        if size < 4:
            v = b.trunc(words[0], _value_type(size))
        elif size == 4:
            v = words[0]
        elif size == 8:
            v = ctx.join64(words[0], words[1])
        else:
            v = ir.Constant(ir.VectorType(I32, 4), None)
            for i, w in enumerate(words):
                v = b.insert_element(v, w, ir.Constant(I32, i))
        b.store(v, ptr, align=1)
        return []
    _guarded(ctx, inside, boundary, store)


__all__ = ["suld", "sust"]
