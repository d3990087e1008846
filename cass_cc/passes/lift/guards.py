"""Runs of instructions under one predicate guard: ptxas predicates the body of a short `if`
instead of branching around it (`@!P1 LDS`, `@!P1 LDS`, `@!P1 IADD3`, `@!P1 STS`). Lifted one by
one, each memory access or warp operation became its own conditional block and each arithmetic
instruction a select, and LLVM does not merge the conditions again: the lifted sum reduction of
a shared array ran both loads and the add in every wave, where hipcc's build of the same source
branches once around them. A run is lifted as one conditional block instead, its instructions
unguarded inside it: the same lanes do the same work, since nothing in the run changes the guard.
"""

from __future__ import annotations

from cass_cc.sass.model import Instruction, Reg

from .cfg import never_runs
from .core import HANDLERS


def guard_key(ins: Instruction) -> tuple | None:
    """The guard's identity (kind, index, negation), None for an unguarded instruction."""
    g = ins.guard
    if g is None or (g.index is None or g.index == 7) and g.kind in ("P", "UP"):
        return None     # PT is no guard, !PT never runs (the caller skips those)
    return (g.kind, g.index, g.invert)


def _writes_guard(ins: Instruction, key: tuple) -> bool:
    """Whether ins may change the guard's predicate: any operand naming it, or all predicates
    (P2R/R2P's PR), counts, reads included (cheap to be safe)."""
    kind, index, _ = key
    return any(isinstance(op, Reg) and (op.kind in ("PR", "UPR") or (op.kind == kind and op.index == index))
               for op in ins.operands)


def run_length(instructions: list[Instruction], start: int, leaders: set[int]) -> int:
    """How many instructions from `start` form one guarded run worth a conditional block of its
    own: 0 unless there are at least two and one of them is not pure (pure ones alone stay
    selects, cheaper than a branch)."""
    key = guard_key(instructions[start])
    if key is None:
        return 0
    end, effects = start, False
    while end < len(instructions):
        ins = instructions[end]
        kind = HANDLERS[ins.opcode][1]
        if kind == "control" or never_runs(ins) or guard_key(ins) != key or (end > start and ins.address in leaders):
            break
        effects |= kind != "pure"
        end += 1
        if _writes_guard(ins, key):
            break
    n = end - start
    return n if n >= 2 and effects else 0
