"""Runs of instructions under one guard (passes/lift/guards.py) are one conditional block: which
instructions form a run, and a shared-memory tree reduction (ptxas predicates its loop body:
@!P1 LDS, @!P1 LDS, @!P1 IADD3, @!P1 STS) whose waves without an active lane skip the body, counted
on the emulator, with the exact sum."""

from __future__ import annotations

import ctypes
import shutil
import struct

import numpy as np
import pytest

from cass_cc.passes.lift import guards
from cass_cc.sass.parser import parse_sass

from .lifted import lifted_unit


def _run_lengths(text: str, leaders: set[int] = frozenset()) -> list[int]:
    instructions = parse_sass(text).instructions
    return [guards.run_length(instructions, i, set(leaders)) for i in range(len(instructions))]


BODY = """
        /*0000*/              @!P1 IMAD R2, R3, 0x4, R0 ;
        /*0010*/              @!P1 LDS R4, [R7.X4] ;
        /*0020*/                   SHF.R.U32.HI R3, RZ, 0x1, R3 ;
        /*0030*/              @!P1 LDS R5, [R2] ;
        /*0040*/              @!P1 IADD3 R4, R4, R5, RZ ;
        /*0050*/              @!P1 STS [R7.X4], R4 ;
        /*0060*/               @P1 STS [R7.X4], R4 ;
"""


def test_a_run_is_the_instructions_under_one_guard_with_a_memory_access():
    # the other guard (@P1) and the unguarded SHF end a run; the lifter goes on after a run, so
    # the 2 at the IADD3 (the rest of the run from there) is never used
    assert _run_lengths(BODY) == [2, 0, 0, 3, 2, 0, 0]


def test_a_branch_target_inside_starts_a_new_run():
    assert _run_lengths(BODY, {0x40}) == [2, 0, 0, 0, 2, 0, 0]


def test_pure_instructions_alone_stay_selects():
    assert _run_lengths("""
        /*0000*/              @!P1 IMAD R2, R3, 0x4, R0 ;
        /*0010*/              @!P1 IADD3 R4, R4, R5, RZ ;
""") == [0, 0]


def test_a_write_of_the_guard_ends_the_run_after_it():
    assert _run_lengths("""
        /*0000*/               @P0 LDS R4, [R7] ;
        /*0010*/               @P0 ISETP.NE.AND P0, PT, R4, RZ, PT ;
        /*0020*/               @P0 STS [R7], R4 ;
        /*0030*/               @P0 STS [R7+0x4], R4 ;
""") == [2, 0, 2, 0]


KERNEL = r"""
extern "C" __global__ void tree_sum(const int *v, int *out)
{
    __shared__ int partial[256];
    partial[threadIdx.x] = v[threadIdx.x];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = partial[0];
}
"""


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
def test_reduction_body_is_skipped_by_waves_without_active_lanes(tmp_path):
    from cass_cc.emu import CodeObject, Memory, launch
    unit = lifted_unit(KERNEL, tmp_path)
    assert "@!P1 STS" in unit.sass_text.replace("  ", " ") or "@P1 STS" in unit.sass_text
    threads = 256
    values = np.arange(1, threads + 1, dtype=np.int32) * 7
    mem = Memory()
    co = CodeObject.load(unit.code_object, mem)
    pv, po = mem.allocate(values.nbytes), mem.allocate(4)
    ctypes.memmove(pv, values.ctypes.data, values.nbytes)
    stats = launch(co, "tree_sum", grid=(1, 1, 1), block=(threads, 1, 1), kernarg=struct.pack("<QQ", pv, po),
                   memory=mem)
    out = ctypes.c_int32.from_address(po).value
    assert out == int(values.sum())
    # 8 waves, 8 steps: the loop's two loads in every wave at every step would be 128; the
    # second load, the add and the store run only in the 4+2+1+1+1+1+1+1 waves with active lanes
    loads = stats.opcode_counts.get("ds_load_b32", 0)
    stores = stats.opcode_counts.get("ds_store_b32", 0)
    assert loads <= 8 * 8 + 12 + 1, stats.opcode_counts
    assert stores <= 8 + 12, stats.opcode_counts
