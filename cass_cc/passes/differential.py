"""differential: the check that makes a model's answer trusted (a DIFFERENTIAL_CHECKS entry of
verify, for units of tier `model`).

The candidate code object and a reference code object of the same kernel (the lifter's) run on
the emulator with the same deterministic pseudo-random inputs; every pointer parameter's buffer,
the device variables and the printf output must come out byte for byte the same. Anything that
cannot be checked is refused: no reference, inputs the reference itself faults on, a candidate
that faults or runs far longer than the reference.

Inputs, kept simple and conservative: an 8-byte parameter is taken as a pointer and backed by a
buffer (a 64-bit scalar given an address as its value is still the same input on both sides); a
4-byte parameter that a float instruction reads straight from the constant bank is a random float
in [-2, 2), any other one a small integer (sizes and indices must stay inside the buffers); other
sizes get random bytes. Three input sets, each with its own scalars: buffers of random floats in
[-2, 2) (sums of random bytes are all Inf and NaN, and hide a dropped term), of random small
integers (indices read from memory stay in bounds) and of random bytes; the candidate must match
on every set the reference runs cleanly (and within REFERENCE_BUDGET) on, and on at least one. The launch: the kernel's
required block size, else 64 threads, or 8x8 when the SASS reads threadIdx.y; two blocks, 2x2 when
it reads blockIdx.y; 32 KiB of dynamic shared memory for `extern __shared__` arrays."""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import struct
from dataclasses import dataclass

import numpy as np

from cass_cc.errors import FailedCheck
from cass_cc.rdna3.code_object import CodeObject as CodeObjectInfo
from cass_cc.unit import KernelUnit

from . import verify

NAME = "differential"
BUFFER_BYTES = 1 << 20        # per pointer parameter: room for 128 threads at any ordinary stride
SLACK = 4096                  # the pointer sits this far into its buffer: small negative offsets stay inside
GRID = (2, 1, 1)
DEFAULT_BLOCK = 64
FLOAT_READERS = frozenset({"FADD", "FMUL", "FFMA", "FSETP", "FMNMX", "FSEL", "FSET", "FCHK", "FRND", "F2I", "F2F"})
BUDGET_FACTOR = 20            # the candidate may run this many times the reference's instructions
MIN_BUDGET = 20_000
DYNAMIC_LDS = 32 * 1024
LDS_LIMIT = 64 * 1024
FILLS = ("random floats", "random small integers", "random bytes")
REFERENCE_BUDGET = 2_000_000  # wave-instructions: the emulator runs a few thousand a second


@dataclass
class Inputs:
    kernarg: bytes
    buffers: list[tuple[int, int]]          # (parameter index, offset in kernarg) of each buffer
    contents: bytes                         # the initial bytes of every buffer (the same for all)
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    dynamic_lds: int
    fill: str


@dataclass
class Outcome:
    buffers: list[bytes]
    variables: dict[str, bytes]
    printed: str
    wave_instructions: int


def check(unit: KernelUnit, info: CodeObjectInfo) -> None:
    """FailedCheck unless the model's code object computes what the reference computes."""
    if unit.tier != "model":
        return
    reference = reference_code_object(unit)
    from cass_cc.emu import EmuFault
    checked, faults = 0, []
    for fill in FILLS:
        inputs = make_inputs(unit, fill)
        try:
            expected = execute(reference, unit.name, inputs, REFERENCE_BUDGET)
        except EmuFault as fault:
            faults.append(f"{fill}: {fault}")
            continue
        compare(unit, inputs, expected)
        checked += 1
    if not checked:
        raise FailedCheck(f"model output unchecked: the reference faults on every test input ({faults[0]})")


def compare(unit: KernelUnit, inputs: Inputs, expected: Outcome) -> None:
    """FailedCheck unless the candidate, run on `inputs`, leaves what the reference left."""
    from cass_cc.emu import EmuFault
    budget = max(BUDGET_FACTOR * expected.wave_instructions, MIN_BUDGET)
    try:
        got = execute(unit.code_object, unit.name, inputs, budget)
    except EmuFault as fault:  # an emulator failure of any other kind is a bug: the pipeline says so
        raise FailedCheck(f"model output faults on the emulator: {fault}") from None
    difference = first_difference(expected, got, inputs)
    if difference:
        raise FailedCheck(f"model output differs from the reference: {difference}")


def reference_code_object(unit: KernelUnit) -> bytes:
    """The lifter's code object of the same kernel (lift, codegen, assemble, link)."""
    from cass_cc.pipeline import run_pipeline

    from . import assemble, codegen, lift, link
    trial = KernelUnit(name=unit.name, sm_arch=unit.sm_arch, offload_arch=unit.offload_arch,
                       demangled=unit.demangled, kernel=unit.kernel, sass_text=unit.sass_text,
                       sass_compact=unit.sass_compact, sass_labels=dict(unit.sass_labels),
                       instructions=list(unit.instructions), tier="lift")
    run_pipeline(trial, [lift, codegen, assemble, link])
    if trial.status != "ok" or not trial.code_object:
        raise FailedCheck(f"model output unchecked: no reference ({'; '.join(trial.reasons) or 'the lifter gave none'})")
    return trial.code_object


def _float_params(unit: KernelUnit) -> set[int]:
    """Offsets (relative to the parameter base) that a float instruction reads from c[0x0]."""
    base = getattr(unit.kernel, "param_base", 0)
    found = set()
    for ins in unit.instructions:
        if ins.opcode in FLOAT_READERS:
            for op in ins.operands:
                if type(op).__name__ == "ConstRef" and op.bank == 0 and op.reg is None:
                    found.add(op.offset - base)
    return found


def make_inputs(unit: KernelUnit, fill: str = FILLS[0]) -> Inputs:
    kernel = unit.kernel
    digest = hashlib.sha256(f"{unit.name}/{unit.sm_arch}/{fill}".encode()).digest()
    rng = np.random.default_rng(int.from_bytes(digest[:8], "little"))
    reads = {op.name for ins in unit.instructions if ins.opcode in ("S2R", "S2UR", "CS2R")
             for op in ins.operands if type(op).__name__ == "Reg" and op.kind == "SR"}
    if getattr(kernel, "reqntid", None):
        block = (tuple(kernel.reqntid) + (1, 1, 1))[:3]
    elif "SR_TID.Y" in reads and _default_block(kernel) >= 64:
        block = (8, 8, 1)
    else:
        block = (_default_block(kernel), 1, 1)
    grid = (2, 2, 1) if "SR_CTAID.Y" in reads else GRID
    threads = math.prod(grid) * math.prod(block)
    params = sorted((tuple(p)[:3] for p in getattr(kernel, "params", [])), key=lambda p: p[1])
    floats = _float_params(unit)
    kernarg = bytearray(max((o + s for _i, o, s in params), default=0))
    buffers = []
    for index, offset, size in params:
        if size == 8:
            buffers.append((index, offset))      # the address is filled in per run
        elif size == 4 and offset in floats:
            kernarg[offset:offset + 4] = struct.pack("<f", float(rng.uniform(-2.0, 2.0)))
        elif size == 4:
            kernarg[offset:offset + 4] = struct.pack("<i", int(rng.integers(1, threads + 1)))
        else:
            kernarg[offset:offset + size] = rng.bytes(size)
    if fill == "random bytes":
        contents = rng.bytes(BUFFER_BYTES)
    elif fill == "random floats":
        contents = rng.uniform(-2.0, 2.0, BUFFER_BYTES // 4).astype(np.float32).tobytes()
    else:
        contents = rng.integers(0, threads, BUFFER_BYTES // 4, dtype=np.uint32).tobytes()
    static = getattr(kernel, "static_shared_size", 0)
    return Inputs(bytes(kernarg), buffers, contents, grid, block,
                  max(0, min(DYNAMIC_LDS, LDS_LIMIT - static)), fill)


def _default_block(kernel) -> int:
    bound = 1
    for d in getattr(kernel, "max_threads", None) or (DEFAULT_BLOCK,):
        bound *= max(d, 1)
    return max(1, min(DEFAULT_BLOCK, bound))


@contextlib.contextmanager
def _instruction_budget(budget: int | None):
    saved = os.environ.get("CASS_EMU_MAX_INSTRUCTIONS")
    if budget is not None:
        os.environ["CASS_EMU_MAX_INSTRUCTIONS"] = str(min(budget, int(saved)) if saved else budget)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("CASS_EMU_MAX_INSTRUCTIONS", None)
        else:
            os.environ["CASS_EMU_MAX_INSTRUCTIONS"] = saved


def execute(code_object: bytes, kernel: str, inputs: Inputs, budget: int | None) -> Outcome:
    """One launch on a fresh emulated device; what it leaves in memory and prints."""
    from cass_cc.emu import CodeObject, Memory, launch
    mem = Memory()
    co = CodeObject.load(code_object, mem)
    kernarg = bytearray(inputs.kernarg)
    addresses = []
    for _index, offset in inputs.buffers:
        base = mem.allocate(BUFFER_BYTES, "device")
        mem.view(base, BUFFER_BYTES)[:] = np.frombuffer(inputs.contents, np.uint8)
        addresses.append(base)
        kernarg[offset:offset + 8] = struct.pack("<Q", base + SLACK)
    printed: list[str] = []
    with _instruction_budget(budget):
        # strict: an access past a buffer's end is a fault here (only the buffers are compared)
        stats = launch(co, kernel, grid=inputs.grid, block=inputs.block, kernarg=bytes(kernarg),
                       dynamic_lds=inputs.dynamic_lds, memory=mem, printf=printed.append, strict=True)
    return Outcome([mem.view(a, BUFFER_BYTES).tobytes() for a in addresses],
                   {name: mem.view(addr, size).tobytes() for name, (addr, size) in co.globals.items() if size},
                   "".join(printed), stats.wave_instructions)


def first_difference(expected: Outcome, got: Outcome, inputs: Inputs) -> str:
    """The first place where the two runs differ, in words ('' when they agree)."""
    for (index, _offset), want, have in zip(inputs.buffers, expected.buffers, got.buffers):
        if want != have:
            a, b = np.frombuffer(want, np.uint8), np.frombuffer(have, np.uint8)
            at = int(np.flatnonzero(a != b)[0])
            word = at - at % 4
            return (f"buffer of parameter {index} differs at byte {at - SLACK} ({inputs.fill}) "
                    f"(got {have[word:word + 4].hex()}, expected {want[word:word + 4].hex()}; "
                    f"{int((a != b).sum())} bytes differ)")
    for name, want in expected.variables.items():
        if got.variables.get(name) != want:
            return f"device variable '{name}' differs"
    if expected.printed != got.printed:
        return "printf output differs"
    return ""


verify.DIFFERENTIAL_CHECKS.append(check)
