"""Integer arithmetic: IMAD and its variants, IADD3 with carries, LEA, ISETP (with .EX chains),
IMNMX, IABS, SEL, MOV, VABSDIFF, VABSDIFF4 (byte SIMD), S2R/CS2R. Carries travel in predicates, as on NVIDIA hardware."""

from __future__ import annotations

import dataclasses

from llvmlite import ir

from .core import I1, I16, I32, I64, ConstRef, Imm, Lifter, Reg, handles, unsupported

I128 = ir.IntType(128)
RZ = Reg("R", None, "RZ")
V2I16 = ir.VectorType(I16, 2)
CMP_SIGNED = {"LT": "<", "LE": "<=", "GT": ">", "GE": ">=", "EQ": "==", "NE": "!="}


def split(ins) -> tuple[list, list, list]:
    """(destinations, sources, trailing predicate inputs): a first register, predicates right after
    it (carry outs), values, then predicates at the end (carry ins)."""
    ops = list(ins.operands)
    dests = [ops.pop(0)]
    while ops and isinstance(ops[0], Reg) and ops[0].kind in ("P", "UP"):
        dests.append(ops.pop(0))
    tail = []
    while ops and isinstance(ops[-1], Reg) and ops[-1].kind in ("P", "UP"):
        tail.insert(0, ops.pop())
    return dests, ops, tail


def _is_zero(op) -> bool:
    return isinstance(op, Reg) and op.index is None and op.kind in ("R", "UR")


def _is_one(op) -> bool:
    return isinstance(op, Imm) and not op.is_float and not op.negate and op.value == 1


@handles("IMAD", "UIMAD")
def imad(ctx: Lifter, ins) -> None:
    """IMAD d, a, b, c = a*b + c; .WIDE: 64-bit product plus the pair c; .HI: the high word of
    the 64-bit product plus the pair c (c:c+1, or a 64-bit constant-bank word: the division
    sequences and unrolled 64-bit LCGs use it so); .X adds carry
    predicates; a predicate after d receives the carry out."""
    ctx.check(ins, {"MOV", "IADD", "SHL", "U32", "S32", "WIDE", "HI", "X"})
    b = ctx.b
    dests, (a, bb, c), carry_in = split(ins)
    unsigned = "U32" in ins.modifiers
    ext = b.zext if unsigned else b.sext
    if len(dests) > 2:
        raise unsupported(ins, "two carry outs")
    if carry_in and "X" not in ins.modifiers:
        raise unsupported(ins, "carry in without .X")
    if "X" in ins.modifiers and not {"WIDE", "HI"} & set(ins.modifiers) and len(dests) == 1:
        # ptxas's high word of a 64-bit difference: a * 0x1 + ~b + carry
        times_one = a if _is_one(bb) else bb if _is_one(a) else None
        difference = _difference(ctx, True, [times_one, c, RZ], carry_in) if times_one is not None else None
        if difference is not None:
            (total, count), terms = difference
            _add_chain(ctx, dests, total, count, terms)
            return
    negated = [isinstance(op, (Reg, ConstRef)) and op.negate for op in (a, bb, c)]
    if len(dests) > 1 and any(negated):
        # a - as ~x + 1 changes the carry (see LEA); no form of ptxas's needs it here yet
        raise unsupported(ins, "negated operand with a carry out")
    if "WIDE" in ins.modifiers or "HI" in ins.modifiers:
        if "HI" in ins.modifiers and not isinstance(c, (Reg, ConstRef)):
            raise unsupported(ins, "IMAD.HI addend")
        addend = ctx.u64(c) if isinstance(c, (Reg, ConstRef)) else ext(ctx.u32(c), I64)
        wide = b.add(b.mul(ext(ctx.u32(a), I128), ext(ctx.u32(bb), I128)), b.zext(addend, I128))
        wide = _add_carries(ctx, wide, carry_in, I128)
        low64 = b.trunc(wide, I64)
        if "HI" in ins.modifiers:
            ctx.set32(dests[0], ctx.split64(low64)[1])
        else:
            ctx.set64(dests[0], low64)
        carry = b.trunc(b.lshr(wide, ir.Constant(I128, 64)), I1)
    else:
        wide = b.add(b.zext(b.mul(ctx.u32(a), ctx.u32(bb)), I64), b.zext(ctx.u32(c), I64))
        wide = _add_carries(ctx, wide, carry_in, I64)
        lo, hi = ctx.split64(wide)
        ctx.set32(dests[0], lo)
        carry = b.trunc(hi, I1)
    for p in dests[1:]:
        ctx.setp(p, carry)


def _add_carries(ctx: Lifter, v: ir.Value, preds: list, ty: ir.Type) -> ir.Value:
    for p in preds:
        v = ctx.b.add(v, ctx.b.zext(ctx.pred(p), ty))
    return v


def _carry_terms(ctx: Lifter, ins, sources: list) -> tuple[list[ir.Value], int]:
    """The zero-extended 32-bit terms of an add and the constant +1s of negated registers
    (-R is ~R + 1, which is what makes the carry of a subtraction)."""
    terms, ones = [], 0
    for op in sources:
        if isinstance(op, (Reg, ConstRef)) and op.negate:   # immediates carry their sign already
            plain = Reg(op.kind, op.index, op.name, op.suffixes) if isinstance(op, Reg) else \
                ConstRef(op.bank, op.offset, op.reg, op.bank_reg, op.suffixes)
            terms.append(ctx.b.not_(ctx.u32(plain)))
            ones += 1
        else:
            terms.append(ctx.u32(op))
    return terms, ones


@handles("IADD3", "UIADD3")
def iadd3(ctx: Lifter, ins) -> None:
    ctx.check(ins, {"X"})
    b = ctx.b
    dests, sources, carry_in = split(ins)
    if len(sources) != 3:
        raise unsupported(ins, "operand count")
    if "X" in ins.modifiers and any(isinstance(s, (Reg, ConstRef)) and s.negate for s in sources):
        raise unsupported(ins, "negated operand in IADD3.X")
    if carry_in and "X" not in ins.modifiers:
        raise unsupported(ins, "carry in without .X")
    difference = _difference(ctx, "X" in ins.modifiers, sources, carry_in)
    if difference is not None:
        (total, count), terms = difference
    else:
        terms, ones = _carry_terms(ctx, ins, sources)
        terms += [b.zext(ctx.pred(p), I32) for p in carry_in] + [ir.Constant(I32, ones)]
        total, count = terms.pop(0), ir.Constant(I32, 0)
    _add_chain(ctx, dests, total, count, terms)


def _add_chain(ctx: Lifter, dests: list, total: ir.Value, count: ir.Value, terms: list[ir.Value]) -> None:
    """dests[0] = total + terms; the predicates after it: at least one carry (counted from count),
    two carries."""
    b = ctx.b
    # a chain of 32-bit adds with overflow, each carrying at most one: the carries are the high
    # word of the exact sum, and LLVM makes a 64-bit add of the low/high IADD3 pair that ptxas
    # writes into v_add_co_u32 + v_add_co_ci_u32 (a sum in i64 took a compare for each carry)
    for t in terms:
        if isinstance(t, ir.Constant) and t.constant == 0:
            continue
        step = ctx.call("llvm.uadd.with.overflow.i32", ir.LiteralStructType([I32, I1]), [total, t])
        total = b.extract_value(step, 0)
        count = b.add(count, b.zext(b.extract_value(step, 1), I32))
    ctx.set32(dests[0], total)
    for i, p in enumerate(dests[1:]):        # P0: at least one carry, P1: two
        ctx.setp(p, b.icmp_unsigned(">", count, ir.Constant(I32, i)))


def _plain(op):
    """The operand without its - or ~."""
    return dataclasses.replace(op, negate=False, invert=False)


def _difference(ctx: Lifter, extended: bool, sources: list,
                carry_in: list) -> tuple[tuple[ir.Value, ir.Value], list[ir.Value]] | None:
    """A subtraction in a three-way add (extended: the .X form, with a carry in) as one:
    ((a - b, its carry count), the terms left to add), or None where the sum is no difference.

    ptxas writes a 64-bit a - b as IADD3 lo, P0, a.lo, -b.lo, RZ and IADD3.X hi, a.hi, ~b.hi, RZ,
    P0 (or IMAD.X hi, a.hi, 0x1, ~b.hi, P0): the sums a + ~b + 1 and a + ~b + carry. Lifted as
    sums they are two nots, two adds and an or of their carries per word; as
    llvm.usub.with.overflow (no carry is no borrow: a + ~b + 1 reaches 2^32 exactly when a >= b)
    LLVM selects v_sub_co_u32 + v_sub_co_ci_u32."""
    b = ctx.b
    operand = (Reg, ConstRef)
    # !PT, the carry in ptxas leaves unused, adds nothing
    carry_in = [p for p in carry_in if not (p.invert and p.index in (None, 7))]
    if extended:
        flagged = [s for s in sources if isinstance(s, operand) and s.invert]
        if len(flagged) != 1 or len(carry_in) != 1 or any(isinstance(s, operand) and s.negate for s in sources):
            return None
        borrow_in = b.zext(b.not_(ctx.pred(carry_in[0])), I32)  # a + ~b + c = a - b - (1 - c)
    else:
        flagged = [s for s in sources if isinstance(s, operand) and s.negate]
        if len(flagged) != 1 or carry_in or any(isinstance(s, operand) and s.invert for s in sources):
            return None
        borrow_in = None
    rest = list(sources)
    rest.remove(flagged[0])
    minuend, others = ctx.u32(rest[0]), [ctx.u32(op) for op in rest[1:] if not _is_zero(op)]
    usub = ("llvm.usub.with.overflow.i32", ir.LiteralStructType([I32, I1]))
    step = ctx.call(*usub, [minuend, ctx.u32(_plain(flagged[0]))])
    total, borrow = b.extract_value(step, 0), b.extract_value(step, 1)
    if borrow_in is not None:
        step = ctx.call(*usub, [total, borrow_in])
        total, borrow = b.extract_value(step, 0), b.or_(borrow, b.extract_value(step, 1))
    return (total, b.zext(b.not_(borrow), I32)), others


@handles("VIADD", "UVIADD")
def viadd(ctx: Lifter, ins) -> None:
    """VIADD d, a, c = a + c; VIADD.16x2 adds the 16-bit halves apart (__vadd2, with -c __vsub2)."""
    ctx.check(ins, {"16x2"})
    d, a, c = ctx.operands(ins, 3)
    if "16x2" in ins.modifiers:
        ctx.set32(d, ctx.b.bitcast(ctx.b.add(halves(ctx, a), halves(ctx, c)), I32))
        return
    ctx.set32(d, ctx.b.add(ctx.u32(a), ctx.u32(c)))


def halves(ctx: Lifter, op) -> ir.Value:
    """A 32-bit operand as two 16-bit lanes; a `-` on a register negates each lane (an immediate's
    sign is part of its 32-bit value: `-0x130014` is the lanes -20, -20)."""
    if isinstance(op, Imm) and op.is_float or getattr(op, "absolute", False) or getattr(op, "invert", False):
        raise ctx.refuse("operand modifier on 16-bit lanes")
    negate = isinstance(op, (Reg, ConstRef)) and op.negate
    v = ctx.b.bitcast(ctx.u32(dataclasses.replace(op, negate=False) if negate else op), V2I16)
    return ctx.b.sub(ir.Constant(V2I16, None), v) if negate else v


@handles("LEA", "ULEA")
def lea(ctx: Lifter, ins) -> None:
    """LEA d, a, b, s = (a << s) + b;  LEA.HI d, a, b, c, s = hi32((c:a) << s) + b (.SX32: c is
    a's sign); .X adds the carry predicate. `-a` subtracts: b + ~(a << s) + 1, whose carry is
    "no borrow" (what the .X of the high word that follows adds; with a = 0 it is 1)."""
    ctx.check(ins, {"HI", "X", "SX32"})
    b = ctx.b
    dests, sources, carry_in = split(ins)
    shift = ctx.imm_bits32(sources[-1]) if isinstance(sources[-1], Imm) else None
    if shift is None:
        raise unsupported(ins, "register shift amount")
    negated = [isinstance(op, (Reg, ConstRef)) and op.negate for op in sources[:2]]
    if any(negated) and ({"HI", "X"} & set(ins.modifiers)):
        raise unsupported(ins, "negated operand in LEA.HI or LEA.X")
    a, addend = (dataclasses.replace(op, negate=False) if neg else op for op, neg in zip(sources, negated))
    if "HI" in ins.modifiers:
        if "SX32" in ins.modifiers:
            wide = b.sext(ctx.u32(a), I64)
        else:
            wide = ctx.join64(ctx.u32(a), ctx.u32(sources[2]))
        part = ctx.split64(b.shl(wide, ir.Constant(I64, shift)))[1]
    else:
        part = b.shl(ctx.u32(a), ir.Constant(I32, shift))
    terms = [b.not_(t) if neg else t for t, neg in zip((part, ctx.u32(addend)), negated)]
    total = ir.Constant(I64, sum(negated))
    for t in terms:
        total = b.add(total, b.zext(t, I64))
    if "X" in ins.modifiers:
        total = _add_carries(ctx, total, carry_in, I64)
    elif carry_in:
        raise unsupported(ins, "carry in without .X")
    lo, count = ctx.split64(total)
    ctx.set32(dests[0], lo)
    for p in dests[1:2]:
        ctx.setp(p, b.icmp_unsigned("!=", count, ir.Constant(I32, 0)))
    if len(dests) > 2:
        raise unsupported(ins, "two carry outs")


def _compare(ctx: Lifter, op: str, unsigned: bool, x: ir.Value, y: ir.Value) -> ir.Value:
    sym = CMP_SIGNED[op]
    if sym in ("==", "!="):
        return ctx.b.icmp_unsigned(sym, x, y)
    return (ctx.b.icmp_unsigned if unsigned else ctx.b.icmp_signed)(sym, x, y)


@handles("ISETP", "UISETP")
def isetp(ctx: Lifter, ins) -> None:
    """ISETP.op.logic P, Q, a, b, c [, chain]: P = (a op b) logic c, Q = !(a op b) logic c.
    .EX compares the high words of a 64-bit chain; `chain` is the low words' result."""
    cmp = [m for m in ins.modifiers if m in CMP_SIGNED]
    logic = [m for m in ins.modifiers if m in ("AND", "OR", "XOR")]
    ctx.check(ins, set(CMP_SIGNED) | {"AND", "OR", "XOR", "U32", "EX"})
    if len(cmp) != 1 or len(logic) != 1:
        raise unsupported(ins, "comparison")
    op, unsigned = cmp[0], "U32" in ins.modifiers
    ops = list(ins.operands)
    chain = ops.pop() if "EX" in ins.modifiers else None
    if len(ops) != 5:
        raise unsupported(ins, "operand count")
    p, q, a, bb, c = ops
    x, y = ctx.u32(a), ctx.u32(bb)
    words = _low_words(ctx, chain, op) if chain is not None else None
    if words is not None:
        # the pair is one 64-bit compare: v_cmp_*_u64 (or s_cmp_*_u64) in place of a compare,
        # an equality and an and/or of the low word's result for each high word
        r = _compare(ctx, op, unsigned, ctx.join64(words[0], x), ctx.join64(words[1], y))
    else:
        r = _compare(ctx, op, unsigned, x, y)
    if chain is not None and words is None:
        low = ctx.pred(chain)
        eq = ctx.b.icmp_unsigned("==", x, y)
        if op == "EQ":
            r = ctx.b.and_(eq, low)
        elif op == "NE":
            r = ctx.b.or_(r, low)
        elif op in ("LT", "GT"):                   # strict above, else equal and low part decides
            r = ctx.b.or_(r, ctx.b.and_(eq, low))
        else:                                      # LE/GE: strict compare, or equal and low
            strict = _compare(ctx, "LT" if op == "LE" else "GT", unsigned, x, y)
            r = ctx.b.or_(strict, ctx.b.and_(eq, low))
    other = ctx.pred(c)
    result = ctx.combine(ins, r, logic[0], other)
    ctx.setp(p, result)
    ctx.setp(q, ctx.combine(ins, ctx.b.not_(r), logic[0], other))
    if chain is None and unsigned and logic[0] == "AND" and ctx.is_pt(c):
        ctx.state.setdefault(LOW_COMPARES, {})[result] = (op, x, y)


LOW_COMPARES = "integer.isetp_low_words"   # state key: P's stored i1 -> (op, low a, low b)
MIRRORED = {"LT": "GT", "GT": "LT", "LE": "GE", "GE": "LE", "EQ": "EQ", "NE": "NE"}


def _low_words(ctx: Lifter, chain, op: str) -> tuple[ir.Value, ir.Value] | None:
    """The low words of a 64-bit compare whose .EX half reads `chain`, when the value chain holds
    is an unguarded ISETP.op.U32.AND P, PT, a.lo, b.lo, PT of this block with the same op (ptxas
    splits a 64-bit a op b so, in any order with other code between), or with the mirrored op
    and the operands swapped (ISETP.LE.U32 b.lo, a.lo with ISETP.GE.U32.EX a.hi, b.hi: a loop's
    exit test): (a.lo, b.lo), else None.
    The store that last wrote chain's slot in this block is found by walking back; a call of a
    lifted subroutine (it may write the slot) or no store in the block ends the search."""
    if not isinstance(chain, Reg) or chain.invert or chain.index in (None, 7):
        return None
    known = ctx.state.get(LOW_COMPARES)
    if not known:
        return None
    slot = ctx.slot(chain.kind, chain.index)
    for ins in reversed(ctx.b.block.instructions):
        if isinstance(ins, ir.CallInstr) and isinstance(ins.callee, ir.Function) \
                and not ins.callee.name.startswith("llvm."):
            return None
        if isinstance(ins, ir.StoreInstr) and ins.operands[1] is slot:
            found = known.get(ins.operands[0])
            if found is None:
                return None
            low_op, x, y = found
            return (x, y) if low_op == op else (y, x) if low_op == MIRRORED[op] else None
    return None


@handles("IMNMX", "UIMNMX", "VIMNMX", "UVIMNMX", "VIMNMX3")
def imnmx(ctx: Lifter, ins) -> None:
    """IMNMX d, a, b, P (sm_90: VIMNMX; VIMNMX3 takes three values): min when P, max when !P;
    .RELU then clamps a negative result to 0; .S16x2/.U16x2 work on the 16-bit halves apart."""
    ctx.check(ins, {"U32", "S32", "RELU", "S16x2", "U16x2"})
    b = ctx.b
    dests, values, tail = split(ins)
    d, selected = dests[0], dests[1:]
    if len(tail) != 1 or len(values) != (3 if ins.opcode == "VIMNMX3" else 2):
        raise unsupported(ins, f"{len(ins.operands)} operands")
    p = tail[0]
    pair = {"S16x2", "U16x2"} & set(ins.modifiers)
    if selected:                    # __vibmax_s16x2(a, b, &hi, &lo): which lanes kept a
        if not pair or len(selected) != 2 or len(values) != 2 or "RELU" in ins.modifiers:
            raise unsupported(ins, "predicate results")
        _lanes_kept(ctx, ins, selected, values, p, pair)
    if pair:                        # DPX __vimin_s16x2, __vimax3_s16x2_relu ...: per 16-bit lane
        if "RELU" in ins.modifiers and "U16x2" in pair:
            raise unsupported(ins, "16-bit lane form")
        cmp = b.icmp_signed if "S16x2" in pair else b.icmp_unsigned
        take_min = ctx.pred(p)
        r = halves(ctx, values[0])
        for op in values[1:]:
            y = halves(ctx, op)
            lt = cmp("<", r, y)
            r = b.select(take_min, b.select(lt, r, y), b.select(lt, y, r))
        if "RELU" in ins.modifiers:
            zero = ir.Constant(V2I16, None)
            r = b.select(b.icmp_signed("<", r, zero), zero, r)
        ctx.set32(d, b.bitcast(r, I32))
        return
    cmp = b.icmp_unsigned if "U32" in ins.modifiers else b.icmp_signed
    take_min = ctx.pred(p)
    r = ctx.u32(values[0])
    for op in values[1:]:
        y = ctx.u32(op)
        lt = cmp("<", r, y)
        r = b.select(take_min, b.select(lt, r, y), b.select(lt, y, r))
    if "RELU" in ins.modifiers:
        r = b.select(b.icmp_signed("<", r, ir.Constant(I32, 0)), ir.Constant(I32, 0), r)
    ctx.set32(d, r)


def _lanes_kept(ctx: Lifter, ins, selected: list, values: list, p, pair: set) -> None:
    """VIMNMX.S16x2 d, Plo, Phi, a, b, P: Plo/Phi say whether lane 0/1 of the result is a's
    (a >= b for a max, a <= b for a min; CUDA's __vibmax_s16x2/__vibmin_u16x2)."""
    b = ctx.b
    x, y = halves(ctx, values[0]), halves(ctx, values[1])
    cmp = b.icmp_signed if "S16x2" in pair else b.icmp_unsigned
    take_min = ctx.pred(p)
    kept = b.select(take_min, cmp("<=", x, y), cmp(">=", x, y))
    for lane, pd in enumerate(selected):
        ctx.setp(pd, b.extract_element(kept, ir.Constant(I32, lane)))


@handles("VIADDMNMX")
def viaddmnmx(ctx: Lifter, ins) -> None:
    """sm_90: VIADDMNMX d, a, b, c, P = min/max(a + b, c) (min when P); .RELU then clamps a
    negative result to 0; .S16x2/.U16x2 work on the 16-bit halves apart (DPX __viaddmax_s16x2)."""
    ctx.check(ins, {"U32", "S32", "RELU", "S16x2", "U16x2"})
    d, a, bb, c, p = ctx.operands(ins, 5)
    b = ctx.b
    pair = {"S16x2", "U16x2"} & set(ins.modifiers)
    if "RELU" in ins.modifiers and ({"U32", "U16x2"} & set(ins.modifiers)):
        raise unsupported(ins, "RELU of an unsigned result")
    read = (lambda op: halves(ctx, op)) if pair else ctx.u32
    s, y = b.add(read(a), read(bb)), read(c)
    lt = (b.icmp_unsigned if {"U32", "U16x2"} & set(ins.modifiers) else b.icmp_signed)("<", s, y)
    r = b.select(ctx.pred(p), b.select(lt, s, y), b.select(lt, y, s))
    if "RELU" in ins.modifiers:
        zero = ir.Constant(r.type, None if pair else 0)
        r = b.select(b.icmp_signed("<", r, zero), zero, r)
    ctx.set32(d, b.bitcast(r, I32) if pair else r)


@handles("IABS", "UIABS")
def iabs(ctx: Lifter, ins) -> None:
    ctx.check(ins, set())
    d, a = ctx.operands(ins, 2)
    v = ctx.u32(a)
    neg = ctx.b.icmp_signed("<", v, ir.Constant(I32, 0))
    ctx.set32(d, ctx.b.select(neg, ctx.b.neg(v), v))


@handles("SEL", "USEL")
def sel(ctx: Lifter, ins) -> None:
    ctx.check(ins, set())
    d, a, bb, p = ctx.operands(ins, 4)
    ctx.set32(d, ctx.b.select(ctx.pred(p), ctx.u32(a), ctx.u32(bb)))


@handles("MOV", "UMOV")
def mov(ctx: Lifter, ins) -> None:
    ctx.check(ins, {"64"} if ins.opcode == "UMOV" else set())
    ops = ctx.operands(ins, 2, 3)
    if len(ops) == 3 and ctx.imm_bits32(ops[2]) != 0xF:
        raise unsupported(ins, "lane mask")
    if "64" in ins.modifiers:
        ctx.set64(ops[0], ctx.u64(ops[1]))
    else:
        ctx.set32(ops[0], ctx.u32(ops[1]))


@handles("VABSDIFF")
def vabsdiff(ctx: Lifter, ins) -> None:
    """VABSDIFF d, a, b, c = |a - b| + c (signed 32-bit, as __sad)."""
    ctx.check(ins, {"U32", "S32"})
    d, a, bb, c = ctx.operands(ins, 4)
    x, y = ctx.u32(a), ctx.u32(bb)
    gt = (ctx.b.icmp_unsigned if "U32" in ins.modifiers else ctx.b.icmp_signed)(">", x, y)
    diff = ctx.b.select(gt, ctx.b.sub(x, y), ctx.b.sub(y, x))
    ctx.set32(d, ctx.b.add(diff, ctx.u32(c)))


@handles("VABSDIFF4")
def vabsdiff4(ctx: Lifter, ins) -> None:
    """VABSDIFF4.U8 d, a, b, c: the four byte-wise |a - b| packed (__vabsdiffu4; c is PTX's merge
    operand, which a full byte mask leaves unused: ptxas turns `vabsdiff4 d, a, b, c` into this
    form and masked merges into PRMTs); VABSDIFF4.U8.ACC d, a, b, c: their sum + c (__vsadu4)."""
    ctx.check(ins, {"U8", "ACC"})
    if "U8" not in ins.modifiers:
        raise unsupported(ins, "byte type")
    d, a, bb, c = ctx.operands(ins, 4)
    acc = "ACC" in ins.modifiers
    b = ctx.b
    x, y = ctx.u32(a), ctx.u32(bb)
    total = ctx.u32(c) if acc else ir.Constant(I32, 0)
    for k in range(4):
        shift = ir.Constant(I32, 8 * k)
        p = b.and_(b.lshr(x, shift), ir.Constant(I32, 0xFF))
        q = b.and_(b.lshr(y, shift), ir.Constant(I32, 0xFF))
        diff = b.select(b.icmp_unsigned(">", p, q), b.sub(p, q), b.sub(q, p))
        total = b.add(total, diff if acc else b.shl(diff, shift))
    ctx.set32(d, total)


@handles("S2R", "S2UR")
def s2r(ctx: Lifter, ins) -> None:
    ctx.check(ins, set())
    d, src = ctx.operands(ins, 2)
    ctx.set32(d, ctx.u32(src))


@handles("CS2R")
def cs2r(ctx: Lifter, ins) -> None:
    """CS2R R4, SRZ (zero a pair) / CS2R R4, SR_CLOCKLO (64-bit clock) / CS2R.32."""
    ctx.check(ins, {"32"})
    d, src = ctx.operands(ins, 2)
    if not isinstance(src, Reg):
        raise unsupported(ins)
    if src.name == "SRZ":
        value = ir.Constant(I64, 0)
    elif src.name in ("SR_CLOCKLO", "SR_GLOBALTIMERLO"):
        # gfx11 has no s_memtime/s_memrealtime; its cycle counter (SHADER_CYCLES) is 20 bits and
        # wraps within a kernel, which breaks clock64's promise of a monotonic 64-bit count. The
        # 64-bit real-time counter (s_sendmsg_rtn_b64 REALTIME) keeps it, for clock and globaltimer.
        value = ctx.call("llvm.readsteadycounter", I64, [])
    else:
        raise unsupported(ins, src.name)
    if "32" in ins.modifiers:
        ctx.set32(d, ctx.b.trunc(value, I32))
    else:
        ctx.set64(d, value)



@handles("IDP")
def idp(ctx: Lifter, ins) -> None:
    """IDP.4A.{S8,U8}.{S8,U8} d, a, b, c = c + the sum of the four byte products (__dp4a);
    IDP.2A.{LO,HI}.{S16,U16}.{S8,U8}: a's two 16-bit halves times b's bytes 0-1 (LO) or 2-3 (HI),
    plus c (__dp2a_lo/__dp2a_hi)."""
    ctx.check(ins, {"4A", "2A", "LO", "HI", "S8", "U8", "S16", "U16"})
    mods = ins.modifiers
    types = [m for m in mods if m in ("S8", "U8", "S16", "U16")]
    if "4A" in mods and len(types) == 2 and all(t in ("S8", "U8") for t in types) and not {"LO", "HI"} & set(mods):
        lanes = [(8 * i, 8, 8 * i, 8) for i in range(4)]
    elif "2A" in mods and len(types) == 2 and types[0] in ("S16", "U16") and types[1] in ("S8", "U8") \
            and len({"LO", "HI"} & set(mods)) == 1:
        base = 16 if "HI" in mods else 0
        lanes = [(16 * i, 16, base + 8 * i, 8) for i in range(2)]
    else:
        raise unsupported(ins, "dot product form")
    d, a, bb, c = ctx.operands(ins, 4)
    b = ctx.b
    x, y = ctx.u32(a), ctx.u32(bb)
    total = ctx.u32(c)
    for xs, xw, ys, yw in lanes:
        parts = []
        for v, shift, width, ty in ((x, xs, xw, types[0]), (y, ys, yw, types[1])):
            lane = b.trunc(b.lshr(v, ir.Constant(I32, shift)), ir.IntType(width))
            parts.append((b.sext if ty.startswith("S") else b.zext)(lane, I32))
        total = b.add(total, b.mul(parts[0], parts[1]))
    ctx.set32(d, total)
