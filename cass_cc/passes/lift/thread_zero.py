"""Whether only the threads with threadIdx.x == 0 reach some instructions of a kernel, read from
its SASS: the paths a thread with threadIdx.x != 0 can take, where the branches and exits guarded
by a predicate that compares threadIdx.x with zero go the one way they go for such a thread.

A path knows a predicate's value from an `ISETP.NE|EQ[.U32].AND P, PT, Rt, RZ|0, PT` (either
operand order) where Rt holds SR_TID.X (every write of Rt in the kernel is an S2R of it, or the
last one before, in the same straight-line run, is) until an instruction that may write P. A kernel with calls, returns or
indirect branches is not analysed (the answer is no)."""

from __future__ import annotations

from cass_cc.sass.model import Imm, Label, Mem, Reg

from .opcodes import BRANCH, CALLS, EXITS, INDIRECT, RETURNS, with_property

_GIVES_UP = with_property(CALLS) | with_property(RETURNS) | with_property(INDIRECT)
_EXITS = with_property(EXITS)
_BRANCHES = with_property(BRANCH)


def only_thread_zero_reaches(instructions: list, addresses: set[int]) -> bool:
    """Whether no thread with threadIdx.x != 0 reaches any of `addresses` (instructions in
    address order)."""
    if any(ins.opcode in _GIVES_UP for ins in instructions):
        return False
    tests = _tid_tests(instructions)          # index of the ISETP -> (predicate, value when tid.x != 0)
    if not tests:
        return False
    by_address = {ins.address: n for n, ins in enumerate(instructions)}
    seen: set[tuple[int, frozenset]] = set()
    todo: list[tuple[int, frozenset]] = [(0, frozenset())]
    while todo:
        n, known = todo.pop()
        if (n, known) in seen or n >= len(instructions):
            continue
        seen.add((n, known))
        ins = instructions[n]
        if ins.address in addresses:
            return False
        runs = _runs(ins, known)              # True, False, or None: it may or may not run
        if runs is not False:
            written = _predicates_written(ins)
            known = frozenset((p, v) for p, v in known if p not in written)
            if runs and n in tests:
                known = known | {tests[n]}
        if runs is not True:
            todo.append((n + 1, known))
        if runs is False or ins.opcode in _EXITS:
            continue
        if ins.opcode in _BRANCHES:
            target = next((op.address for op in ins.operands if isinstance(op, Label)), None)
            if target not in by_address:
                return False
            todo.append((by_address[target], known))
        elif runs:
            todo.append((n + 1, known))
    return True


def _runs(ins, known: frozenset) -> bool | None:
    """Whether the instruction runs in a thread with threadIdx.x != 0 (None: not known)."""
    guard = ins.guard
    if guard is None or guard.index is None:        # unguarded, or PT / !PT
        return not (guard is not None and guard.invert)
    for predicate, value in known:
        if predicate == guard.index:
            return value != guard.invert
    return None


def _tid_tests(instructions: list) -> dict[int, tuple[int, bool]]:
    """The ISETPs comparing threadIdx.x with zero: their index -> (predicate, its value in a
    thread with threadIdx.x != 0)."""
    joins = {op.address for ins in instructions for op in ins.operands if isinstance(op, Label)}
    tests = {}
    for n, ins in enumerate(instructions):
        if ins.opcode != "ISETP" or not {"NE", "EQ"} & set(ins.modifiers) or "AND" not in ins.modifiers:
            continue
        ops = ins.operands
        if len(ops) != 5 or not _is_pt(ops[1]) or not _is_pt(ops[4]) or ops[4].invert:
            continue
        p = ops[0]
        if not isinstance(p, Reg) or p.kind != "P" or p.index is None:
            continue
        if any(_is_zero(z) and _holds_tid_x(instructions, n, v, joins) for v, z in ((ops[2], ops[3]), (ops[3], ops[2]))):
            tests[n] = (p.index, "NE" in ins.modifiers)
    return tests


def _holds_tid_x(instructions: list, n: int, op, joins: set[int]) -> bool:
    """Whether register `op` holds SR_TID.X at instruction n: every instruction of the kernel that
    may write it is an S2R of SR_TID.X, or one is the last to write it before n in the same
    straight-line run (no branch, exit or branch target between)."""
    if not isinstance(op, Reg) or op.kind != "R" or op.index is None or op.negate or op.invert:
        return False
    writers = [ins for ins in instructions if op.index in _registers_written(ins)]
    if writers and all(_reads_tid_x(ins) for ins in writers):
        return True
    if instructions[n].address in joins:
        return False
    for ins in reversed(instructions[:n]):
        if ins.opcode in _BRANCHES or ins.opcode in _EXITS:
            return False
        if op.index in _registers_written(ins):
            return _reads_tid_x(ins)
        if ins.address in joins:
            return False
    return False


def _reads_tid_x(ins) -> bool:
    return (ins.opcode == "S2R" and ins.guard is None and len(ins.operands) == 2
            and isinstance(ins.operands[1], Reg) and ins.operands[1].name == "SR_TID.X")


_QUADS = frozenset(("HMMA", "IMMA", "DMMA", "LDSM", "HGMMA"))
_PAIRS = frozenset(("DADD", "DMUL", "DFMA", "DMNMX"))


def _registers_written(ins) -> set[int]:
    """The R registers an instruction may write (more is safe: a register written elsewhere is
    not trusted): from its first R operand before any address, as wide as its modifiers say.
    Compares write predicates only."""
    if ins.opcode.endswith("SETP"):
        return set()
    for op in ins.operands:
        if isinstance(op, Mem):
            return set()
        if isinstance(op, Reg) and op.kind == "R":
            if op.index is None:
                return set()
            mods = set(ins.modifiers)
            width = 4 if "128" in mods or ins.opcode in _QUADS else 2 if (
                {"64", "WIDE", "F64"} & mods or ins.opcode in _PAIRS or (ins.opcode == "CS2R" and "32" not in mods)) else 1
            return set(range(op.index, op.index + width))
    return set()


def _predicates_written(ins) -> set[int]:
    """The predicates an instruction may write (more is safe: a predicate written twice is not
    used): the two destinations of a compare, every one for R2P, else those leading the operands
    or following the first destination (IADD3 R8, P1, ...: a carry out)."""
    ops = ins.operands
    if ins.opcode.endswith("SETP") or ins.opcode == "PLOP3":
        return {op.index for op in ops[:2] if isinstance(op, Reg) and op.kind == "P" and op.index is not None}
    if ins.opcode == "R2P":
        return set(range(7))
    out = set()
    for k, op in enumerate(ops):
        if not isinstance(op, Reg) or op.kind not in ("P", "R", "UR", "UP"):
            break
        if op.kind in ("R", "UR") and k > 0:
            break
        if op.kind == "P" and op.index is not None:
            out.add(op.index)
    return out


def _is_pt(op) -> bool:
    return isinstance(op, Reg) and op.kind == "P" and op.index is None


def _is_zero(op) -> bool:
    return (isinstance(op, Reg) and op.kind == "R" and op.index is None) or (
        isinstance(op, Imm) and not op.is_float and op.value == 0)
