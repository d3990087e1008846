"""The control-flow skeleton of a kernel's SASS: block leaders, the blocks reachable from the entry,
and the return sites of CALL.REL subroutines and CALL.ABS device functions (cass_cc/passes/callees.py puts
those after the kernel's code).

Subroutines (division and sqrt slow paths, non-inlined device functions) share the kernel's
.text section and its registers. Where it can, subroutines.py lifts each one once, as an LLVM
function over the registers it touches. Otherwise (recursion, calls through function pointers,
subroutines that EXIT or use barriers) the lifter keeps them in the kernel's one LLVM function:
each call site gets its own copy of the subroutine (a call context): CALL.REL branches into the copy,
RET.REL back to the one return site. One shared body entered from a loop and from outside it would
make the CFG irreducible, which the AMDGPU back end turns into divergent code that never leaves the
loop. Only recursive subroutines (or too many copies) keep one body whose RET.REL switches on the
return-address register over all return sites.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from cass_cc.sass.model import Instruction, Label, Reg

from .core import unsupported
from .opcodes import TERMINATORS, is_warp_branch


@dataclass
class Cfg:
    leaders: set[int] = field(default_factory=set)
    reachable: set[int] = field(default_factory=set)
    return_sites: list[int] = field(default_factory=list)
    brx_targets: dict[int, list[int]] = field(default_factory=dict)
    recursive: bool = False          # a subroutine calls itself, directly or not
    contexts: list[tuple[tuple[int, ...], int, int]] = field(default_factory=list)  # (call sites, start, end)

MAX_CONTEXT_INSTRUCTIONS = 20000     # beyond this many copied instructions, share subroutine bodies


def has_recursion(instructions: list[Instruction]) -> bool:
    """A cycle in the graph of CALL.REL targets: functions start at 0 and at every call target
    and extend to the next start."""
    calls = [(i.address, t) for i in instructions if is_subroutine_call(i) for t in call_targets(i)]
    starts = sorted({0} | {t for _a, t in calls})
    owner = lambda a: starts[max(bisect.bisect_right(starts, a) - 1, 0)]
    graph: dict[int, set[int]] = {}
    for at, target in calls:
        graph.setdefault(owner(at), set()).add(target)
    state: dict[int, int] = {}          # 1: on the DFS path, 2: done
    for root in starts:                 # iterative DFS: deep call chains need no Python recursion
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(graph.get(root, ())))]
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return True
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(graph.get(nxt, ()))))
    return False


def call_contexts(instructions: list[Instruction]) -> list[tuple[tuple[int, ...], int, int]]:
    """(call sites, first address, end address) of the kernel body and of one copy of a subroutine
    per chain of call sites; [] when the copies would hold too many instructions."""
    calls = [(i.address, t) for i in instructions if is_subroutine_call(i) for t in call_targets(i)]
    first, end = instructions[0].address, instructions[-1].address + 16
    starts = sorted({first} | {t for _a, t in calls})
    span = dict(zip(starts, zip(starts, starts[1:] + [end])))
    addresses = [i.address for i in instructions]
    size = {s: bisect.bisect_left(addresses, e) - bisect.bisect_left(addresses, s) for s, e in span.values()}
    calls.sort(key=lambda c: c[0])     # stable: a call's targets keep their order
    call_at = [at for at, _t in calls]
    out, work, total = [], [((), first)], 0
    while work:
        sites, start = work.pop()
        out.append((sites, *span[start]))
        total += size[start]
        if total > MAX_CONTEXT_INSTRUCTIONS:
            return []
        lo, hi = bisect.bisect_left(call_at, span[start][0]), bisect.bisect_left(call_at, span[start][1])
        work.extend((sites + (at,), target) for at, target in calls[lo:hi])
    return out


def is_subroutine_call(ins: Instruction) -> bool:
    """CALL.REL into a subroutine, or CALL.ABS into a device function of another section that the
    callees pass placed in the kernel's address space (its label resolved); nvcc also closes loops
    with `@!P0 CALL.REL.NOINC `(.L_x_1)`, a call to a block label of the same function that never
    returns: a branch. CALL.ABS through a register (vprintf) is no subroutine."""
    if ins.opcode != "CALL":
        return False
    if ins.extras.get("call_targets"):
        return True
    if "ABS" in ins.modifiers:
        return any(isinstance(op, Label) and op.address is not None for op in ins.operands)
    if "REL" not in ins.modifiers:
        return False
    return not any(isinstance(op, Label) and op.name.startswith(".L_") for op in ins.operands)


def call_targets(ins: Instruction) -> list[int]:
    """Where a subroutine call goes: its label, or, through a function pointer, any of the
    address-taken functions the callees pass listed."""
    pointed = ins.extras.get("call_targets")
    return [start for _handle, start in pointed] if pointed else [label_address(ins)]


def label_address(ins: Instruction, label: Label | None = None) -> int:
    """The address of `label`, or of the instruction's (first) label operand."""
    for op in [label] if label is not None else ins.operands:
        if isinstance(op, Label):
            if op.address is None:
                raise unsupported(ins, f"unresolved label {op.name}")
            return op.address
    raise unsupported(ins, "no branch target")


def is_unconditional(ins: Instruction) -> bool:
    """No guard (or @PT), no predicate operand other than PT, no warp-convergence condition."""
    if is_warp_branch(ins):
        return False
    def pt(r):
        return r is None or (r.kind in ("P", "UP") and (r.index is None or r.index == 7) and not r.invert)
    preds = [op for op in ins.operands if isinstance(op, Reg) and op.kind in ("P", "UP")]
    return pt(ins.guard) and all(pt(p) for p in preds)


def never_runs(ins: Instruction) -> bool:
    g = ins.guard
    return g is not None and g.kind in ("P", "UP") and (g.index is None or g.index == 7) and g.invert


def successors(ins: Instruction, cfg: Cfg) -> list[int]:
    """Targets of a block-ending instruction, fallthrough included when it is conditional."""
    op = ins.opcode
    nxt = ins.address + 16
    if never_runs(ins):
        return [nxt]
    cond = not is_unconditional(ins)
    if op == "BRA":
        targets = [label_address(ins)]
    elif op == "CALL":
        jumps = "REL" in ins.modifiers or is_subroutine_call(ins)
        targets = call_targets(ins) if jumps else [nxt]
        cond = cond and jumps
    elif op == "BRX":
        targets = cfg.brx_targets.get(ins.address)
        if not targets:
            raise unsupported(ins, "indirect branch without known targets")
    elif op == "RET":
        targets = list(cfg.return_sites)
    elif op == "EXIT":
        targets = []
    else:
        raise unsupported(ins)
    return targets + ([nxt] if cond else [])


def analyse(instructions: list[Instruction], indirect_branches: dict[int, list[int]]) -> Cfg:
    cfg = Cfg()
    cfg.brx_targets = {a: list(t) for a, t in indirect_branches.items()}
    for ins in instructions:
        if ins.opcode == "BRX" and ins.address not in cfg.brx_targets and ins.extras.get("branch_targets"):
            cfg.brx_targets[ins.address] = [label_address(ins, t) for t in ins.extras["branch_targets"]]
        if is_subroutine_call(ins):
            cfg.return_sites.append(ins.address + 16)
    if not instructions:
        return cfg
    cfg.recursive = has_recursion(instructions)
    if not cfg.recursive:
        cfg.contexts = call_contexts(instructions)
    ends = {}
    cfg.leaders.add(instructions[0].address)
    rets = set()                        # RETs go to every return site: the walk below adds them once
    for ins in instructions:
        if ins.opcode in TERMINATORS:
            if ins.opcode == "RET" and not never_runs(ins):
                rets.add(ins.address)   # its return sites follow CALLs: leaders already
                ends[ins.address] = [] if is_unconditional(ins) else [ins.address + 16]
            else:
                succ = successors(ins, cfg)
                ends[ins.address] = succ
                cfg.leaders.update(succ)
            cfg.leaders.add(ins.address + 16)
    addresses = [i.address for i in instructions]
    start_of = {}
    for a in addresses:
        if a in cfg.leaders:
            current = a
        start_of[a] = current
    block_end: dict[int, int] = {}
    for a in addresses:
        block_end[start_of[a]] = a
    work = [instructions[0].address]
    returned = False
    while work:
        lead = work.pop()
        if lead in cfg.reachable or lead not in block_end:
            continue
        cfg.reachable.add(lead)
        last = block_end[lead]
        succ = ends.get(last, [last + 16])
        if last in rets and not returned:
            returned = True
            succ = succ + cfg.return_sites
        work.extend(s for s in succ if s not in cfg.reachable)
    return cfg
