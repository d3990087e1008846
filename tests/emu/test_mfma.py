"""MFMA on gfx90a and gfx942 (one block, f32 and f16 inputs) against D = A x B + C on the host,
and the AGPRs LLVM keeps the accumulator in. Kernels from llc-22; matrices of small integers
(exact in any order of accumulation). The lane layout the inputs are placed in is AMD's matrix
instruction calculator's (also in BitBLAS/TileLang's MFMA layouts): A[i][k] in lane
i + M * (k // kpl), element k % kpl; B[k][j] in lane j + N * (k // kpl); D[i][j] in lane
j + N * ((i // 4) % (64 // N)), register (i // (4 * 64 // N)) * 4 + i % 4."""

from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu.decode import disassemble

from .emu_build import Device, llc_code_object

TAIL = '!llvm.module.flags = !{!0}\n!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}\n'
KERNEL = """declare <{R} x float> @llvm.amdgcn.mfma.f32.{M}x{M}x{K}{T}({AT}, {AT}, <{R} x float>, i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c) {{
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr {AT}, ptr addrspace(1) %a, i32 %t
  %x = load {AT}, ptr addrspace(1) %pa
  %pb = getelementptr {AT}, ptr addrspace(1) %b, i32 %t
  %y = load {AT}, ptr addrspace(1) %pb
  %pc = getelementptr <{R} x float>, ptr addrspace(1) %c, i32 %t
  %z = load <{R} x float>, ptr addrspace(1) %pc
  %d = call <{R} x float> @llvm.amdgcn.mfma.f32.{M}x{M}x{K}{T}({AT} %x, {AT} %y, <{R} x float> %z, i32 0, i32 0, i32 0)
  %po = getelementptr <{R} x float>, ptr addrspace(1) %out, i32 %t
  store <{R} x float> %d, ptr addrspace(1) %po
  ret void
}}
"""
SHAPES = [(16, 4, "f32"), (16, 16, "f16"), (32, 2, "f32"), (32, 8, "f16")]


def lanes_of_inputs(A: np.ndarray, B: np.ndarray, kpl: int) -> tuple[np.ndarray, np.ndarray]:
    """(64, kpl) per-lane elements of A (M x K) and B (K x N)."""
    M, N = A.shape[0], B.shape[1]
    lane = np.arange(64)
    k = (lane // M)[:, None] * kpl + np.arange(kpl)[None, :]
    return A[(lane % M)[:, None], k], B[(lane // N)[:, None] * kpl + np.arange(kpl)[None, :], (lane % N)[:, None]]


def lanes_of_result(D: np.ndarray) -> np.ndarray:
    """(64, regs) per-lane registers of the M x N result."""
    N = D.shape[1]
    groups = 64 // N
    lane, reg = np.arange(64)[:, None], np.arange(D.size // 64)[None, :]
    return D[(reg // 4) * 4 * groups + (lane // N) * 4 + reg % 4, lane % N]


@pytest.mark.parametrize("arch", ["gfx90a", "gfx942"])
@pytest.mark.parametrize("m,k,t", SHAPES)
def test_mfma_matches_the_host(arch, m, k, t):
    kpl, regs = k * m // 64, m * m // 64
    at = "float" if t == "f32" else f"<{kpl} x half>"
    ir = KERNEL.format(R=regs, M=m, K=k, T=t, AT=at)
    rng = np.random.default_rng(m * k)
    A = rng.integers(-8, 8, (m, k)).astype(np.float64)
    B = rng.integers(-8, 8, (k, m)).astype(np.float64)
    C = rng.integers(-100, 100, (m, m)).astype(np.float64)
    la, lb = lanes_of_inputs(A, B, kpl)
    dtype = np.float32 if t == "f32" else np.float16
    dev = Device(llc_code_object(ir + TAIL, arch))
    out = dev.zeros(64 * regs, np.float32)
    pa, pb = dev.upload(la.astype(dtype).reshape(-1)), dev.upload(lb.astype(dtype).reshape(-1))
    pc = dev.upload(lanes_of_result(C).astype(np.float32).reshape(-1))
    dev.run("k", (1, 1, 1), (64, 1, 1), out, pa, pb, pc)
    got = dev.download(out, 64 * regs, np.float32).reshape(64, regs)
    np.testing.assert_array_equal(got, lanes_of_result(A @ B + C).astype(np.float32))


def test_the_accumulator_lives_in_agprs():
    text = disassemble(llc_code_object(KERNEL.format(R=4, M=16, K=4, T="f32", AT="float") + TAIL, "gfx90a"))
    assert "v_mfma_f32_16x16x4f32 a[0:3]" in text


def test_multi_block_mfma_is_refused_by_name():
    from cass_cc.emu.decode import parse_instruction
    from cass_cc.emu.fault import Unimplemented
    from cass_cc.emu.program import build
    with pytest.raises(Unimplemented, match="multi-block"):
        build(parse_instruction("v_mfma_f32_16x16x1f32 a[0:15], v0, v1, a[0:15]", 0, 8))
