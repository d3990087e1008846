"""Translation work grows linearly with kernel size (issue 13, item 5: a generated 8k-instruction
solver kernel used to take more than 15 minutes). Speed goals live in
benchmarks/test_translate_scaling.py; here, counts and ratios measured side by side for kernels of
n and about 3.7n SASS instructions (benchmarks/synthetic.py), with generous bounds: quadratic work
would make the larger kernel cost 14 times the smaller, linear work 3.7 times.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import synthetic  # noqa: E402

from cass_cc.pipeline import run_pipeline  # noqa: E402

SMALL, LARGE = 3, 25     # reactions: about 900 and 3.4k SASS instructions, 20 and 140 divisions


@pytest.fixture(scope="module")
def units(tmp_path_factory):
    """{reactions: the parsed unit} of the `calls` variant (every reaction divides: CALL.REL slow paths)."""
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    folder = tmp_path_factory.mktemp("scaling")
    out = {}
    for reactions in (SMALL, LARGE):
        cu, cubin = folder / f"k{reactions}.cu", folder / f"k{reactions}.cubin"
        cu.write_text(synthetic.kernel_source("calls", reactions))
        subprocess.run(["nvcc", "-arch=sm_80", "-cubin", "-o", str(cubin), str(cu)], check=True)
        unit = units_from_file(str(cubin))[0]
        out[reactions] = run_pipeline(unit, [p for p in LIFT_PIPELINE if p.NAME in
                                             ("extract", "disasm", "parse", "callees")])
    return out


def _cpu(fn, repeat: int = 1) -> float:
    """The least CPU time of `repeat` runs, the garbage collector paused (its full collections
    would add noise that has nothing to do with the code measured)."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.process_time()
            fn()
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


def _lines(fn) -> int:
    """Lines of the lifter's own code (cass_cc/passes/lift) that running fn executes: a count of work that
    no machine load changes."""
    count = 0
    folder = str(ROOT / "cass_cc" / "passes" / "lift")

    def local(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return local

    def tracer(frame, event, arg):
        return local if frame.f_code.co_filename.startswith(folder) else None
    sys.settrace(tracer)
    try:
        fn()
    finally:
        sys.settrace(None)
    return count


def test_cfg_analysis_is_linear(units):
    """The CFG and call analyses over n and 3.7n instructions: lines executed in proportion
    (quadratic loops over instructions or call sites would execute 14 times as many)."""
    from cass_cc.passes.lift import subroutines
    from cass_cc.passes.lift.cfg import analyse
    small, large = (sorted(units[r].instructions, key=lambda i: i.address) for r in (SMALL, LARGE))

    def work(instructions):
        return lambda: subroutines.plan(instructions, analyse(instructions, {}))
    ratio = len(large) / len(small)
    n_small, n_large = _lines(work(small)), _lines(work(large))
    assert n_large < 1.5 * ratio * n_small, (n_small, n_large, ratio)


def test_lifting_work_is_linear(units, monkeypatch):
    """Building the LLVM IR: each SASS instruction is lifted at most once (subroutines are LLVM
    functions, not one copy per call site: copies grew with call sites times body size), and the
    lifter's lines executed grow in proportion to the instructions."""
    from cass_cc.passes import lift
    visits = {"n": 0}
    real = lift.lift_instruction

    def counting(ctx, ins):
        visits["n"] += 1
        real(ctx, ins)
    monkeypatch.setattr(lift, "lift_instruction", counting)
    lines = {}
    for reactions, unit in units.items():
        calls = sum(1 for i in unit.instructions if i.opcode == "CALL")
        assert calls > 4 * reactions, "the kernel should call the division slow path at every reaction"
        visits["n"] = 0
        texts = []
        lines[reactions] = _lines(lambda: texts.append(lift.lift_module(unit)))
        assert 0 < visits["n"] <= len(unit.instructions), (reactions, visits["n"], len(unit.instructions))
        assert "define internal" in texts[0]
    ratio = len(units[LARGE].instructions) / len(units[SMALL].instructions)
    assert lines[LARGE] < 1.5 * ratio * lines[SMALL], (lines, ratio)


def test_translation_time_is_linear(units):
    """Lifting, LLVM's O2 pipeline and code generation over n and 3.7n instructions, measured side by
    side: the larger kernel costs at most twice its share (the shared subroutine body that
    merged every call site's registers took minutes from 4k instructions on)."""
    from cass_cc.passes import lift
    from cass_cc.rdna3.target import emit_assembly

    def translate(unit):
        return lambda: emit_assembly(lift.optimize(lift.lift_module(unit), unit.offload_arch), unit.offload_arch)
    ratio = len(units[LARGE].instructions) / len(units[SMALL].instructions)
    assert ratio > 3.5
    t_small, t_large = _cpu(translate(units[SMALL]), 2), _cpu(translate(units[LARGE]))
    assert t_large < 2 * ratio * t_small, (t_small, t_large, ratio)


CALLS_KERNEL = r"""
__device__ __noinline__ float scaled(float x, float s) { return x * s + 1.0f; }
extern "C" __global__ void divide(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scaled(a[i] / b[i], 0.5f) + sqrtf(fabsf(a[i])) / (b[i] + 3.0f);
}
"""


def test_subroutines_kept_as_calls_compute_the_same(tmp_path, monkeypatch):
    """With the inlining budget at 0 every subroutine (the division and sqrt slow paths, a
    __noinline__ function) stays a real call in the code object: run on the emulator, it divides
    exactly as IEEE single precision does, slow-path operands (denormals, huge values) included."""
    import numpy as np

    import cass_cc.passes.lift.subroutines

    from .lifted import code_objects
    from .test_emulated import Device
    monkeypatch.setattr(cass_cc.passes.lift.subroutines, "INLINE_BUDGET", 0)
    source = tmp_path / "calls.cu"
    source.write_text(CALLS_KERNEL)
    objects = code_objects(source, "sm_80", tmp_path)
    from cass_cc import toolchain
    (tmp_path / "divide.hsaco").write_bytes(objects["divide"])
    asm = subprocess.run([toolchain.path("llvm-objdump"), "-d", "--mcpu=gfx1100", str(tmp_path / "divide.hsaco")],
                         capture_output=True, text=True, check=True).stdout
    assert "s_swappc_b64" in asm, "the subroutines should be calls"
    rng = np.random.default_rng(3)
    n = 256
    a = rng.uniform(-100, 100, n).astype(np.float32)
    b = rng.uniform(-10, 10, n).astype(np.float32)
    a[:32] = np.float32(3e38)                       # quotients that overflow the fast path
    b[32:64] = np.float32(1e-40)                    # denormal divisors
    a[64:96] = np.float32(1e-39)
    dev = Device(objects["divide"])
    pa, pb, po = dev.put(a), dev.put(b), dev.put(np.zeros(n, np.float32))
    dev.launch("divide", 4, 64, "<QQQi", pa, pb, po, n)
    got = dev.get(po, np.zeros(n, np.float32))
    with np.errstate(all="ignore"):
        want = ((a / b) * np.float32(0.5) + np.float32(1)) + np.sqrt(np.abs(a)) / (b + np.float32(3))
    assert np.array_equal(got.view(np.uint32), want.astype(np.float32).view(np.uint32)), \
        [(i, got[i], want[i]) for i in range(n) if got.view(np.uint32)[i] != want.astype(np.float32).view(np.uint32)[i]][:5]


def test_subroutine_interface_is_what_callers_use(units):
    """The division slow path clobbers scratch registers and predicates (P1, P2) that no caller
    reads again: its function neither takes nor returns them. Passed through, they were chains of
    phis from call to call that LLVM's SGPR-copy fixing took quadratic time on."""
    import re

    from cass_cc.passes import lift
    unit = units[LARGE]
    raw = lift.lift_module(unit)
    signature = re.search(r"define internal (.*) @\"?__cass_subroutine_\w+\"?\((.*)\)", raw)
    assert signature, "the slow path should be a function"
    returned, params = signature.groups()
    assert "i1" not in returned and " i1 " not in params, signature.group(0)
    optimized = lift.optimize(raw, unit.offload_arch)
    calls = sum(1 for i in unit.instructions if i.opcode == "CALL")
    assert optimized.count("= phi i1 ") < calls / 4, (optimized.count("= phi i1 "), calls)
