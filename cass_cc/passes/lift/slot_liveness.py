"""Which register slots are live where, in one lifted function (before mem2reg).

Lifted code keeps each SASS register in an alloca (core.Lifter.slot) that only loads and stores
touch, so liveness is the textbook backward data flow over the function's blocks, with loads as
uses and stores as definitions. subroutines.py asks it which registers a subroutine really needs
from its callers and which of its results any caller reads: a kernel that calls the division slow
path at every division otherwise carries every register the body touches, P1 and P2 included,
through a chain of phis from call to call, which LLVM's SGPR-copy fixing takes quadratic time on
(issue 13, item 5).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from llvmlite import ir

Key = tuple[str, int]
# At a call: (live after it) -> live before it; the caller decides what the callee reads and writes.
CallTransfer = Callable[[ir.instructions.CallInstr, set[Key]], set[Key]]


def successors(block: ir.Block) -> list[ir.Block]:
    term = block.terminator
    if isinstance(term, ir.instructions.SwitchInstr):
        return [term.default, *(b for _, b in term.cases)]
    if isinstance(term, ir.instructions.IndirectBranch):
        return list(term.destinations)
    return [op for op in (term.operands if term is not None else ()) if isinstance(op, ir.Block)]


def escaped(fn: ir.Function, slots: dict[int, Key]) -> set[Key]:
    """Slots used other than as the address of a load or a store: their liveness is unknown."""
    out: set[Key] = set()
    for block in fn.blocks:
        for ins in block.instructions:
            for n, op in enumerate(ins.operands):
                key = slots.get(id(op))
                if key is None:
                    continue
                address = (isinstance(ins, ir.instructions.LoadInstr) and n == 0) or \
                          (isinstance(ins, ir.instructions.StoreInstr) and n == 1)
                if not address:
                    out.add(key)
    return out


@dataclass
class Liveness:
    entry: set[Key]                         # live on entry to the function
    after_call: dict[int, set[Key]]         # id(call) -> live right after it (and its result stores)


USE, DEF, CALL = 0, 1, 2


class SlotFlow:
    """One function's blocks reduced to what liveness needs (uses, definitions and calls, in
    order), built once and solved as often as the callers' facts change."""

    def __init__(self, fn: ir.Function, slots: dict[int, Key], skip: set[int]):
        """`slots` maps id(alloca) to its register; instructions in `skip` (ids) are left out (a
        call site's argument loads and result stores, which the call's transfer accounts for)."""
        self.blocks = list(fn.blocks)
        self.preds: dict[int, list[int]] = {id(b): [] for b in self.blocks}
        for b in self.blocks:
            for s in successors(b):
                self.preds[id(s)].append(id(b))
        self.events: dict[int, list[tuple[int, object]]] = {}
        for block in self.blocks:
            events = []
            for ins in reversed(block.instructions):
                if id(ins) in skip:
                    continue
                if isinstance(ins, ir.instructions.StoreInstr):
                    key = slots.get(id(ins.operands[1]))
                    if key is not None:
                        events.append((DEF, key))
                elif isinstance(ins, ir.instructions.LoadInstr):
                    key = slots.get(id(ins.operands[0]))
                    if key is not None:
                        events.append((USE, key))
                elif isinstance(ins, ir.instructions.CallInstr):
                    events.append((CALL, ins))
            self.events[id(block)] = events      # last instruction first

    def solve(self, at_call: CallTransfer, exit_uses: dict[int, set[Key]]) -> Liveness:
        """Liveness, given what each call reads and writes (`at_call`) and the slots a block reads
        on leaving the function (`exit_uses` by id(block): a subroutine's return block reads the
        results some caller needs)."""
        def transfer(block_id: int, live: set[Key], seen_calls: dict[int, set[Key]] | None) -> set[Key]:
            live = set(live) | exit_uses.get(block_id, set())
            for kind, what in self.events[block_id]:
                if kind == USE:
                    live.add(what)
                elif kind == DEF:
                    live.discard(what)
                else:
                    if seen_calls is not None:
                        seen_calls[id(what)] = set(live)
                    live = at_call(what, live)
            return live

        ids = [id(b) for b in self.blocks]
        live_out: dict[int, set[Key]] = {b: set() for b in ids}
        live_in: dict[int, set[Key]] = {}
        work = list(ids)                        # popped from the end: the last block first
        queued = set(ids)
        while work:
            block = work.pop()
            queued.discard(block)
            new = transfer(block, live_out[block], None)
            if live_in.get(block) == new:
                continue
            live_in[block] = new
            for p in self.preds[block]:
                if not new <= live_out[p]:
                    live_out[p] |= new
                    if p not in queued:
                        queued.add(p)
                        work.append(p)
        after_call: dict[int, set[Key]] = {}
        for block in ids:
            if any(kind == CALL for kind, _ in self.events[block]):
                transfer(block, live_out[block], after_call)
        return Liveness(live_in.get(ids[0], set()) if ids else set(), after_call)
