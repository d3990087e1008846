"""Compare-and-swap retry loops that ptxas writes for an atomic the target lacks, lifted as the one
atomicrmw they implement.

sm_80 has no shared-memory atomic for 64-bit add/min/max/and/or/xor or for float and double add,
so ptxas writes each as a retry loop around ATOMS.CAST.SPIN, which returns whether it swapped:

    L:  LDS.64 R4, [a]                          old
        IADD3 R6, P0, R8, R4, RZ                new = f(old, v)
        IMAD.X R7, R9, 0x1, R5, P0
        ATOMS.CAST.SPIN.64 R6, [a], R4, R6      swap when [a] still holds old
        ISETP.EQ.U32.AND P0, PT, R6, 0x1, PT
        ISETP.EQ.U32.AND.EX P0, PT, R7, RZ, PT, P0
   @!P0 BRA L

(min and max leave before the swap when old already wins). Lifted as written, every lane loops on
a load and a cmpxchg, where hipcc's build of the same source issues one ds_add_u64 (ds_min_i64,
ds_add_f32, ...). A loop of that shape whose new value is an atomicrmw operation of old and of
values the loop does not change is lifted as that atomicrmw: the successful swap is the atomic
step, and since nothing but memory carries from one round to the next (checked), the registers the
loop leaves behind are those of one round whose read returned the atomicrmw's old value and whose
swap succeeded. That round is lifted after the atomicrmw (the replay), without its branch back.

What the shape does not prove at compile time becomes a test at run time, with the literal loop
where it fails: that the value a min/max compares with is the value it stores (ptxas may read one
kernel argument twice, which LLVM then folds), and that the product a fused multiply-add adds is
exact (ptxas fuses `atomicAdd(p, x * 0.5f)` into FFMA x, 0.5, old). Float adds are exact as
atomicrmw fadd: ds_add_f32 rounds to nearest even and keeps denormals in the kernel's default
float mode (LLVM's AMDGPU backend emits it as is because LDS float atomics follow the mode), and
double adds on LDS without ds_add_f64 (gfx1100) are expanded by LLVM into its own compare-and-swap
loop of the same IEEE add. Operations other than those (packed half adds, 16-bit fields of a word)
keep their loop.

Global memory needs none of this on sm_80: ptxas has ATOMG for every operation CUDA offers there;
the compare-and-swap loops on global memory come from CUDA's headers (16-bit half/bfloat16 adds
inside a 32-bit word, libcu++'s float min/max with CUDA's NaN rules), none of them an atomicrmw.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from llvmlite import ir

from cass_cc.sass.model import ConstRef, Imm, Instruction, Label, Mem, Reg

from .atomics import insert_rmw
from .bits import truth_table
from .cfg import label_address, never_runs
from .core import F32, F64, HANDLERS, I1, I32, I64, Lifter
from .memory import SCOPE, pointer
from .opcodes import is_warp_branch

Key = tuple[str, int]
Build = Callable[[Lifter], ir.Value]

# The read of the old value -> the swap it pairs with and the memory space of both.
READS = {"LDS": ("ATOMS", "shared")}
# Register-only instructions a loop may hold besides its read, swap and branches: the ones whose
# destinations the analysis below knows (any other keeps the loop).
PURE = {"IADD3", "IMAD", "MOV", "LOP3", "FADD", "FFMA", "DADD", "DFMA", "ISETP", "NOP", "YIELD"}
PAIRS = {"DADD", "DFMA"}                  # operands and results are register pairs
FLIP = {"LE": "GE", "LT": "GT", "GE": "LE", "GT": "LT"}              # a R b == b FLIP[R] a
NEGATE = {"LE": "GT", "LT": "GE", "GE": "LT", "GT": "LE"}            # !(a R b) == a NEGATE[R] b


@dataclass(frozen=True)
class Plan:
    """What the loop implements: `atomicrmw op` of `value`, where `test` (when there is one) holds."""
    op: str
    ty: ir.Type
    value: Build
    test: Build | None = None


@dataclass(frozen=True)
class CasLoop:
    body: tuple[Instruction, ...]         # the loop header .. the branch back, in address order
    read: int                             # index in body of the read of the old value
    swap: int                             # index of the compare-and-swap
    space: str
    plan: Plan


def find(instructions: list[Instruction]) -> dict[int, CasLoop]:
    """The kernel's compare-and-swap retry loops that are one atomicrmw, by header address."""
    index = {ins.address: n for n, ins in enumerate(instructions)}
    branches = [(ins.address, op.address) for ins in instructions     # BSSY's labels too: conservative
                for op in ins.operands if isinstance(op, Label) and op.address is not None]
    loops = {}
    for n, ins in enumerate(instructions):
        if ins.opcode != "BRA" or never_runs(ins) or is_warp_branch(ins) or ins.guard is None:
            continue
        target = next((op.address for op in ins.operands if isinstance(op, Label)), None)
        if target is None or target > ins.address or target not in index:
            continue
        inside = range(target, ins.address + 1)
        if any(to in inside and to != target and at not in inside for at, to in branches):
            continue                      # entered other than at its header
        loop = _match(tuple(instructions[index[target]:n + 1]))
        if loop is not None:
            loops[target] = loop
    return loops


def lower(ctx: Lifter, loop: CasLoop) -> bool:
    """At the loop's header, the builder in its block: the atomicrmw and the replayed round, then
    on to the code after the loop. Returns whether the literal loop must follow (its runtime test
    may fail): the builder is then in the block where it starts."""
    b = ctx.b
    ctx.ins = loop.body[0]
    fast = ctx.new_block("cas_rmw")
    slow = None
    if loop.plan.test is None:
        b.branch(fast)
    else:
        slow = ctx.new_block("cas_loop")
        b.cbranch(loop.plan.test(ctx), fast, slow)
    b.position_at_end(fast)
    _replay(ctx, loop)
    if slow is not None:
        b.position_at_end(slow)
    return slow is not None


def _replay(ctx: Lifter, loop: CasLoop) -> None:
    """One round of the loop, its read being the atomicrmw and its swap succeeding."""
    b = ctx.b
    for n, ins in enumerate(loop.body[:-1]):
        ctx.ins = ins
        if n == loop.read:
            dest, mem = ins.operands
            scope = next((SCOPE[m] for m in ins.modifiers if m in SCOPE),
                         "workgroup" if loop.space == "shared" else "agent")
            old = insert_rmw(ctx, loop.plan.op, pointer(ctx, ins, mem, loop.space), loop.plan.value(ctx), scope)
            (ctx.set64 if loop.plan.ty in (I64, F64) else ctx.set32)(dest, old)
        elif n == loop.swap:
            flag = ins.operands[0]
            if flag.kind == "P":
                ctx.setp(flag, ir.Constant(I1, 1))
            elif "64" in ins.modifiers:
                ctx.set64(flag, ir.Constant(I64, 1))
            else:
                ctx.set32(flag, ir.Constant(I32, 1))
        elif ins.opcode == "BRA":         # leaving early: min/max found nothing to store
            stay = ctx.new_block("cas_round")
            b.cbranch(ctx.pred(ins.guard), ctx.block_at(label_address(ins)), stay)
            b.position_at_end(stay)
        else:
            HANDLERS[ins.opcode][0](ctx, ins)
    b.branch(ctx.block_at(loop.body[-1].address + 16))


# ---- the loop's shape ------------------------------------------------------------------------

def _keys(op, width: int = 1) -> set[Key]:
    """The registers an operand names (`width` consecutive ones for a register pair); RZ, PT and
    constants name none."""
    if isinstance(op, Reg):
        if op.index is None or (op.kind in ("P", "UP") and op.index == 7) or op.kind not in ("R", "UR", "P", "UP"):
            return set()
        return {(op.kind, op.index + k) for k in range(width if op.kind in ("R", "UR") else 1)}
    if isinstance(op, Mem):
        out = _keys(op.ureg)
        if op.base is not None:
            out |= _keys(op.base, 2 if "64" in op.base.suffixes else 1)
        return out
    if isinstance(op, ConstRef):
        return _keys(op.reg) | _keys(op.bank_reg)
    return set()


def _effects(ins: Instruction) -> tuple[set[Key], set[Key]] | None:
    """(registers read, registers written) by an instruction a loop may hold; None for any other."""
    ops, op = ins.operands, ins.opcode
    guard = _keys(ins.guard) if ins.guard is not None else set()
    if op == "BRA":
        return guard, set()
    if op in ("NOP", "YIELD"):
        return set(), set()
    if op in READS:
        if set(ins.modifiers) - {"64"} or len(ops) != 2:
            return None
        return guard | _keys(ops[1]), _keys(ops[0], 2 if "64" in ins.modifiers else 1)
    if op in {swap for swap, _space in READS.values()}:
        if len(ops) != 4:
            return None
        width = 2 if "64" in ins.modifiers else 1
        return guard | _keys(ops[1]) | _keys(ops[2], width) | _keys(ops[3], width), _keys(ops[0], width)
    if op not in PURE or not ops or (op == "IMAD" and {"WIDE", "HI"} & set(ins.modifiers)):
        return None
    if op == "ISETP":
        ndest = 2
    elif op == "IADD3":                   # IADD3 d, [carry out, [carry out,]] a, b, c [, carry ins]
        ndest = 1 + next(k for k, o in enumerate(list(ops[1:]) + [None])
                         if not (isinstance(o, Reg) and o.kind in ("P", "UP")))
    elif op == "LOP3" and len(ops) > 1 and isinstance(ops[1], Reg) and ops[1].kind in ("P", "UP"):
        return None                       # LOP3.LUT P, R, ...: a predicate result as well
    else:
        ndest = 1
    width = 2 if op in PAIRS else 1
    reads = set().union(*(_keys(o, width) for o in ops[ndest:]))
    writes = set().union(*(_keys(o, width) for o in ops[:ndest]))
    return guard | reads, writes


def _match(body: tuple[Instruction, ...]) -> CasLoop | None:
    reads = [n for n, ins in enumerate(body) if ins.opcode in READS]
    if len(reads) != 1:
        return None
    r = reads[0]
    swap_op, space = READS[body[r].opcode]
    swaps = [n for n, ins in enumerate(body) if ins.opcode == swap_op]
    if len(swaps) != 1 or swaps[0] < r:
        return None
    s = swaps[0]
    load, cas = body[r], body[s]
    mods = set(cas.modifiers)
    if not {"CAST", "SPIN"} <= mods or mods - {"CAST", "SPIN", "64"}:
        return None
    width = 2 if "64" in mods else 1
    effects = [_effects(ins) for ins in body]
    if any(e is None for e in effects):
        return None
    if any(ins.guard is not None and ins.opcode != "BRA" and not _is_pt(ins.guard) for ins in body):
        return None                       # a guarded write keeps the old value: state carried over
    if ("64" in load.modifiers) != (width == 2):
        return None
    last = body[-1]
    exits = [n for n, ins in enumerate(body[:-1]) if ins.opcode == "BRA"]
    for n in exits:
        ins = body[n]
        target = next((op.address for op in ins.operands if isinstance(op, Label)), None)
        if not r < n < s or ins.guard is None or not _keys(ins.guard) or is_warp_branch(ins) or target is None \
                or target <= last.address:
            return None
    written = set().union(*(w for _r, w in effects))
    done: set[Key] = set()
    for reg_reads, reg_writes in effects:     # each round starts from the loop's entry state
        if (reg_reads & written) - done:
            return None
        done |= reg_writes
    flag, mem, compare, new = cas.operands
    dest = load.operands[0]
    if mem != load.operands[1] or _keys(mem) & written or not _plain(dest):
        return None
    old = [("R", dest.index + k) for k in range(width)]
    if not _same(compare, dest) or any(_writer(effects, k, r, s) is not None for k in old):
        return None
    if not _plain(new) or not _leaves_on_swap(body, effects, s, flag, width):
        return None
    plan = _plan(body, effects, r, s, exits, dest, new, width, written)
    return None if plan is None else CasLoop(body, r, s, space, plan)


def _plain(op) -> bool:
    return isinstance(op, Reg) and op.kind == "R" and op.index is not None and not (
        op.negate or op.absolute or op.invert or op.suffixes)


def _same(op, reg: Reg, delta: int = 0) -> bool:
    """op is register `reg` + delta, without modifiers."""
    return _plain(op) and op.index == reg.index + delta


def _writer(effects, key: Key, after: int, before: int) -> int | None:
    """The last instruction strictly between `after` and `before` that writes `key`."""
    found = [n for n in range(after + 1, before) if key in effects[n][1]]
    return found[-1] if found else None


def _is_pt(op, invert: bool = False) -> bool:
    return isinstance(op, Reg) and op.kind == "P" and (op.index is None or op.index == 7) and op.invert == invert


def _leaves_on_swap(body, effects, s: int, flag, width: int) -> bool:
    """Whether the branch back is not taken once the swap succeeded: it is `@!P BRA` where P is
    the swap's predicate result, or P = (flag == 1) (ISETP.EQ.U32, with .EX for the high word)."""
    guard = body[-1].guard
    if not guard.invert or guard.kind != "P" or guard.index is None:
        return False
    key = ("P", guard.index)
    if flag.kind == "P":
        return _keys(flag) == {key} and _writer(effects, key, s, len(body) - 1) is None
    if not _plain(flag):
        return False
    n = _writer(effects, key, s, len(body) - 1)
    if width == 2:
        if n is None or not _is_test(body[n], key, flag, 1, ex=True):
            return False
        n = _writer(effects, key, s, n)
    return n is not None and _is_test(body[n], key, flag, 0, ex=False) and all(
        _writer(effects, ("R", flag.index + k), s, n) is None for k in range(width))


def _is_test(ins, key: Key, flag: Reg, word: int, ex: bool) -> bool:
    """ISETP.EQ.U32.AND P, PT, flag.lo, 0x1, PT, or for the high word ISETP.EQ.U32.AND.EX P, PT,
    flag.hi, RZ, PT, P."""
    want = {"EQ", "U32", "AND"} | ({"EX"} if ex else set())
    if ins.opcode != "ISETP" or set(ins.modifiers) != want or len(ins.operands) != 5 + ex:
        return False
    p, q, a, c, d = ins.operands[:5]
    value = isinstance(c, Reg) and c.index is None if ex else isinstance(c, Imm) and c.value == 1 and not c.is_float
    chain = not ex or (_keys(ins.operands[5]) == {key} and not ins.operands[5].invert)
    return _keys(p) == {key} and not p.invert and _is_pt(q) and _same(a, flag, word) and value and _is_pt(d) and chain


# ---- what the new value is -------------------------------------------------------------------

def _plan(body, effects, r: int, s: int, exits: list[int], old: Reg, new: Reg, width: int,
          written: set[Key]) -> Plan | None:
    new_keys = [("R", new.index + k) for k in range(width)]
    if exits:
        if len(exits) != 1 or any(k in written for k in new_keys):
            return None
        return _min_max(body, effects, r, exits[0], old, new, width, written)
    writers = [_writer(effects, k, r, s) for k in new_keys]
    if None in writers:
        return None
    ins = body[writers[-1]]
    if width == 1 or ins.opcode in PAIRS:
        if len(set(writers)) != 1:
            return None
        return _one(ins, effects, r, writers[0], old, width, written)
    lo, hi = body[writers[0]], ins
    if lo.opcode == "LOP3" and hi.opcode == "LOP3":
        if any(_writer(effects, ("R", old.index + k), r, writers[k]) is not None for k in (0, 1)):
            return None
        ops = [_lop3(i, old, k, written) for k, i in enumerate((lo, hi))]
        if None in ops or ops[0][0] != ops[1][0]:
            return None
        (op, low), (_op, high) = ops
        return Plan(op, I64, lambda ctx: ctx.join64(low(ctx), high(ctx)))
    return _add64(body, effects, r, writers, old, written)


def _invariant(op, written: set[Key], width: int = 1) -> bool:
    return isinstance(op, (Reg, Imm, ConstRef)) and not (isinstance(op, Reg) and op.kind in ("P", "UP", "SR")) \
        and not _keys(op, width) & written


def _zero(op) -> bool:
    return (isinstance(op, Reg) and op.kind in ("R", "UR") and op.index is None and not op.invert) or (
        isinstance(op, Imm) and not op.is_float and op.value == 0)


def _one(ins, effects, r: int, at: int, old: Reg, width: int, written: set[Key]) -> Plan | None:
    """A new value from one instruction: FADD/DADD old, v; FFMA/DFMA a, b, old; IADD3 old, v, RZ;
    LOP3 old, v, RZ (and, or, xor)."""
    if any(_writer(effects, ("R", old.index + k), r, at) is not None for k in range(width)):
        return None
    op, ops, mods = ins.opcode, ins.operands, set(ins.modifiers)
    if op in ("FADD", "DADD") and mods <= {"RN"} and len(ops) == 3:
        others = [o for o in ops[1:] if not _same(o, old)]
        if len(others) != 1 or not _invariant(others[0], written, width):
            return None
        v = others[0]
        return Plan("fadd", F32, lambda ctx: ctx.f32(v)) if op == "FADD" else \
            Plan("fadd", F64, lambda ctx: ctx.f64(v))
    if op in ("FFMA", "DFMA") and mods <= {"RN"} and len(ops) == 4 and _same(ops[3], old):
        a, c = ops[1], ops[2]
        if not (_invariant(a, written, width) and _invariant(c, written, width)):
            return None
        return _exact_product(a, c, op == "FFMA")
    if width == 2:
        return None
    if op == "IADD3" and not mods and len(ops) == 4:
        terms = _addends(ops[1:], old, 0, written)
        if terms is None:
            return None

        def total(ctx: Lifter) -> ir.Value:
            v = ir.Constant(I32, 0)
            for t in terms:
                v = ctx.b.add(v, ctx.u32(t))
            return v
        return Plan("add", I32, total)
    if op == "LOP3":
        found = _lop3(ins, old, 0, written)
        return None if found is None else Plan(found[0], I32, found[1])
    return None


def _lop3(ins, old: Reg, word: int, written: set[Key]) -> tuple[str, Build] | None:
    """LOP3.LUT d, a, b, c, lut, !PT with old's word as one input and invariants as the other two
    (ptxas folds `atomicAnd(p, x | m)` into LOP3 old, x, m): (operation, its operand) when the
    table is old AND g(x, y), old OR g(x, y) or old XOR g(x, y) for some table g of the others."""
    ops = ins.operands
    if ins.opcode != "LOP3" or set(ins.modifiers) != {"LUT"} or len(ops) != 6:
        return None
    _d, *inputs, lut, p = ops
    if not isinstance(lut, Imm) or lut.is_float or not _is_pt(p, invert=True):
        return None
    at = [k for k, o in enumerate(inputs) if _same(o, old, word)]
    if len(at) != 1:
        return None
    others = [o for k, o in enumerate(inputs) if k != at[0]]
    if not all(_invariant(o, written) for o in others):
        return None
    table = int(lut.value) & 0xFF
    kinds = {}                            # (x, y) -> what the table does to old's bit there
    for x in (0, 1):
        for y in (0, 1):
            bits = []
            for o in (0, 1):
                rest = iter((x, y))
                a, b, c = (o if k == at[0] else next(rest) for k in range(3))
                bits.append((table >> (a << 2 | b << 1 | c)) & 1)
            kinds[x, y] = {(0, 1): "same", (1, 0): "not", (0, 0): "zero", (1, 1): "one"}[tuple(bits)]
    for op, allowed, set_where in (("and", {"same", "zero"}, "same"), ("or", {"same", "one"}, "one"),
                                   ("xor", {"same", "not"}, "not")):
        if set(kinds.values()) <= allowed:
            g = sum(1 << (x << 2 | y << 1 | c) for (x, y), kind in kinds.items() if kind == set_where
                    for c in (0, 1))
            return op, lambda ctx: truth_table(ctx, g, [ctx.u32(others[0]), ctx.u32(others[1]),
                                                        ir.Constant(I32, 0)])
    return None


def _join(lo, hi) -> Build:
    return lambda ctx: ctx.join64(ctx.u32(lo), ctx.u32(hi))


def _add64(body, effects, r: int, writers: list[int], old: Reg, written: set[Key]) -> Plan | None:
    """IADD3 lo, P[, Q], old.lo, x, y then IADD3.X hi, old.hi, x', y', P, Q|!PT (or IMAD.X hi,
    x', 0x1, old.hi, P): old + v in 64 bits, v = x + y + (x' + y' << 32)."""
    lo, hi = body[writers[0]], body[writers[1]]
    if not writers[0] < writers[1] or lo.opcode != "IADD3" or lo.modifiers:
        return None
    carries = list(lo.operands[1:-3])
    if not 1 <= len(carries) <= 2 or len(lo.operands) != 4 + len(carries) or not all(
            isinstance(c, Reg) and c.kind == "P" and _keys(c) and not c.invert for c in carries):
        return None
    carry_keys = set().union(*(_keys(c) for c in carries))
    if len(carry_keys) != len(carries) or any(_writer(effects, k, writers[0], writers[1]) is not None
                                              for k in carry_keys):
        return None
    if any(_writer(effects, ("R", old.index + k), r, writers[k]) is not None for k in (0, 1)):
        return None
    ops = hi.operands
    if hi.opcode == "IADD3" and set(hi.modifiers) == {"X"} and len(ops) == 6:
        ins_ = [c for c in ops[4:] if not _is_pt(c, invert=True)]
        if set().union(*(_keys(c) for c in ins_)) != carry_keys or len(ins_) != len(carries) \
                or any(c.invert for c in ins_):
            return None
        high_terms = list(ops[1:4])
    elif hi.opcode == "IMAD" and set(hi.modifiers) == {"X"} and len(ops) == 5 and len(carries) == 1 \
            and _keys(ops[4]) == carry_keys and not ops[4].invert:
        a, b, c = ops[1:4]
        if _zero(a) or _zero(b):
            high_terms = [c]
        elif isinstance(b, Imm) and not b.is_float and b.value == 1:
            high_terms = [a, c]
        else:
            return None
    else:
        return None
    low, high = _addends(lo.operands[-3:], old, 0, written), _addends(high_terms, old, 1, written)
    if low is None or high is None:
        return None

    def value(ctx: Lifter) -> ir.Value:
        b = ctx.b
        total = ir.Constant(I64, 0)
        for t in low:
            total = b.add(total, b.zext(ctx.u32(t), I64))
        top = ir.Constant(I32, 0)
        for t in high:
            top = b.add(top, ctx.u32(t))
        return b.add(total, b.shl(b.zext(top, I64), ir.Constant(I64, 32)))
    return Plan("add", I64, value)


def _addends(terms, old: Reg, word: int, written: set[Key]) -> list | None:
    """The addends besides old's word (exactly once among them), invariants without modifiers."""
    terms = list(terms)
    at = [k for k, t in enumerate(terms) if _same(t, old, word)]
    if len(at) != 1:
        return None
    rest = [t for k, t in enumerate(terms) if k != at[0] and not _zero(t)]
    if not all(_invariant(t, written) and not getattr(t, "negate", False) and not getattr(t, "invert", False)
               for t in rest):
        return None
    return rest


def _exact_product(a, c, single: bool) -> Plan | None:
    """FFMA a, c, old (DFMA) is old + a*c rounded once: an atomic fadd of a*c where that product
    is exact, which the test checks. A product by a power of two is exact where scaling it back
    gives a again (it is not only where it underflowed or overflowed); any float product is exact
    in double. A double product by anything else keeps the loop."""
    ty, read = (F32, Lifter.f32) if single else (F64, Lifter.f64)
    scale = next((o for o in (c, a) if isinstance(o, Imm) and _power_of_two(o)), None)
    if scale is not None:
        x = a if scale is c else c

        def scaled(ctx: Lifter) -> ir.Value:
            return ctx.b.fmul(read(ctx, x), read(ctx, scale))

        def scales_back(ctx: Lifter) -> ir.Value:
            back = ctx.b.fmul(scaled(ctx), ir.Constant(ty, 1.0 / float(scale.value)))
            return ctx.b.fcmp_ordered("==", back, read(ctx, x))
        return Plan("fadd", ty, scaled, scales_back)
    if not single:
        return None

    def product(ctx: Lifter) -> ir.Value:
        return ctx.b.fmul(ctx.b.fpext(ctx.f32(a), F64), ctx.b.fpext(ctx.f32(c), F64))

    def rounded(ctx: Lifter) -> ir.Value:
        return ctx.b.fptrunc(product(ctx), F32)

    def exact(ctx: Lifter) -> ir.Value:
        p = product(ctx)
        return ctx.b.fcmp_ordered("==", ctx.b.fpext(ctx.b.fptrunc(p, F32), F64), p)
    return Plan("fadd", F32, rounded, exact)


def _power_of_two(imm: Imm) -> bool:
    """A float immediate written as a number (not as raw bits) that is +-2^k, its reciprocal a
    normal float too."""
    if not imm.is_float:
        return False
    v = float(imm.value)
    if v == 0 or not math.isfinite(v):
        return False
    mantissa, exponent = math.frexp(abs(v))
    return mantissa == 0.5 and -126 <= exponent - 1 <= 126


def _min_max(body, effects, r: int, e: int, old: Reg, new: Reg, width: int, written: set[Key]) -> Plan | None:
    """The loop leaves at `e` (no swap) when `w R old`, and swaps in `new` otherwise: max when R is
    <= or <, min when >= or >, given that w is new (the runtime test, unless they are the same
    registers)."""
    guard = body[e].guard
    key = (guard.kind, guard.index)
    n = _writer(effects, key, r, e)
    if n is None:
        return None
    tests = [n]
    if width == 2:
        m = _writer(effects, key, r, n)
        if m is None:
            return None
        tests.insert(0, m)
    relation = None
    sides = []
    for k, at in enumerate(tests):
        ins = body[at]
        ex = width == 2 and k == 1
        mods = set(ins.modifiers)
        cmp = mods & set(FLIP)
        if ins.opcode != "ISETP" or len(cmp) != 1 or mods - cmp - {"U32", "AND", "EX"} or "AND" not in mods \
                or ("EX" in mods) != ex or (width == 2 and not ex and "U32" not in mods) or len(ins.operands) != 5 + ex:
            return None
        p, q, a, b, c = ins.operands[:5]
        if _keys(p) != {key} or p.invert or not _is_pt(q) or not _is_pt(c):
            return None
        if ex and (_keys(ins.operands[5]) != {key} or ins.operands[5].invert):
            return None
        if _writer(effects, ("R", old.index + k), r, at) is not None:
            return None
        if _same(a, old, k):
            this, w = FLIP[cmp.pop()], b            # old R w == w FLIP[R] old
        elif _same(b, old, k):
            this, w = cmp.pop(), a
        else:
            return None
        if not _invariant(w, written) or relation not in (None, this):
            return None
        relation = this
        sides.append(w)
    unsigned = "U32" in body[tests[-1]].modifiers       # the high word's compare says
    if guard.invert:                      # @!P BRA out: leaves when not (w R old)
        relation = NEGATE[relation]
    op = "max" if relation in ("LE", "LT") else "min"
    ty = I64 if width == 2 else I32
    stored: Build = _join(Reg("R", new.index, "R"), Reg("R", new.index + 1, "R")) if width == 2 \
        else (lambda ctx: ctx.u32(Reg("R", new.index, "R")))
    if all(_same(w, new, k) for k, w in enumerate(sides)):
        test = None
    else:
        compared: Build = _join(*sides) if width == 2 else (lambda ctx: ctx.u32(sides[0]))
        test = lambda ctx: ctx.b.icmp_unsigned("==", compared(ctx), stored(ctx))    # noqa: E731
    return Plan(("u" + op) if unsigned else op, ty, stored, test)
