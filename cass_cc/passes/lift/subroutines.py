"""Subroutines (CALL.REL slow paths of division and sqrt, CALL.ABS device functions that the
callees pass placed after the kernel) lifted once each, as internal LLVM functions.

A subroutine shares the kernel's register file. Its function takes the frame (the private stack
that R1 indexes) and the value of every register its body touches, and returns the registers its
body writes; each call site passes its registers in and stores the results back. LLVM's inliner
then decides per call site, as it does for any function.

Why not the copies cfg.py makes (one inline copy of the body per call site): generated code calls
the division slow path hundreds of times, and copies make the lifted code grow with call sites
times body size; past cfg.MAX_CONTEXT_INSTRUCTIONS the lifter had to share one body whose RET
switches over every return site, and every register live across any call then flows through
that body: thousands of phis that LLVM's code generator takes minutes on (issue 13, item 5).
Kernels this module cannot serve (recursion, calls through function pointers, subroutines that
EXIT, use barriers or branch out of their own code) keep cfg.py's scheme.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from llvmlite import ir

from . import slot_liveness
from .cfg import Cfg, is_subroutine_call, label_address
from .core import PRIVATE, VOID, Lifter, Reg
from .opcodes import KERNEL_ONLY     # a subroutine holding one keeps the inline copies
from .slot_liveness import Key
# Call sites times body instructions past which a subroutine stays a call (noinline): inlining it
# everywhere would multiply the code LLVM optimises and compiles (the division slow path, ~120
# instructions, is called at every division of generated code, and runs only for operands that
# the fast path cannot divide).
INLINE_BUDGET = 20000
RETURN_KEY = "subroutine_return"    # ctx.state: the block a RET of the function being lifted goes to
TABLE_KEY = "subroutines"           # ctx.state: {start address: Subroutine}


@dataclass
class CallSite:
    call: ir.instructions.CallInstr
    loads: dict[Key, ir.instructions.LoadInstr]                 # the arguments, one per param
    stores: dict[Key, tuple[ir.Instruction, ir.Instruction]]    # result -> (extractvalue, store)
    slots: dict[Key, ir.Value]                                  # the caller's slot of each result


@dataclass
class Subroutine:
    start: int
    end: int
    size: int = 0                   # instructions of its own code
    calls: int = 0                  # call sites (in the kernel and in other subroutines)
    fn: ir.Function | None = None
    params: list[tuple[str, int]] = field(default_factory=list)     # register slots passed in
    results: list[tuple[str, int]] = field(default_factory=list)    # register slots returned
    slots: dict[int, Key] = field(default_factory=dict)     # id(its own alloca) -> register
    inits: dict[Key, ir.Instruction] = field(default_factory=dict)  # each slot's store of its param
    done: ir.Block | None = None                            # the return block
    sites: list[CallSite] = field(default_factory=list)


def plan(instructions: list, cfg: Cfg) -> dict[int, Subroutine] | None:
    """The subroutines of a kernel as functions, callees before their callers (dict order); None
    when the kernel has no subroutine or must keep cfg.py's copies."""
    if cfg.recursive or not instructions:
        return None
    calls = [i for i in instructions if is_subroutine_call(i)]
    if not calls or any(i.extras.get("call_targets") for i in calls):
        return None
    first, end = instructions[0].address, instructions[-1].address + 16
    targets = {label_address(i) for i in calls}
    if first in targets:
        return None
    starts = sorted(targets | {first})
    ends = starts[1:] + [end]

    def owner(address: int) -> int:
        return starts[bisect.bisect_right(starts, address) - 1]

    graph: dict[int, list[int]] = {s: [] for s in starts}
    sizes = dict.fromkeys(starts, 0)
    for ins in instructions:
        home = owner(ins.address)
        sizes[home] += 1
        if home != first and ins.opcode in KERNEL_ONLY:
            return None
        if ins.opcode == "RET" and home == first:
            return None
        if ins.opcode == "CALL" and is_subroutine_call(ins):
            graph[home].append(label_address(ins))
            continue
        if ins.opcode == "BRA" or (ins.opcode == "CALL" and "REL" in ins.modifiers):
            jumps = [label_address(ins)]
        elif ins.opcode == "BRX":
            jumps = cfg.brx_targets.get(ins.address, [])
        else:
            continue
        if any(not first <= t < end or owner(t) != home for t in jumps):
            return None
    order: list[int] = []
    seen: set[int] = set()
    for root in starts:                 # post-order, iteratively: callees first
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(graph[root]))]
        while stack:
            node, it = stack[-1]
            nxt = next((t for t in it if t not in seen), None)
            if nxt is None:
                stack.pop()
                order.append(node)
            else:
                seen.add(nxt)
                stack.append((nxt, iter(graph[nxt])))
    span = dict(zip(starts, ends))
    out = {s: Subroutine(s, span[s], sizes[s]) for s in order if s != first}
    for callees in graph.values():
        for t in callees:
            out[t].calls += 1
    return out


def lift_function(ctx: Lifter, sub: Subroutine, lift_span) -> None:
    """Lift the subroutine's code into its own function; `lift_span(ctx, start, end)` lifts code."""
    fn = ir.Function(ctx.module, ir.FunctionType(VOID, []), name=f"__cass_subroutine_{sub.start:x}")
    fn.linkage = "internal"
    sub.fn = fn
    # warp votes, shuffles and barriers inside: LLVM must not move a call of it across control
    # flow (that changes which lanes take part), as for the convergent intrinsics themselves
    fn.attributes.add("convergent")
    if sub.calls * sub.size > INLINE_BUDGET:
        fn.attributes.add("noinline")
    saved = ctx.enter_function(fn)
    try:
        frame = ir.Argument(fn, PRIVATE, name="frame")
        ctx.state["frame"] = frame
        done = fn.append_basic_block("return")
        ctx.state[RETURN_KEY] = done
        ctx.b.position_at_end(ctx.entry)
        ctx.b.branch(ctx.block_at(sub.start))
        lift_span(ctx, sub.start, sub.end)
        keys = sorted(ctx.regs)
        slot_key = {id(ctx.regs[k]): k for k in keys}
        written = set()
        for block in fn.blocks:
            for ins in block.instructions:
                if isinstance(ins, ir.instructions.StoreInstr) and id(ins.operands[1]) in slot_key:
                    key = slot_key[id(ins.operands[1])]
                    if ins is not ctx.slot_inits[key]:
                        written.add(key)
        sub.params = keys
        sub.results = [k for k in keys if k in written]
        types = [ctx.regs[k].allocated_type for k in keys]
        ret = ir.LiteralStructType([ctx.regs[k].allocated_type for k in sub.results]) if sub.results else VOID
        fn.ftype = ir.FunctionType(ret, [PRIVATE, *types])
        fn.type = fn.ftype.as_pointer()     # llvmlite reads call signatures from here
        args = [ir.Argument(fn, t, name=f"{k[0]}{k[1]}.in") for k, t in zip(keys, types)]
        fn.args = (frame, *args)
        fn.return_value = ir.values.ReturnValue(fn, ret)
        for k, a in zip(keys, args):    # the registers start as the caller's
            ctx.slot_inits[k].operands[0] = a
        sub.slots = {id(ctx.regs[k]): k for k in keys}
        sub.inits = {k: ctx.slot_inits[k] for k in keys}
        sub.done = done
        _build_return(sub, ctx.regs)
        if not ctx.b.block.is_terminated:
            ctx.b.unreachable()
        for address, block in ctx.blocks.items():
            if not block.is_terminated:
                raise ctx.refuse(f"internal: branch to 0x{address[1]:x} of subroutine 0x{sub.start:x}, which was not lifted")
    finally:
        ctx.leave_function(saved)


def _condition(ctx: Lifter, ins) -> ir.Value | None:
    """The guard AND the instruction's predicate operands; None when unconditional."""
    cond = ctx.guard_value
    for op in ins.operands:
        if isinstance(op, Reg) and op.kind in ("P", "UP") and not ctx.is_pt(op):
            p = ctx.pred(op)
            cond = p if cond is None else ctx.b.and_(cond, p)
    return cond


def call(ctx: Lifter, ins) -> None:
    """CALL into a subroutine: its function over the caller's registers, then the return site."""
    from .launch import frame
    ctx.check(ins, {"REL", "ABS", "NOINC"})
    sub = ctx.state[TABLE_KEY][label_address(ins)]
    b = ctx.b
    after = ctx.block_at(ins.address + 16)
    cond = _condition(ctx, ins)
    if cond is not None:
        go = ctx.new_block("call")
        b.cbranch(cond, go, after)
        b.position_at_end(go)
    loads = {}
    for k in sub.params:
        slot = ctx.slot(*k)
        loads[k] = b.load(slot, typ=slot.allocated_type)
    result = b.call(sub.fn, [frame(ctx), *loads.values()])
    stores, slots = {}, {}
    for n, k in enumerate(sub.results):
        slots[k] = ctx.slot(*k)
        value = b.extract_value(result, n)
        stores[k] = (value, b.store(value, slots[k]))
    sub.sites.append(CallSite(result, loads, stores, slots))
    b.branch(after)


def ret(ctx: Lifter, ins) -> None:
    """RET of a subroutine lifted as a function: to its return block (the return address does not
    matter: a function returns to its caller)."""
    ctx.check(ins, {"REL", "ABS", "NODEC"})
    cond = _condition(ctx, ins)
    if cond is None:
        ctx.b.branch(ctx.state[RETURN_KEY])
    else:
        ctx.b.cbranch(cond, ctx.state[RETURN_KEY], ctx.block_at(ins.address + 16))


def handler(ctx: Lifter, ins):
    """This module's handler for a CALL or RET when the kernel's subroutines are functions."""
    if TABLE_KEY not in ctx.state:
        return None
    if ins.opcode == "CALL" and is_subroutine_call(ins):
        return call
    if ins.opcode == "RET" and RETURN_KEY in ctx.state:
        return ret
    return None


def _build_return(sub: Subroutine, regs: dict[Key, ir.Value]) -> None:
    """The return block: the result registers as one struct (or void)."""
    sub.done.instructions.clear()
    sub.done.terminator = None
    b = ir.IRBuilder(sub.done)
    if not sub.results:
        b.ret_void()
        return
    ret = sub.fn.ftype.return_type
    value = ir.Constant(ret, ir.Undefined)
    for n, k in enumerate(sub.results):
        value = b.insert_value(value, b.load(regs[k], typ=regs[k].allocated_type), n)
    b.ret(value)


def trim_interfaces(kernel: ir.Function, kernel_regs: dict[Key, ir.Value],
                    functions: dict[int, Subroutine]) -> None:
    """Pass each subroutine only the registers it reads before writing them, and return only the
    results some caller reads afterwards (register liveness over the lifted kernel and its
    subroutines, to a fixed point: a callee's needs make its callers' registers live). Every
    register the body touches was passed and returned so far; ptxas's slow paths clobber scratch
    registers and predicates that no caller reads again."""
    by_fn = {id(s.fn): s for s in functions.values()}
    site_of = {id(site.call): site for s in functions.values() for site in s.sites}
    skip = {id(i) for s in functions.values() for site in s.sites
            for i in (*site.loads.values(), *(x for pair in site.stores.values() for x in pair))}
    for s in functions.values():
        skip |= {id(i) for i in s.done.instructions}
    kernel_slots = {id(v): k for k, v in kernel_regs.items()}
    bodies = [(kernel, kernel_slots, None)] + [(s.fn, s.slots, s) for s in functions.values()]
    fixed = set()                           # registers whose slots escape: always passed
    for fn, slots, s in bodies:
        fixed |= slot_liveness.escaped(fn, slots)
    params = {id(s.fn): set(s.params) & fixed for s in functions.values()}
    results = {id(s.fn): set(s.results) & fixed for s in functions.values()}
    for s in functions.values():            # a slot init stores the param: not a definition here
        skip |= {id(i) for i in s.inits.values()}

    def at_call(call: ir.instructions.CallInstr, live: set[Key]) -> set[Key]:
        callee = by_fn.get(id(call.callee))
        if callee is None or id(call) not in site_of:
            return live
        return (live - set(callee.results)) | params[id(callee.fn)]

    flows = [(slot_liveness.SlotFlow(fn, slots, skip), fn, s) for fn, slots, s in bodies]
    while True:
        new_params = {k: set(v) for k, v in params.items()}
        new_results = {k: set(v) for k, v in results.items()}
        for flow, fn, s in flows:
            exit_uses = {id(s.done): results[id(fn)]} if s is not None else {}
            liveness = flow.solve(at_call, exit_uses)
            if s is not None:
                new_params[id(fn)] |= liveness.entry & set(s.params)
            for call_id, live in liveness.after_call.items():
                site = site_of.get(call_id)
                if site is not None:
                    new_results[id(site.call.callee)] |= live & set(site.stores)
        if new_params == params and new_results == results:
            break
        params, results = new_params, new_results
    for s in functions.values():
        _narrow(s, params[id(s.fn)], results[id(s.fn)])


def _narrow(sub: Subroutine, keep_params: set[Key], keep_results: set[Key]) -> None:
    """Rebuild the function's signature, its return block and its call sites for the registers
    that are kept; dropped params start as undef, dropped results keep the caller's value (dead
    there by construction)."""
    fn = sub.fn
    regs = {k: init.operands[1] for k, init in sub.inits.items()}
    args = dict(zip(sub.params, fn.args[1:]))
    for k in sub.params:
        if k not in keep_params:
            sub.inits[k].operands[0] = ir.Constant(regs[k].allocated_type, ir.Undefined)
    sub.params = [k for k in sub.params if k in keep_params]
    sub.results = [k for k in sub.results if k in keep_results]
    ret = ir.LiteralStructType([regs[k].allocated_type for k in sub.results]) if sub.results else VOID
    fn.ftype = ir.FunctionType(ret, [PRIVATE, *(regs[k].allocated_type for k in sub.params)])
    fn.type = fn.ftype.as_pointer()
    fn.args = (fn.args[0], *(args[k] for k in sub.params))
    fn.return_value = ir.values.ReturnValue(fn, ret)
    _build_return(sub, regs)
    for site in sub.sites:
        block = site.call.parent
        b = ir.IRBuilder(block)
        b.position_before(site.call)
        call = b.call(fn, [site.call.args[0], *(site.loads[k] for k in sub.params)])
        for k in sub.results:
            b.store(b.extract_value(call, sub.results.index(k)), site.slots[k])
        gone = {id(site.call)} | {id(x) for pair in site.stores.values() for x in pair} | \
               {id(load) for k, load in site.loads.items() if k not in keep_params}
        block.instructions[:] = [i for i in block.instructions if id(i) not in gone]
