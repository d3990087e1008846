"""Wrong lowerings injected into the lifter, in this process, so a test can build a program whose
translation is wrong in a known way and show that `cass-run --check` catches it.

Each injection wraps the lifter's registered handler for an opcode (passes.lift.core.HANDLERS)
and gives the translation cache a different translator version, so the wrong code is neither
served from nor stored under the real translator's entries."""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Callable, Iterator

from llvmlite import ir

import cass_cc.cache
from cass_cc.passes.lift import core
from cass_cc.sass.model import Imm

SEGMENT_BITS = 0x1F00  # SHFL's c operand: segment mask in bits 12:8, clamp in bits 4:0


def _drop_segment_mask(original: Callable) -> Callable:
    """The cooperative-groups tile bug: SHFL's segment mask ignored, so a width-16 shfl_down
    reads past its tile (the clamp alone bounds it, as if the width were 32)."""

    def shfl(ctx, ins):
        ops = list(ins.operands)
        c = ops[4]
        if isinstance(c, Imm) and int(c.value) & SEGMENT_BITS:
            ops[4] = dataclasses.replace(c, value=int(c.value) & ~SEGMENT_BITS, text=hex(int(c.value) & ~SEGMENT_BITS))
        return original(ctx, dataclasses.replace(ins, operands=tuple(ops)))
    return shfl


def _max_off_by_one(original: Callable) -> Callable:
    """An integer off-by-one: IMNMX's result one too large."""

    def imnmx(ctx, ins):
        result = original(ctx, ins)
        d = ins.operands[0]
        ctx.set32(d, ctx.b.add(ctx.u32(d), ir.Constant(ir.IntType(32), 1)))
        return result
    return imnmx


def _integer_reduction_off_by_one(original: Callable) -> Callable:
    """An atomic off-by-one: RED.ADD on integers adds one more than its operand (a write that
    only an atomic makes, to a __device__ variable in the test program)."""

    def red(ctx, ins):
        if "ADD" in ins.modifiers and not any(m.startswith("F") for m in ins.modifiers):
            value = ins.operands[1]
            ctx.set32(value, ctx.b.add(ctx.u32(value), ir.Constant(ir.IntType(32), 1)))
        return original(ctx, ins)
    return red


BUGS = {"SHFL": _drop_segment_mask, "IMNMX": _max_off_by_one, "RED": _integer_reduction_off_by_one}


@contextlib.contextmanager
def wrong_lowerings(*opcodes: str) -> Iterator[None]:
    saved = {op: core.HANDLERS[op] for op in opcodes}
    version = cass_cc.cache.translator_version
    for op in opcodes:
        fn, kind = saved[op]
        core.HANDLERS[op] = (BUGS[op](fn), kind)
    cass_cc.cache.translator_version = lambda: f"{version()}+injected-{'-'.join(opcodes)}"
    try:
        yield
    finally:
        core.HANDLERS.update(saved)
        cass_cc.cache.translator_version = version
