"""CUDA's atomics become the GPU's own atomic instructions, not compare-and-swap loops: the lifted
code of real nvcc-built kernels is counted instruction by instruction (global_/flat_atomic_add,
inc, dec, min, max, and, or, xor, add_f32 ...; no *_atomic_cmpswap where an instruction exists),
system-scope atomics keep the loop fine-grained host memory needs, and the emulator runs the
native instructions with CUDA's exact results."""

from __future__ import annotations

import collections
import re
import shutil
import subprocess

import numpy as np
import pytest

from .lifted import run_one_block

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

KERNELS = r"""
extern "C" __global__ void device_atomics(int *s, unsigned *u, float *f, unsigned long long *l,
                                          int *olds, const int *in)
{
    int v = in[threadIdx.x];
    atomicAdd(&s[0], v);
    olds[threadIdx.x] = atomicAdd(&s[1], 1);
    atomicSub(&s[2], v);
    atomicMin(&s[3], v);
    atomicMax(&s[4], v);
    atomicMin(&u[0], (unsigned)v);
    atomicMax(&u[1], (unsigned)v);
    atomicAnd(&s[5], ~(1 << (threadIdx.x & 31)));
    atomicOr(&s[6], 1 << (threadIdx.x % 31));
    atomicXor(&s[7], v);
    atomicInc(&u[2], 9u);
    atomicDec(&u[3], 9u);
    atomicExch(&s[8], 7);
    atomicAdd(&f[0], 0.25f * v);
    atomicAdd(&l[0], (unsigned long long)v << 33);
}
extern "C" __global__ void denormal_adds(float *f, const unsigned *bits)
{
    atomicAdd(&f[0], __uint_as_float(bits[threadIdx.x]));
    f[1 + threadIdx.x] = atomicAdd(&f[33], __uint_as_float(bits[threadIdx.x]) + 1.0f);
}
extern "C" __global__ void system_atomics(unsigned *u, const int *in)
{
    unsigned v = in[threadIdx.x];
    atomicAdd_system(&u[0], v);
    atomicMax_system(&u[1], v);
    atomicInc_system(&u[2], 9u);
}
"""
ATOMIC = re.compile(r"^\s+((?:global|flat|ds)_atomic_\w+)", re.M)


@pytest.fixture(scope="module")
def lifted(tmp_path_factory):
    """{kernel: (codegen's assembly, code object)} of the kernels built for sm_80."""
    from cass_cc.pipeline import run_pipeline
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    folder = tmp_path_factory.mktemp("native_atomics")
    (folder / "k.cu").write_text(KERNELS)
    cubin = folder / "k.cubin"
    subprocess.run(["nvcc", "-arch=sm_80", "-cubin", "-o", str(cubin), str(folder / "k.cu")], check=True)
    out = {}
    for unit in units_from_file(str(cubin)):
        unit = run_pipeline(unit, LIFT_PIPELINE)
        assert unit.status == "ok", unit.reasons
        out[unit.name] = (unit.asm, unit.code_object)
    return out


def _atomics(asm: str) -> collections.Counter:
    return collections.Counter(ATOMIC.findall(asm))


def test_device_atomics_are_native_instructions(lifted):
    counts = _atomics(lifted["device_atomics"][0])
    assert not [name for name in counts if "cmpswap" in name], counts
    # ATOMG (a result wanted) is global; RED takes a generic address, so flat; nvcc makes
    # atomicSub an add of the negated value
    assert counts["global_atomic_add_u32"] >= 1, counts
    for name in ("flat_atomic_add_u32", "flat_atomic_min_i32", "flat_atomic_max_i32",
                 "flat_atomic_min_u32", "flat_atomic_max_u32", "flat_atomic_and_b32", "flat_atomic_or_b32",
                 "flat_atomic_xor_b32", "flat_atomic_inc_u32", "flat_atomic_dec_u32", "flat_atomic_add_f32",
                 "flat_atomic_add_u64"):
        assert counts[name] >= 1, (name, counts)
    assert counts["global_atomic_swap_b32"] + counts["flat_atomic_swap_b32"] == 1, counts


def test_system_scope_keeps_the_loop_for_fine_grained_memory(lifted):
    """atomicMax_system and atomicInc_system may meet host memory, where PCIe carries only add,
    swap and compare-and-swap: those two stay loops, the add stays native."""
    counts = _atomics(lifted["system_atomics"][0])
    assert counts["flat_atomic_add_u32"] == 1, counts
    assert counts["flat_atomic_cmpswap_b32"] >= 2, counts
    assert not counts["flat_atomic_max_u32"] and not counts["flat_atomic_inc_u32"], counts




def test_native_atomics_give_cudas_results(lifted):
    threads = 64
    v = (np.arange(threads, dtype=np.int64) * 37 % 101 - 50).astype(np.int32)
    s = np.array([5, 0, 0, 1000, -1000, -1, 0, 0, 0], np.int32)
    u = np.array([0xFFFFFFFF, 0, 0, 5], np.uint32)
    s, u, f, l, olds, _ = run_one_block(lifted["device_atomics"][1], "device_atomics", threads,
                               [s, u, np.zeros(1, np.float32), np.zeros(1, np.uint64),
                                np.zeros(threads, np.int32), v])
    total = int(v.sum())
    as_unsigned = v.view(np.uint32)
    assert s.tolist() == [5 + total, threads, -total, int(v.min()), int(v.max()), 0, 0x7FFFFFFF,
                          int(np.bitwise_xor.reduce(v)), 7]
    # atomicInc counts 0..9 and wraps; atomicDec counts down from 5 and wraps to 9 after 0
    assert u.tolist() == [int(as_unsigned.min()), int(as_unsigned.max()), threads % 10, (5 - threads) % 10]
    assert f.tolist() == [0.25 * total]                     # every partial sum is exact
    assert int(l[0]) == sum(int(x) << 33 for x in v) % 2**64
    assert sorted(olds.tolist()) == list(range(threads))


def test_float_atomic_add_flushes_a_denormal_operand(lifted):
    """nvcc's atomicAdd(float*) is RED/ATOMG .ADD.F32.FTZ: on an H200 32 adds of the smallest
    denormal to 0.0 leave 0.0, and one add of 2^-127 to 0.0 leaves 0.0 (recorded 2026-12-03); the
    lifted kernel flushes its operand the same way. Normal operands add as before."""
    threads = 32
    bits = np.full(threads, 1, np.uint32)                   # the smallest denormal
    bits[5] = 0x00400000                                    # 2^-127
    f, _ = run_one_block(lifted["denormal_adds"][1], "denormal_adds", threads, [np.zeros(34, np.float32), bits])
    assert f[0].view(np.uint32) == 0, hex(f[0].view(np.uint32))
    assert f[33] == np.float32(threads)
    assert sorted(f[1:33].tolist()) == [float(i) for i in range(threads)]
