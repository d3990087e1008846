"""The HIP header overlay (rocm_compat.hip_header_overlay): every HIP compiler gets __half2 with
CUDA's __half members; clang-22 gets its own rewrites on top, in the same copy of the header."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_cc import rocm_compat, toolchain
from cass_cc.errors import ToolMissing

FP16 = "hip/amd_detail/amd_hip_fp16.h"


@pytest.fixture(scope="module")
def installed_fp16() -> str:
    try:
        return (Path(toolchain.hip_include_dir()) / FP16).read_text()
    except (ToolMissing, FileNotFoundError) as e:
        pytest.skip(str(e))


def _half2(text: str) -> str:
    start = text.index("struct __half2 {")
    return text[start:text.index("// CREATORS", start)]


@pytest.mark.parametrize("clang22", [False, True])
def test_half2_members_are_halves(installed_fp16, clang22):
    overlay = Path(rocm_compat.hip_header_overlay(clang22))
    text = (overlay / FP16).read_text()
    assert "unsigned short x;" in _half2(installed_fp16)
    assert "__half x;" in _half2(text) and "__half y;" in _half2(text)
    # __half_raw and __half2_raw keep their bits, as CUDA's do
    assert text[:text.index("struct __half2 {")].count("unsigned short x;") == 2
    assert ("__llvm_amdgcn_rcp_f16(_Float16 x) {" in text) == clang22
    assert (overlay / "hip/amd_detail/amd_hip_atomic.h").is_file() == clang22
