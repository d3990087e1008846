"""Calls through c[0x4]: the callee of a CALL.ABS is the symbol relocated into the word its register
was loaded from. A failed assert() (__assertfail) prints CUDA's message, with the file, function
and condition texts read from the cubin, then sets the code object's assert flag and ends its wave
(libcassrt reports cudaErrorAssert); printf in the same kernel still works."""

from __future__ import annotations

import shutil
import subprocess

import pytest

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

SOURCE = r"""
#include <cassert>
#include <cstdio>
__global__ void checked(const int *in, int *out)
{
    int v = in[threadIdx.x];
    if (threadIdx.x == 0) printf("first %d\n", v);
    assert(v >= 0 && "inputs are counts");
    out[threadIdx.x] = v * 2;
}
"""


def test_assert_prints_cuda_message_and_raises_the_flag(tmp_path):
    from cass_cc.pipeline import run_pipeline
    from cass_cc.passes import FRONT_END, units_from_file
    import cass_cc.passes.lift as lift
    (tmp_path / "a.cu").write_text(SOURCE)
    cubin = tmp_path / "a.cubin"
    subprocess.run(["nvcc", "-arch=sm_80", "-cubin", "-o", str(cubin), str(tmp_path / "a.cu")], check=True)
    unit = run_pipeline(units_from_file(str(cubin))[0], FRONT_END)
    unit = run_pipeline(unit, [lift])
    assert unit.status == "ok", unit.reasons
    text = unit.llvm_ir
    assert "llvm.trap" not in text and "llvm.amdgcn.endpgm" in text
    assert "@__cass_assert_raised = common " in text
    assert "store i32 1, ptr addrspace(1) @__cass_assert_raised" in text
    assert ("/a.cu:%u: void checked(const int *, int *): block: [%u,%u,%u], thread: [%u,%u,%u] "
            "Assertion `v >= 0 && \\22inputs are counts\\22` failed.\\0A") in text
    assert "first %d" in text or "__ockl_printf_begin" in text


def test_libcassrt_reads_the_flag_the_lifter_sets():
    """cassrt.h's CASSRT_ASSERT_FLAG is the variable printf.py's assert lowering defines."""
    import re
    from pathlib import Path
    from cass_cc.passes.lift.printf import ASSERT_FLAG
    header = Path(__file__).resolve().parents[2] / "cass_cc" / "runtime" / "cassrt" / "cassrt.h"
    assert re.search(r'#define CASSRT_ASSERT_FLAG "(\w+)"', header.read_text()).group(1) == ASSERT_FLAG
