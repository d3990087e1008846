"""Texture fetches: TLD (tex1Dfetch: an integer texel index), TEX (tex1D/tex2D/tex3D, their Lod
forms, tex1DLayered/tex2DLayered and texCubemap: floating-point coordinates, point or linear
filtering, mipmap levels) and TLD4 (tex2Dgather),
bindless through the texture object that the constant bank holds (`.SCR`: `TEX.SCR.LL RZ, R5,
R4, R8, 0x0, 0x58, 2D, 0x1` reads the object at c[0x0][0x58 * 4]) or, on sm_90, a uniform register
loaded from the kernel parameter (`TEX.LL RZ, R5, R4, R6, UR4, 0x0, 2D, 0x1`).

The object is the device address of libcassrt's 64-byte texture descriptor (cassrt/cuda_texture.c,
struct cass_texture: the two layouts must agree). A fetch becomes loads of the descriptor and the
texels plus CUDA's addressing and filtering rules (CUDA C++ Programming Guide, "Texture Fetching"):
linear filtering weights are 9-bit fixed point with 8 fractional bits, rounded half up, a
corner's weight (their product) is rounded to 1/256 again, and the weighted texels are summed
exactly (measured on the H200: `filtered`).

Operands: two destinations (B, A), one or two coordinate registers (A, B), then the bank and the
word index (sm_90: the uniform register and 0x0), the shape (parsed into extras) and a component
mask (default 0xf). The n coordinate words (the layer of ARRAY_1D/ARRAY_2D, x, y, z, then the LOD
of .LL) fill the A register(s) first: ceil(n/2) of them (sm_90: all but the LOD), the rest go to
B. The masked components fill A, A+1, then B, B+1.

Levels of detail: `.LL` carries an explicit LOD (ptxas writes tex2D as `.LL` with LOD -32, which
the clamps raise to the lowest level allowed), `.LZ` is LOD 0, as is a TEX with neither (compute
code has no derivatives to take one from). The LOD is clamped to minMipmapLevelClamp..
maxMipmapLevelClamp and to the levels there are; point mipmap filtering takes the nearest level
(halves up), linear takes the two around it, its weight truncated to 1/256 steps, and blends them
as one filter: the level's weight is one more factor of each corner's.

CUBE: ptxas has already divided (x, y, z) by the largest magnitude (MUFU.RCP, FMUL) and passes the
LOD (-32 for texCubemap); the fetch picks the face and its (s, t) by the CUDA Programming Guide's
table ("Cubemap Textures") and samples that face as a layer of a 2D layered texture.
"""

from __future__ import annotations

from llvmlite import ir

from .core import F16, F32, F64, GLOBAL, I8, I16, I32, I64, ConstRef, Imm, Lifter, Reg, handles, unsupported
from .launch import const_load

I128 = ir.IntType(128)

# struct cass_texture (cassrt/cuda_texture.c): field -> (byte offset, type)
FIELDS = {"base": (0, I64), "pitch": (8, I32), "width": (12, I32), "height": (16, I32),
          "depth": (20, I32), "slice_pitch": (24, I32), "channels": (28, I8), "bits": (29, I8),
          "kind": (30, I8), "read_normalized": (31, I8), "filter_linear": (32, I8),
          "normalized_coords": (33, I8), "address0": (34, I8), "address1": (35, I8),
          "address2": (36, I8), "linear_resource": (37, I8), "dims": (38, I8), "border": (40, F32),
          "min_lod": (56, F32), "max_lod": (60, F32), "levels": (64, I8), "mipmap_linear": (65, I8),
          "level_offset": (68, I32)}
KIND_SIGNED, KIND_UNSIGNED, KIND_FLOAT = 0, 1, 2
WRAP, CLAMP, MIRROR, BORDER = 0, 1, 2, 3
SHAPES = {"1D": 1, "2D": 2, "3D": 3}
CUBE = "CUBE"                                 # x, y, z of a direction; its face is a layer
LAYERED = {"ARRAY_1D": 1, "ARRAY_2D": 2}      # an integer layer index, then the coordinates
MODIFIERS = {"SCR", "LZ", "LL", "NODEP"}
COMPONENTS = {"R": 0, "G": 1, "B": 2, "A": 3}   # TLD4's gathered component (the last modifier)


@handles("TEX", "TLD", "TLD4", kind="effect")
def texture(ctx: Lifter, ins) -> None:
    gather = ins.opcode == "TLD4"
    modifiers = ins.modifiers
    if gather:                       # TLD4.SCR.B is blue, TLD4.SCR.B.B bindless blue
        if not modifiers or modifiers[-1] not in COMPONENTS:
            raise unsupported(ins, "gather without a component")
        component, modifiers = COMPONENTS[modifiers[-1]], modifiers[:-1]
    for m in modifiers:
        if m not in MODIFIERS | {"B"}:
            raise unsupported(ins, f"modifier .{m}")
    if "B" in modifiers:
        raise unsupported(ins, "texture object in a register: only its low 32 bits are there")
    shape = ins.extras.get("texture_shape")
    if shape not in SHAPES and (shape not in LAYERED and shape != CUBE or ins.opcode != "TEX") or \
            (ins.opcode == "TLD" and shape != "1D") or (gather and shape != "2D"):
        raise unsupported(ins, f"texture shape {shape}")
    if ins.opcode == "TLD" and "LZ" not in ins.modifiers:
        raise unsupported(ins, "texel fetch at a level of detail other than 0")
    regs = [op for op in ins.operands if isinstance(op, Reg) and op.kind == "R"]
    uniform = [op for op in ins.operands if isinstance(op, Reg) and op.kind == "UR"]
    imms = [op.value for op in ins.operands if isinstance(op, Imm)]
    layered = shape in LAYERED
    dims = LAYERED[shape] if layered else 3 if shape == CUBE else SHAPES[shape]
    words = layered + dims + ("LL" in ins.modifiers)
    first = layered + dims if ctx.sm_arch == "sm_90" else (words + 1) // 2
    sources = 1 if words == first else 2
    scr = "SCR" in modifiers
    if len(regs) != 2 + sources or len(uniform) != (0 if scr else 1) or \
            len(imms) not in ((2, 3) if scr else (1, 2)):
        raise unsupported(ins, "texture operands")
    dst_b, dst_a, src_a = regs[0], regs[1], regs[2]
    src_b = regs[3] if sources == 2 else None
    mask = imms[-1] if len(imms) == (3 if scr else 2) else 0xF
    coords = ctx.get_regs(src_a, first) + (ctx.get_regs(src_b, words - first) if src_b is not None else [])
    b = ctx.b
    source = ConstRef(imms[0], imms[1] * 4) if scr else _parameter_of(ctx, ins, uniform[0])
    desc = b.inttoptr(const_load(ctx, source, I64), GLOBAL)
    if ins.opcode == "TLD":
        texel = b.call(_fetch_function(ctx), [desc, coords[0]])
    elif gather:
        xy = [b.bitcast(c, F32) for c in coords]
        texel = b.call(_gather_function(ctx), [desc, *xy, ir.Constant(I32, component)])
    else:
        lod = b.bitcast(coords[-1], F32) if "LL" in ins.modifiers else ir.Constant(F32, 0.0)
        xyz = [b.bitcast(c, F32) for c in coords[layered:layered + dims]]
        if layered:
            texel = b.call(_layered_function(ctx, dims), [desc, coords[0], *xyz, lod])
        elif shape == CUBE:
            texel = b.call(_cube_function(ctx), [desc, *xyz, lod])
        else:
            xyz += [ir.Constant(F32, 0.0)] * (3 - dims)
            texel = b.call(_sample_function(ctx, dims), [desc, *xyz, lod])
    values = [b.extract_value(texel, c) for c in range(4) if mask >> c & 1]
    for reg, part in ((dst_a, values[:2]), (dst_b, values[2:])):
        if part and reg.index is not None:
            ctx.set_regs(reg, part)


def _parameter_of(ctx: Lifter, ins, ureg: Reg) -> ConstRef:
    """sm_90 passes the object in a uniform register holding its low 32 bits (`ULDC UR4,
    c[0x0][0x210]; UMOV UR5, URZ`): the constant-bank word that register was loaded from, found
    in the same block, names the whole 64-bit object."""
    leaders = ctx.state["cfg"].leaders
    for prior in reversed([i for i in ctx.state["instructions"] if i.address < ins.address]):
        writes = prior.operands[:1]
        if writes and isinstance(writes[0], Reg) and writes[0].kind == "UR" and writes[0].index == ureg.index:
            ref = prior.operands[1] if len(prior.operands) == 2 else None
            if prior.opcode == "ULDC" and prior.modifiers in ((), ("64",)) and prior.guard is None \
                    and isinstance(ref, ConstRef) and ref.bank == 0 and ref.reg is None and ref.bank_reg is None:
                return ConstRef(0, ref.offset)
            break
        if prior.address in leaders:
            break
    raise unsupported(ins, f"texture object in {ureg.name}, not loaded from a kernel parameter in this block")


# ---- the fetch functions, one per module and form -------------------------------------------

RESULT = ir.LiteralStructType([I32, I32, I32, I32])


def _function(ctx: Lifter, name: str, args: list[ir.Type]):
    """The module's fetch function `name`, with a builder when its body is still to be written."""
    fn = ctx.module.globals.get(name)
    if fn is not None:
        return fn, None
    fn = ir.Function(ctx.module, ir.FunctionType(RESULT, args), name=name)
    fn.linkage = "internal"
    fn.attributes.add("alwaysinline")   # a call saves and restores registers around every fetch
    return fn, _Builder(ctx, fn)


def _fetch_function(ctx: Lifter) -> ir.Function:
    """tex1Dfetch: texel x of a linear resource, zero outside it (no address modes, no filter)."""
    fn, tb = _function(ctx, "__cass_tex_fetch_1d", [GLOBAL, I32])
    if tb is not None:
        desc, x = fn.args
        tb.ret(tb.texel(desc, [(x, tb.in_range(x, tb.field(desc, "width")))], tb.base_level(desc), zero_outside=True))
    return fn


def _sample_function(ctx: Lifter, dims: int) -> ir.Function:
    """tex1D/tex2D/tex3D (x, y, z; the unused ones 0) at a level of detail."""
    fn, tb = _function(ctx, f"__cass_tex_sample_{dims}d", [GLOBAL, F32, F32, F32, F32])
    if tb is not None:
        desc, *coords, lod = fn.args
        tb.sample(desc, coords[:dims], None, lod)
    return fn


def _cube_function(ctx: Lifter) -> ir.Function:
    """texCubemap: the face the direction (x, y, z) points at, sampled at (s, t) on it."""
    fn, tb = _function(ctx, "__cass_tex_sample_cube", [GLOBAL, F32, F32, F32, F32])
    if tb is not None:
        desc, x, y, z, lod = fn.args
        face, s, t = tb.cube_face(x, y, z)
        tb.sample(desc, [s, t], face, lod)
    return fn


def _gather_function(ctx: Lifter) -> ir.Function:
    """tex2Dgather: one component of the four texels linear filtering of (x, y) would use."""
    fn, tb = _function(ctx, "__cass_tex_gather_2d", [GLOBAL, F32, F32, I32])
    if tb is not None:
        desc, x, y, component = fn.args
        tb.gather(desc, [x, y], component)
    return fn


def _layered_function(ctx: Lifter, dims: int) -> ir.Function:
    """tex1DLayered/tex2DLayered: the layer (clamped to the array's layers) is a fixed slice."""
    fn, tb = _function(ctx, f"__cass_tex_sample_{dims}d_layered", [GLOBAL, I32] + [F32] * dims + [F32])
    if tb is not None:
        desc, layer, *coords, lod = fn.args
        tb.sample(desc, coords, layer, lod)
    return fn


class _Level:
    """Where one mipmap level's texels are: base address, row and slice pitch, extents."""

    def __init__(self, base: ir.Value, pitch: ir.Value, slice_pitch: ir.Value, sizes: list[ir.Value]):
        self.base, self.pitch, self.slice_pitch, self.sizes = base, pitch, slice_pitch, sizes


class _Share:
    """A level's part in a mipmap blend: its weight in 1/256 steps (256 when one level is read)
    and which of the two levels it is (0 the nearer, 1 the farther), the blend's corner bit."""

    def __init__(self, steps: ir.Value, far: ir.Value):
        self.steps, self.far = steps, far


class _Builder:
    """Builds one fetch function: descriptor fields, addressing, texel loads, filtering."""

    def __init__(self, ctx: Lifter, fn: ir.Function):
        self.ctx, self.fn = ctx, fn
        self.b = ir.IRBuilder(fn.append_basic_block("entry"))

    def k(self, v: int, ty=I32) -> ir.Constant:
        return ir.Constant(ty, v)

    def call(self, name: str, ret, args):
        fn = self.ctx.module.globals.get(name) or ir.Function(self.ctx.module, ir.FunctionType(ret, [a.type for a in args]), name=name)
        return self.b.call(fn, args)

    def field(self, desc, name: str, element: int = 0) -> ir.Value:
        """A descriptor field, integers widened to i32."""
        offset, ty = FIELDS[name]
        b = self.b
        ptr = b.gep(desc, [self.k(offset + 4 * element, I64)], source_etype=I8)
        v = b.load(ptr, typ=ty, align=4 if ty in (I32, F32) else 8 if ty == I64 else 1)
        return b.zext(v, I32) if ty == I8 else v

    def flag(self, desc, name: str) -> ir.Value:
        return self.b.icmp_unsigned("!=", self.field(desc, name), self.k(0))

    def ret(self, values: list[ir.Value]) -> None:
        out = ir.Constant(RESULT, None)
        for c, v in enumerate(values):
            out = self.b.insert_value(out, v, c)
        self.b.ret(out)

    # ---- addressing ------------------------------------------------------------------------------
    def in_range(self, i, n) -> ir.Value:
        return self.b.icmp_unsigned("<", i, n)

    def address(self, desc, i, n, axis: int) -> tuple[ir.Value, ir.Value]:
        """Texel index i along an axis of n texels -> (index inside, texel exists). Wrap and mirror
        apply to normalised coordinates only; otherwise the mode is clamp (CUDA's rule). The
        remainders of wrap and mirror are computed only where they apply (divisions are long)."""
        b = self.b
        mode = self.field(desc, f"address{axis}")
        is_mode = lambda m: b.icmp_unsigned("==", mode, self.k(m))
        clamped = b.select(b.icmp_signed("<", i, self.k(0)), self.k(0),
                           b.select(b.icmp_signed(">=", i, n), b.sub(n, self.k(1)), i))
        inside = b.or_(b.icmp_unsigned("!=", mode, self.k(BORDER)), self.in_range(i, n))
        folds = b.and_(self.flag(desc, "normalized_coords"), b.or_(is_mode(WRAP), is_mode(MIRROR)))
        start, fold, join = b.block, self.fn.append_basic_block("fold"), self.fn.append_basic_block("addressed")
        b.cbranch(folds, fold, join)
        b.position_at_end(fold)
        wrapped = b.srem(i, n)
        wrapped = b.select(b.icmp_signed("<", wrapped, self.k(0)), b.add(wrapped, n), wrapped)
        period = b.add(n, n)
        folded = b.srem(i, period)
        folded = b.select(b.icmp_signed("<", folded, self.k(0)), b.add(folded, period), folded)
        mirrored = b.select(b.icmp_signed("<", folded, n), folded, b.sub(b.sub(period, self.k(1)), folded))
        folded_index = b.select(is_mode(WRAP), wrapped, mirrored)
        b.branch(join)
        b.position_at_end(join)
        index = b.phi(I32)
        index.add_incoming(clamped, start)
        index.add_incoming(folded_index, fold)
        return index, inside

    # ---- one texel ------------------------------------------------------------------------------
    def texel(self, desc, axes: list[tuple[ir.Value, ir.Value]], level: _Level,
              zero_outside: bool = False) -> list[ir.Value]:
        """The four result words (float bits, or integers for an integer read) of the texel at the
        given (index, exists) per axis of a level; a texel outside reads as the border colour (or
        zero)."""
        b = self.b
        exists = axes[0][1]
        for _, ok in axes[1:]:
            exists = b.and_(exists, ok)
        offset = b.zext(axes[0][0], I64)
        channels, bits = self.field(desc, "channels"), self.field(desc, "bits")
        size = b.udiv(b.mul(channels, bits), self.k(8))
        offset = b.mul(offset, b.zext(size, I64))
        for (index, _), stride in zip(axes[1:], (level.pitch, level.slice_pitch)):
            offset = b.add(offset, b.mul(b.zext(index, I64), b.zext(stride, I64)))
        element = self._load_element(b.inttoptr(b.add(level.base, offset), GLOBAL), size, exists)
        kind, normalized = self.field(desc, "kind"), self.flag(desc, "read_normalized")
        floating = b.or_(b.icmp_unsigned("==", kind, self.k(KIND_FLOAT)), normalized)
        words = []
        for c in range(4):
            raw = b.trunc(b.lshr(element, b.zext(b.mul(bits, self.k(c)), I128)), I32)
            value = self._convert(raw, bits, kind, normalized)
            missing = b.select(floating, self.k(0x3F800000), self.k(1)) if c == 3 else self.k(0)
            value = b.select(b.icmp_unsigned("<", self.k(c), channels), value, missing)
            # An element read of an integer texture returns the border colour's float *bits*,
            # cut to the channel (H200: 2.7f = 0x402CCCCD reads 205 from a uchar4 texture).
            border = b.bitcast(self.field(desc, "border", c), I32)
            border = b.select(floating, border, self._convert(border, bits, kind, ir.Constant(ir.IntType(1), 0)))
            words.append(b.select(exists, value, self.k(0) if zero_outside else border))
        return words

    def _load_element(self, ptr, size, exists) -> ir.Value:
        """The texel's bytes (1, 2, 4, 8 or 16) as an i128; nothing is read for a texel outside."""
        b = self.b
        join = self.fn.append_basic_block("texel")
        start = b.block
        switch = b.switch(b.select(exists, size, self.k(0)), join)
        results = []
        for nbytes, ty in ((1, I8), (2, I16), (4, I32), (8, I64), (16, I128)):
            block = self.fn.append_basic_block(f"load{nbytes}")
            switch.add_case(self.k(nbytes), block)
            b.position_at_end(block)
            results.append((b.zext(b.load(ptr, typ=ty, align=1), I128) if ty != I128 else b.load(ptr, typ=ty, align=1), block))
            b.branch(join)
        b.position_at_end(join)
        phi = b.phi(I128)
        phi.add_incoming(ir.Constant(I128, 0), start)
        for value, block in results:
            phi.add_incoming(value, block)
        return phi

    def _convert(self, raw, bits, kind, normalized) -> ir.Value:
        """One channel's bits -> its result word: floats as float bits (half widened), integers
        sign- or zero-extended, or as a float in [0, 1] / [-1, 1] for cudaReadModeNormalizedFloat."""
        b = self.b
        width = b.sub(self.k(32), bits)
        unsigned = b.lshr(b.shl(raw, width), width)
        signed = b.ashr(b.shl(raw, width), width)
        half = b.bitcast(b.fpext(b.bitcast(b.trunc(raw, I16), F16), F32), I32)
        floating = b.select(b.icmp_unsigned("==", bits, self.k(16)), half, raw)
        is_signed = b.icmp_unsigned("==", kind, self.k(KIND_SIGNED))
        top = b.sub(b.shl(self.k(1), bits), self.k(1))                    # 2^bits - 1
        numerator = b.select(is_signed, b.sitofp(signed, F32), b.uitofp(unsigned, F32))
        denominator = b.uitofp(b.select(is_signed, b.lshr(top, self.k(1)), top), F32)
        norm = b.fdiv(numerator, denominator)                              # unorm / snorm
        norm = b.select(b.fcmp_ordered("<", norm, ir.Constant(F32, -1.0)), ir.Constant(F32, -1.0), norm)
        norm = b.bitcast(norm, I32)
        integer = b.select(is_signed, signed, unsigned)
        value = b.select(b.icmp_unsigned("==", kind, self.k(KIND_FLOAT)), floating, integer)
        return b.select(normalized, norm, value)

    # ---- sampling ---------------------------------------------------------------------------------
    def sample(self, desc, coords: list[ir.Value], layer: ir.Value | None, lod: ir.Value) -> None:
        """Filtering at the level(s) the LOD selects: one level, or the two around it blended by
        (1 - w) * near + w * far when mipmapFilterMode is linear (one copy of the filtering code,
        run once or twice)."""
        b = self.b
        f = lambda v: ir.Constant(F32, v)
        levels = self.field(desc, "levels")
        top = b.sub(levels, self.k(1))
        # clamp to the texture's range, then to the levels there are (NaN takes the lowest)
        lo, hi = self.field(desc, "min_lod"), self.field(desc, "max_lod")
        c = b.select(b.fcmp_ordered(">=", lod, lo), lod, lo)
        c = b.select(b.fcmp_ordered(">", c, hi), hi, c)
        c = b.select(b.fcmp_ordered(">", c, b.uitofp(top, F32)), b.uitofp(top, F32), c)
        c = b.select(b.fcmp_ordered(">", c, f(0.0)), c, f(0.0))
        c = b.select(b.icmp_unsigned(">", levels, self.k(1)), c, f(0.0))     # one level: LOD unused
        below = self.call("llvm.floor.f32", F32, [c])
        # the level weight in 1/256 steps, truncated (H200 probe: trilinear fits floor, not round)
        steps = b.fptosi(self.call("llvm.floor.f32", F32, [b.fmul(b.fsub(c, below), f(256.0))]), I32)
        linear = self.flag(desc, "mipmap_linear")
        nearest = self.call("llvm.floor.f32", F32, [b.fadd(c, f(0.5))])
        near = b.fptosi(b.select(linear, below, nearest), I32)
        far = b.select(b.icmp_signed("<", near, top), b.add(near, self.k(1)), top)
        blend = b.and_(linear, b.icmp_signed(">", steps, self.k(0)))

        start, head = b.block, self.fn.append_basic_block("level")
        b.branch(head)
        b.position_at_end(head)
        second = b.phi(ir.IntType(1))
        earlier = [b.phi(F64) for _ in range(4)]
        share = b.select(second, steps, b.select(blend, b.sub(self.k(256), steps), self.k(256)))
        words, sums = self.filtered(desc, coords, layer, self.level(desc, b.select(second, far, near)),
                                    _Share(share, b.zext(second, I32)))
        out = [b.fadd(a, z) for a, z in zip(earlier, sums)]
        latch, done = b.block, self.fn.append_basic_block("levels_done")
        b.cbranch(b.and_(blend, b.not_(second)), head, done)
        second.add_incoming(ir.Constant(ir.IntType(1), 0), start)
        second.add_incoming(ir.Constant(ir.IntType(1), 1), latch)
        for a, v in zip(earlier, out):
            a.add_incoming(ir.Constant(F64, 0.0), start)
            a.add_incoming(v, latch)
        b.position_at_end(done)
        # one level: its words as they are (a point sample of an integer texture is no float)
        self.ret([b.select(blend, b.bitcast(b.fptrunc(v, F32), I32), w) for v, w in zip(out, words)])

    def base_level(self, desc) -> _Level:
        """Level 0 as the descriptor's fields give it (a pitched or linear resource included)."""
        return _Level(self.field(desc, "base"), self.field(desc, "pitch"), self.field(desc, "slice_pitch"),
                      [self.field(desc, n) for n in ("width", "height", "depth")])

    def level(self, desc, level: ir.Value) -> _Level:
        """Mipmap level `level`: extents halved (floor, at least 1), rows packed, at its offset.
        Level 0 keeps the fields as they are. A layered resource has one level, so its layers
        (depth) never halve."""
        b = self.b
        base = self.base_level(desc)
        first = b.icmp_unsigned("==", level, self.k(0))
        sizes = []
        for n in base.sizes:
            shifted = b.lshr(n, level)
            sizes.append(b.select(b.icmp_unsigned("==", shifted, self.k(0)), self.k(1), shifted))
        size = b.udiv(b.mul(self.field(desc, "channels"), self.field(desc, "bits")), self.k(8))
        pitch = b.select(first, base.pitch, b.mul(sizes[0], size))
        slice_pitch = b.select(first, base.slice_pitch, b.mul(pitch, sizes[1]))
        offset_ptr = b.gep(desc, [b.add(self.k(FIELDS["level_offset"][0], I64), b.zext(b.mul(level, self.k(4)), I64))],
                           source_etype=I8)
        offset = b.zext(b.load(offset_ptr, typ=I32, align=4), I64)
        return _Level(b.add(base.base, offset), pitch, slice_pitch, sizes)

    def cube_face(self, x, y, z) -> tuple[ir.Value, ir.Value, ir.Value]:
        """(face, s, t) of a direction, by the CUDA Programming Guide's cubemap table: the
        largest magnitude picks the face (+X, -X, +Y, -Y, +Z, -Z = 0..5), the other two divided
        by it give the position, (s/m + 1)/2 and (t/m + 1)/2. Equal magnitudes pick z, then y
        (AMD's v_cubeid order; the H200's rule for ties is not measured)."""
        b = self.b
        f = lambda v: ir.Constant(F32, v)
        ax, ay, az = (self.call("llvm.fabs.f32", F32, [v]) for v in (x, y, z))
        neg = lambda v: b.fcmp_ordered("<", v, f(0.0))
        on_z = b.and_(b.fcmp_ordered(">=", az, ax), b.fcmp_ordered(">=", az, ay))
        on_y = b.and_(b.not_(on_z), b.fcmp_ordered(">=", ay, ax))
        pick = lambda xv, yv, zv: b.select(on_z, zv, b.select(on_y, yv, xv))
        face = pick(b.select(neg(x), self.k(1), self.k(0)), b.select(neg(y), self.k(3), self.k(2)),
                    b.select(neg(z), self.k(5), self.k(4)))
        s = pick(b.select(neg(x), z, b.fneg(z)), x, b.select(neg(z), b.fneg(x), x))
        t = pick(b.fneg(y), b.select(neg(y), b.fneg(z), z), b.fneg(y))
        m = pick(ax, ay, az)
        on_face = lambda v: b.fmul(b.fadd(b.fdiv(v, m), f(1.0)), f(0.5))
        return face, on_face(s), on_face(t)

    def filtered(self, desc, coords: list[ir.Value], layer: ir.Value | None, level: _Level,
                 share: _Share) -> tuple[list[ir.Value], list[ir.Value]]:
        """Point or linear filtering over the instruction's axes in one level; axes the resource
        lacks read index 0. A layer index selects the slice of a layered array (the third axis of
        its texels). Leaves the builder after the filtering, returning the four result words as
        the level alone gives them, and the four weighted by the level's share of a mipmap blend
        (f64, summed over the levels by the caller).

        The weights are the H200's (probe of 2048 random samples per shape): each corner's weight
        is the product of its axes' 1/256 steps and the level's share, rounded to 1/256
        (`_corner_weight`), and the weighted texels are summed exactly, then rounded once to
        float. 1D: 2048 of 2048 samples within rounding of that sum (1997 bit-exact); 2D: 1965 of
        2048 bit-exact, the rest within 3 ulps; three factors (3D, 2D between two levels) fit it
        less well (about 40% exact, the others one 1/256 step of a weight away)."""
        b = self.b
        fixed = []
        if layer is not None:
            last = b.sub(self.field(desc, "depth"), self.k(1))
            low = b.select(b.icmp_signed("<", layer, self.k(0)), self.k(0), layer)
            fixed = [(self.k(0), ir.Constant(ir.IntType(1), 1))] * (2 - len(coords)) + \
                [(b.select(b.icmp_signed(">", low, last), last, low), ir.Constant(ir.IntType(1), 1))]
        linear_block, point_block = self.fn.append_basic_block("linear"), self.fn.append_basic_block("point")
        join = self.fn.append_basic_block("filtered")
        sizes = level.sizes[:len(coords)]
        res_dims = self.field(desc, "dims")
        normalized = self.flag(desc, "normalized_coords")
        scaled, active = [], []
        for axis, (x, n) in enumerate(zip(coords, sizes)):
            scaled.append(b.select(normalized, b.fmul(x, b.uitofp(n, F32)), x))
            active.append(b.icmp_unsigned("<", self.k(axis), res_dims))
        b.cbranch(self.flag(desc, "filter_linear"), linear_block, point_block)

        b.position_at_end(point_block)
        axes = []
        for axis, (u, n) in enumerate(zip(scaled, sizes)):
            i = b.select(active[axis], self._floor_int(u), self.k(0))
            axes.append(self.address(desc, i, n, axis))
        point = self.texel(desc, axes + fixed, level)
        part = b.fdiv(b.sitofp(share.steps, F64), ir.Constant(F64, 256.0))
        point_sums = [b.fmul(b.fpext(b.bitcast(w, F32), F64), part) for w in point]
        point_end = b.block
        b.branch(join)

        b.position_at_end(linear_block)
        corners = []        # per axis: (low texel, its weight, high texel, its weight), weights in 1/256
        for axis, (u, n) in enumerate(zip(scaled, sizes)):
            shifted = b.fsub(u, ir.Constant(F32, 0.5))
            low = self.call("llvm.floor.f32", F32, [shifted])
            frac = b.fsub(shifted, low)
            # the H200 rounds the weight half up (texture_modes' probe: 256 * 1/512 -> 1)
            steps = b.fadd(b.fmul(frac, ir.Constant(F32, 256.0)), ir.Constant(F32, 0.5))
            alpha = b.fptosi(self.call("llvm.floor.f32", F32, [steps]), I32)
            alpha = b.select(active[axis], alpha, self.k(0))
            i0 = b.select(active[axis], self._floor_int(low), self.k(0))
            i1 = b.select(active[axis], b.add(i0, self.k(1)), self.k(0))
            corners.append((self.address(desc, i0, n, axis), b.sub(self.k(256), alpha),
                            self.address(desc, i1, n, axis), alpha))
        sums = None
        for corner in range(1 << len(coords)):           # CUDA's order: x fastest
            factors, axes = [share.steps], []
            for axis, (at0, w0, at1, w1) in enumerate(corners):
                high = corner >> axis & 1
                axes.append(at1 if high else at0)
                factors.append(w1 if high else w0)
            weight = self._corner_weight(factors, b.add(share.far, self.k(bin(corner).count("1"))))
            words = [b.fpext(b.bitcast(w, F32), F64) for w in self.texel(desc, axes + fixed, level)]
            term = [b.fmul(weight, w) for w in words]
            sums = term if sums is None else [b.fadd(t, x) for t, x in zip(sums, term)]
        linear = [b.bitcast(b.fptrunc(t, F32), I32) for t in sums]
        linear_end = b.block
        b.branch(join)

        b.position_at_end(join)
        out, weighted = [], []
        for p, q in zip(point, linear):
            phi = b.phi(I32)
            phi.add_incoming(p, point_end)
            phi.add_incoming(q, linear_end)
            out.append(phi)
        for p, q in zip(point_sums, sums):
            phi = b.phi(F64)
            phi.add_incoming(p, point_end)
            phi.add_incoming(q, linear_end)
            weighted.append(phi)
        return out, weighted

    def _corner_weight(self, factors: list[ir.Value], highs: ir.Value) -> ir.Value:
        """A corner's weight (f64): the product of its factors (each 0..256, in 1/256 steps)
        rounded to 1/256. A tie (the product's remainder exactly half a step: in 2D, when both
        steps are odd) rounds up at corners with an even number of high sides and down at the
        others, so the four weights still sum to 1 (H200 probe: the two exact-looking rules,
        half up and half even, each miss these)."""
        b = self.b
        product = b.zext(factors[0], I64)
        for f in factors[1:]:
            product = b.mul(product, b.zext(f, I64))
        shift = 8 * (len(factors) - 1)
        units = b.lshr(product, ir.Constant(I64, shift))
        rest = b.and_(product, ir.Constant(I64, (1 << shift) - 1))
        half = ir.Constant(I64, 1 << (shift - 1))
        even = b.icmp_unsigned("==", b.and_(highs, self.k(1)), self.k(0))
        up = b.or_(b.icmp_unsigned(">", rest, half), b.and_(b.icmp_unsigned("==", rest, half), even))
        units = b.add(units, b.zext(up, I64))
        return b.fdiv(b.uitofp(units, F64), ir.Constant(F64, 256.0))

    def gather(self, desc, coords: list[ir.Value], component: ir.Value) -> None:
        """The texels (i, j+1), (i+1, j+1), (i+1, j), (i, j) around (x - 0.5, y - 0.5): the order
        of Direct3D's Gather4, which tex2Dgather follows; of each, the given component."""
        b = self.b
        level = self.base_level(desc)        # Gather reads level 0 (no LOD operand)
        sizes = level.sizes[:2]
        normalized = self.flag(desc, "normalized_coords")
        lows = []
        for axis, (x, n) in enumerate(zip(coords, sizes)):
            u = b.select(normalized, b.fmul(x, b.uitofp(n, F32)), x)
            i0 = self._floor_int(b.fsub(u, ir.Constant(F32, 0.5)))
            lows.append((self.address(desc, i0, n, axis), self.address(desc, b.add(i0, self.k(1)), n, axis)))
        picked = []
        for dx, dy in ((0, 1), (1, 1), (1, 0), (0, 0)):
            words = self.texel(desc, [lows[0][dx], lows[1][dy]], level)
            value = words[3]
            for c in (2, 1, 0):
                value = b.select(b.icmp_unsigned("==", component, self.k(c)), words[c], value)
            picked.append(value)
        self.ret(picked)

    def _floor_int(self, u) -> ir.Value:
        """floor(u) as i32, clamped far outside any texture (NaN reads texel 0)."""
        b = self.b
        f = self.call("llvm.floor.f32", F32, [u])
        f = b.select(b.fcmp_ordered(">", f, ir.Constant(F32, 1 << 30)), ir.Constant(F32, 1 << 30), f)
        f = b.select(b.fcmp_ordered("<", f, ir.Constant(F32, -(1 << 30))), ir.Constant(F32, -(1 << 30)), f)
        f = b.select(b.fcmp_unordered("!=", f, f), ir.Constant(F32, 0.0), f)
        return b.fptosi(f, I32)


__all__ = ["texture", "FIELDS"]
