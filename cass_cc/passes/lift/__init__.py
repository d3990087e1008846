"""lift: SASS instruction objects -> an LLVM module for amdgcn-amd-amdhsa (one thread's semantics).

`run(unit)` fills `unit.llvm_ir` with an optimised module holding one `amdgpu_kernel` named like
the CUDA kernel, whose explicit arguments sit at CUDA's parameter offsets. Families of opcodes live
in their own modules and register their handlers in core.HANDLERS; an instruction or modifier no
family implements refuses the kernel (cass_cc.errors.Refusal) with the exact reason.
"""

from __future__ import annotations

import bisect
import contextlib
import gc
from dataclasses import replace

from llvmlite import ir

from cass_cc.errors import InternalError
from cass_cc.targets import target
from cass_cc.unit import KernelUnit

from . import atomics, barrier, bits, control, convert, double, float as float_, half, integer, memory, uniform, warp  # noqa: F401  (register handlers)
from . import surface, texture  # noqa: F401  (register TEX/TLD, SULD/SUST)
from . import device_runtime  # noqa: F401  (after control: it wraps CALL for malloc/free)
from . import mma  # noqa: F401  (registers HMMA/IMMA/LDSM: tensor cores)
from . import mbarrier  # noqa: F401  (after atomics: it takes ATOMS.ARRIVE, and registers ARRIVES)
from . import cas_loops, guards, launch, subroutines, warp_model
from .cfg import analyse, never_runs
from .core import HANDLERS, Lifter, unsupported
from .launch import declare_kernel, end_idle_lanes, facts_of, module_text
from .optimizer import TRIPLE, optimize, target_machine

NAME = "lift"


class KernelLifter(Lifter):
    """The Lifter of a kernel: its launch state (constant banks, special registers, device
    variables' addresses) is launch.py's."""

    def const_load(self, ref, ty: ir.Type) -> ir.Value:
        return launch.const_load(self, ref, ty)

    def special_register(self, reg) -> ir.Value:
        return launch.special_register(self, reg)

    def symbol_word(self, ref) -> ir.Value:
        return launch.symbol_word(self, ref)


@contextlib.contextmanager
def _no_cycle_collection():
    """Python's cycle collector paused: building a module makes hundreds of thousands of llvmlite
    objects that all stay alive until the text is printed, and each full collection walks every
    one of them, so collections grew with the kernel (a third of lift_module's time at 14k SASS
    instructions, docs/speed.md). The module is garbage only after it is printed anyway; the few
    cycles dropped while lifting wait for the first collection after this returns."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def lift_module(unit: KernelUnit) -> str:
    """The unoptimised module for one kernel, as LLVM IR text."""
    with _no_cycle_collection():
        return _lift_module(unit)


def _lift_module(unit: KernelUnit) -> str:
    facts = facts_of(unit)
    version = target(unit.offload_arch).code_object_version
    module = ir.Module(name=unit.name)
    module.triple = TRIPLE
    module.data_layout = str(target_machine(unit.offload_arch).target_data)
    module.add_named_metadata("llvm.module.flags", [ir.Constant(ir.IntType(32), 1),
                                                   "amdhsa_code_object_version",
                                                   ir.Constant(ir.IntType(32), 100 * version)])
    instructions = sorted(unit.instructions, key=lambda i: i.address)
    for ins in instructions:            # refuse before building anything
        if ins.opcode not in HANDLERS:
            raise unsupported(ins)
    warps = warp_model.for_target(unit.offload_arch)
    waits = warp_model.waits(warps, instructions)
    if waits:
        ins, why = waits[0].instruction, waits[0].why
        packs = warp_model.packs_one_dimensional(instructions, waits)
        if facts.launch_bounds and facts.flat_workgroup_size > warp_model.WAVE_PER_WARP_THREADS and not packs:
            raise unsupported(ins, f"{why}: on wave64 such a kernel runs one warp per wave, so blocks of at "
                                   f"most {warp_model.WAVE_PER_WARP_THREADS} threads, and its launch bounds "
                                   f"allow {facts.flat_workgroup_size}")
        warps = replace(warps, wave_per_warp=True, packs=packs)
    fn = declare_kernel(module, facts, warps)
    ctx = KernelLifter(module, fn, unit.sm_arch)
    ctx.state["facts"] = facts
    ctx.state[warp_model.STATE_KEY] = warps
    cfg = analyse(instructions, facts.indirect_branches)
    ctx.state["cfg"] = cfg
    ctx.state["instructions"] = instructions
    addresses = [i.address for i in instructions]
    retry_loops = cas_loops.find(instructions)

    def lift_span(ctx: Lifter, start: int, end: int) -> None:
        live = False
        span = instructions[bisect.bisect_left(addresses, start):bisect.bisect_left(addresses, end)]
        i = 0
        while i < len(span):
            ins = span[i]
            if ins.address in cfg.leaders:
                live = ins.address in cfg.reachable
                if live:
                    block = ctx.block_at(ins.address)
                    if not ctx.b.block.is_terminated:
                        ctx.b.branch(block)
                    ctx.b.position_at_end(block)
                    loop = retry_loops.get(ins.address)
                    if loop is not None:
                        if cas_loops.lower(ctx, loop):      # its test may fail: the literal loop follows
                            lift_instruction(ctx, ins)
                            i += 1
                        else:
                            i += len(loop.body)
                        continue
            if not live or ctx.b.block.is_terminated:
                i += 1
                continue
            n = guards.run_length(span, i, cfg.leaders)
            if n:
                lift_guarded_run(ctx, span[i:i + n])
                i += n
            else:
                lift_instruction(ctx, ins)
                i += 1
        if not ctx.b.block.is_terminated:
            ctx.b.unreachable()         # fell off the end of the code: nvcc never does

    first, end = instructions[0].address, instructions[-1].address + 16
    functions = subroutines.plan(instructions, cfg)
    if functions is not None:
        ctx.state[subroutines.TABLE_KEY] = functions
        for sub in functions.values():
            subroutines.lift_function(ctx, sub, lift_span)
        contexts = [((), first, min(functions))]
    else:
        contexts = cfg.contexts or [((), first, end)]
    if warps.wave_per_warp:
        end_idle_lanes(ctx)
    for context, start, stop in contexts:
        ctx.context = context
        lift_span(ctx, start, stop)
    for (_context, address), block in ctx.blocks.items():
        if not block.is_terminated:     # the CFG analysis and the lifted branches disagree
            raise InternalError("lift", unit.demangled or unit.name,
                                f"a branch to 0x{address:x}, which was not lifted (the CFG analysis missed it)")
    if functions is not None:
        subroutines.trim_interfaces(fn, ctx.regs, functions)
    return module_text(module, facts, warps.wave_per_warp)


def lift_guarded_run(ctx: Lifter, run: list) -> None:
    """Instructions under one guard (guards.py) in one conditional block, each unguarded in it."""
    ctx.ins = run[0]
    then, after = ctx.new_block("then"), ctx.new_block("endif")
    ctx.b.cbranch(ctx.pred(run[0].guard), then, after)
    ctx.b.position_at_end(then)
    for k, ins in enumerate(run):
        if ctx.b.block.is_terminated:   # a trap: the rest is lifted after the block, each guarded
            ctx.b.position_at_end(after)
            for rest in run[k:]:
                lift_instruction(ctx, rest)
            return
        lift_instruction(ctx, ins, guarded=False)
    if not ctx.b.block.is_terminated:
        ctx.b.branch(after)
    ctx.b.position_at_end(after)


def lift_instruction(ctx: Lifter, ins, guarded: bool = True) -> None:
    """One instruction; guarded=False where the caller has already branched on its guard."""
    handler, kind = HANDLERS[ins.opcode]
    handler = subroutines.handler(ctx, ins) or handler
    ctx.ins = ins
    if never_runs(ins):
        return
    guard = None if not guarded or ins.guard is None or ctx.is_pt(ins.guard) else ctx.pred(ins.guard)
    if kind == "control":
        ctx.guard_value = guard
        handler(ctx, ins)
        ctx.guard_value = None
    elif guard is None:
        handler(ctx, ins)
    elif kind == "pure":
        ctx.guard = guard
        try:
            handler(ctx, ins)
        finally:
            ctx.guard = None
    else:
        then, after = ctx.new_block("then"), ctx.new_block("endif")
        ctx.b.cbranch(guard, then, after)
        ctx.b.position_at_end(then)
        handler(ctx, ins)
        if not ctx.b.block.is_terminated:
            ctx.b.branch(after)
        ctx.b.position_at_end(after)


def run(unit: KernelUnit) -> KernelUnit:
    unit.sass_instructions = unit.sass_instructions or len(unit.instructions)
    unit.llvm_ir = optimize(lift_module(unit), unit.offload_arch)
    return unit
