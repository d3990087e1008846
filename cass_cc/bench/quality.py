"""Code quality of the lifted build against hipcc's build of the same source, from what the
emulator counted (`cass-run --emu-stats`: per launch, wave-instructions per opcode).

Per program and kernel: wave-instructions of each build and their ratio (lifted / hipcc), memory
instructions by address space, atomics by kind, and a cycle estimate; over the programs that pass
on both routes: the median and the worst ratio. Pure data in, data out: the bench and the suite
runner measure, quality_report.py writes the files.

The cycle estimate weighs each wave-instruction by its class (CYCLES below): rough issue costs of
RDNA3 in wave32, enough to see that a CAS loop or a scalarised warp operation costs more than the
count of its instructions says; it ranks builds, it does not predict time (no latency, no
occupancy, no cache behaviour).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field

# Cycles one wave-instruction of each class costs in the estimate. Why each value:
# - hint: s_delay_alu, s_clause, s_waitcnt*, s_nop, cache invalidates: bookkeeping the scheduler
#   issues in a cycle; the waits' real cost is the memory latency, counted in the memory classes.
# - salu, valu, branch: one issue each (a wave32 VALU op is one pass on RDNA3's 32-lane SIMD).
# - transcendental (v_rcp, v_sqrt, v_exp, ...): a quarter rate unit.
# - f64: gfx1100's double rate is 1/16 of single.
# - lane (v_readlane, v_writelane, v_readfirstlane, v_permlane*, ds_bpermute/permute/swizzle): a
#   VALU to SALU crossing or an LDS crossbar trip, about twice a plain op.
# - scalar memory (s_load): through the constant cache.
# - lds: a DS access (the crossbar, about a quarter of a global access).
# - global, flat, buffer, scratch: a vector memory access through the L0/L1 caches.
# - atomic: a returning or not-returning read-modify-write at L2 (global/flat) or LDS (weighted as
#   an LDS access plus the read-modify-write).
# - barrier: s_barrier, where a wave waits for the block.
CYCLES = {"hint": 0, "salu": 1, "valu": 1, "branch": 1, "transcendental": 4, "f64": 16, "lane": 2,
          "scalar memory": 4, "lds": 4, "global": 16, "flat": 16, "buffer": 16, "scratch": 16,
          "atomic": 32, "lds atomic": 8, "barrier": 8}

MEMORY_SPACES = ("global", "flat", "buffer", "scratch", "lds", "scalar memory")

_HINTS = ("s_delay_alu", "s_clause", "s_waitcnt", "s_nop", "s_sendmsg", "s_setprio", "s_inst_prefetch",
          "buffer_gl0_inv", "buffer_gl1_inv", "buffer_wbinvl1", "s_dcache_inv", "s_icache_inv")
_LANE = ("v_readlane", "v_writelane", "v_readfirstlane", "v_permlane", "ds_bpermute", "ds_permute",
         "ds_swizzle")
_TRANSCENDENTAL = re.compile(r"^v_(rcp|rsq|sqrt|exp|log|sin|cos)_")
_DS_ATOMIC = re.compile(r"^ds_(add|sub|rsub|inc|dec|min|max|and|or|xor|mskor|cmpst|cmpstore|wrxchg|storexchg|"
                        r"condxchg32|swap|pk_add)_")
_TYPE = re.compile(r"^(?:[iubf]\d+|x2|rtn|e32|e64)$")
# An atomic's operation, from its name's words less the type: the kinds.
_KINDS = {"add": "add", "sub": "sub", "rsub": "sub", "csub": "sub", "inc": "inc", "dec": "dec",
          "min": "min", "smin": "min", "umin": "min", "max": "max", "smax": "max", "umax": "max",
          "fmin": "min", "fmax": "max", "and": "and", "or": "or", "xor": "xor", "mskor": "or",
          "swap": "xchg", "wrxchg": "xchg", "storexchg": "xchg", "condxchg32": "xchg",
          "cmpswap": "cas", "cmpst": "cas", "cmpstore": "cas", "fcmpswap": "cas", "pk_add": "fadd packed"}


def space_of(opcode: str) -> str | None:
    """The address space a memory instruction accesses (MEMORY_SPACES), None for any other."""
    if opcode.startswith(("s_load_", "s_buffer_load_")):
        return "scalar memory"
    if opcode.startswith(_LANE) or opcode.startswith(_HINTS):
        return None
    for prefix, space in (("global_", "global"), ("flat_", "flat"), ("buffer_", "buffer"),
                          ("scratch_", "scratch"), ("ds_", "lds")):
        if opcode.startswith(prefix):
            return space
    return None


def atomic_kind(opcode: str) -> str | None:
    """The operation of an atomic instruction (add, sub, min, max, and, or, xor, xchg, inc, dec,
    cas, fadd, fadd packed), None for any other instruction."""
    space = space_of(opcode)
    if space in ("global", "flat", "buffer", "scratch") and "_atomic_" in opcode:
        words = opcode.split("_atomic_", 1)[1].split("_")
    elif space == "lds" and _DS_ATOMIC.match(opcode):
        words = opcode[3:].split("_")
    else:
        return None
    op = "_".join(w for w in words if not _TYPE.match(w))
    typed_float = any(w.startswith("f") and w[1:].isdigit() for w in words)
    kind = _KINDS.get(op)
    if kind is None:
        raise ValueError(f"atomic instruction '{opcode}' has an operation the report does not know ('{op}')")
    return "fadd" if kind == "add" and typed_float else kind


def instruction_class(opcode: str) -> str:
    """The CYCLES class of one opcode as the emulator names it (e.g. 'v_add_co_u32',
    'global_atomic_add_u32', 's_waitcnt')."""
    if opcode.startswith(_HINTS):
        return "hint"
    if opcode.startswith(_LANE):
        return "lane"
    space = space_of(opcode)
    if space is not None:
        if atomic_kind(opcode) is not None:
            return "lds atomic" if space == "lds" else "atomic"
        return space
    if opcode.startswith("s_barrier"):
        return "barrier"
    if opcode.startswith(("s_branch", "s_cbranch", "s_setpc", "s_swappc", "s_call", "s_endpgm")):
        return "branch"
    if opcode.startswith("v_"):
        if _TRANSCENDENTAL.match(opcode):
            return "transcendental"
        return "f64" if "_f64" in opcode else "valu"
    return "salu"


@dataclass
class Profile:
    """What one build of a kernel (or a whole program) executed."""
    wave_instructions: int = 0
    cycles: int = 0
    memory: dict[str, int] = field(default_factory=dict)    # address space -> wave-instructions
    atomics: dict[str, int] = field(default_factory=dict)   # kind -> wave-instructions
    classes: dict[str, int] = field(default_factory=dict)   # CYCLES class -> wave-instructions

    def add(self, opcode_counts: dict[str, int]) -> None:
        for opcode, n in opcode_counts.items():
            cls = instruction_class(opcode)
            self.wave_instructions += n
            self.cycles += n * CYCLES[cls]
            self.classes[cls] = self.classes.get(cls, 0) + n
            space = space_of(opcode)
            if space is not None:
                self.memory[space] = self.memory.get(space, 0) + n
            kind = atomic_kind(opcode)
            if kind is not None:
                self.atomics[kind] = self.atomics.get(kind, 0) + n

    def as_dict(self) -> dict:
        return {"wave_instructions": self.wave_instructions, "cycles": self.cycles,
                "memory": dict(sorted(self.memory.items())), "atomics": dict(sorted(self.atomics.items())),
                "classes": dict(sorted(self.classes.items()))}


@dataclass(frozen=True)
class Measured:
    """One program's two builds as measured: per kernel name, the opcode counts summed over its
    launches (kernel_opcodes below), and whether each build passed."""
    program: str
    lifted: dict[str, dict[str, int]]
    hipcc: dict[str, dict[str, int]]
    lifted_passed: bool
    hipcc_passed: bool
    note: str = ""      # why a build failed, for the report


def kernel_opcodes(stats: dict) -> dict[str, dict[str, int]]:
    """Opcode counts per kernel, summed over its launches, from a `cass-run --emu-stats` file's JSON.
    A `static __global__` kernel is `_ZL5pack2…` (internal linkage) in hipcc's build and `_Z5pack2…`
    in nvcc's, which gives it external linkage to register it: both are named the latter, so
    the two builds' kernels pair up."""
    kernels: dict[str, dict[str, int]] = {}
    for launch in stats.get("launches", []):
        counts = kernels.setdefault(re.sub(r"^_ZL(?=[0-9])", "_Z", launch["kernel"]), {})
        for opcode, n in launch.get("opcode_counts", {}).items():
            counts[opcode] = counts.get(opcode, 0) + n
    return kernels


def _profile(*opcode_counts: dict[str, int]) -> Profile:
    p = Profile()
    for counts in opcode_counts:
        p.add(counts)
    return p


def _ratio(lifted: int, hipcc: int) -> float | None:
    return lifted / hipcc if hipcc else None


def compare(m: Measured) -> dict:
    """One program: both builds' profiles in total and per kernel (kernels matched by name; one
    only one build launched has no ratio), and the ratios lifted / hipcc."""
    lifted, hipcc = _profile(*m.lifted.values()), _profile(*m.hipcc.values())
    kernels = []
    for name in sorted(set(m.lifted) | set(m.hipcc)):
        lk, hk = _profile(m.lifted.get(name, {})), _profile(m.hipcc.get(name, {}))
        kernels.append({"kernel": name, "lifted": lk.as_dict(), "hipcc": hk.as_dict(),
                        "ratio": _ratio(lk.wave_instructions, hk.wave_instructions)
                        if name in m.lifted and name in m.hipcc else None,
                        "cycle_ratio": _ratio(lk.cycles, hk.cycles) if name in m.lifted and name in m.hipcc
                        else None})
    return {"program": m.program, "passed": m.lifted_passed and m.hipcc_passed,
            "lifted_passed": m.lifted_passed, "hipcc_passed": m.hipcc_passed, "note": m.note,
            "lifted": lifted.as_dict(), "hipcc": hipcc.as_dict(),
            "ratio": _ratio(lifted.wave_instructions, hipcc.wave_instructions),
            "cycle_ratio": _ratio(lifted.cycles, hipcc.cycles), "kernels": kernels}


def summarize(measured: list[Measured], limit: float = 1.5) -> dict:
    """Every program compared, and over those passing on both routes with a ratio: the median and
    the worst ratio of wave-instructions and of estimated cycles, and the programs above limit."""
    programs = sorted((compare(m) for m in measured), key=lambda p: p["program"])
    counted = [p for p in programs if p["passed"] and p["ratio"] is not None]
    ratios = [p["ratio"] for p in counted]
    worst = max(counted, key=lambda p: p["ratio"]) if counted else None
    kernel_ratios = [k["ratio"] for p in counted for k in p["kernels"] if k["ratio"] is not None]
    return {"programs": len(programs), "counted": len(counted), "limit": limit,
            "median": statistics.median(ratios) if ratios else None,
            "worst": {"program": worst["program"], "ratio": worst["ratio"]} if worst else None,
            "cycle_median": statistics.median(p["cycle_ratio"] for p in counted) if counted else None,
            "kernel_median": statistics.median(kernel_ratios) if kernel_ratios else None,
            "kernels": len(kernel_ratios),
            "above_limit": [p["program"] for p in counted if p["ratio"] > limit],
            "not_counted": [p["program"] for p in programs if p not in counted],
            "cycles": CYCLES, "results": programs}
