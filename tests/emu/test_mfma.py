"""MFMA on gfx90a and gfx942 (one block; f32, f16, bf16, f64 and i8 inputs) against D = A x B + C on the host,
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
KERNEL = """declare <{R} x {OT}> @llvm.amdgcn.mfma.{NAME}({AT}, {AT}, <{R} x {OT}>, i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c) {{
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr {AT}, ptr addrspace(1) %a, i32 %t
  %x = load {AT}, ptr addrspace(1) %pa
  %pb = getelementptr {AT}, ptr addrspace(1) %b, i32 %t
  %y = load {AT}, ptr addrspace(1) %pb
  %pc = getelementptr <{R} x {OT}>, ptr addrspace(1) %c, i32 %t
  %z = load <{R} x {OT}>, ptr addrspace(1) %pc
  %d = call <{R} x {OT}> @llvm.amdgcn.mfma.{NAME}({AT} %x, {AT} %y, <{R} x {OT}> %z, i32 0, i32 0, i32 0)
  %po = getelementptr <{R} x {OT}>, ptr addrspace(1) %out, i32 %t
  store <{R} x {OT}> %d, ptr addrspace(1) %po
  ret void
}}
"""
# (intrinsic, M, K, LLVM type of a lane's A/B elements, their dtype, result type, its dtype, archs)
SHAPES = [
    ("f32.16x16x4f32", 16, 4, "float", np.float32, "float", np.float32, ("gfx90a", "gfx942")),
    ("f32.16x16x16f16", 16, 16, "<4 x half>", np.float16, "float", np.float32, ("gfx90a", "gfx942")),
    ("f32.32x32x2f32", 32, 2, "float", np.float32, "float", np.float32, ("gfx90a", "gfx942")),
    ("f32.32x32x8f16", 32, 8, "<4 x half>", np.float16, "float", np.float32, ("gfx90a", "gfx942")),
    ("f32.16x16x16bf16.1k", 16, 16, "<4 x i16>", "bf16", "float", np.float32, ("gfx90a", "gfx942")),
    ("f64.16x16x4f64", 16, 4, "double", np.float64, "double", np.float64, ("gfx90a", "gfx942")),
    ("i32.16x16x16i8", 16, 16, "i32", np.int8, "i32", np.int32, ("gfx90a",)),
    ("i32.16x16x32.i8", 16, 32, "i64", np.int8, "i32", np.int32, ("gfx942",)),
]
CASES = [(arch, *shape[:-1]) for shape in SHAPES for arch in shape[-1]]


def lanes_of_inputs(A: np.ndarray, B: np.ndarray, kpl: int) -> tuple[np.ndarray, np.ndarray]:
    """(64, kpl) per-lane elements of A (M x K) and B (K x N)."""
    M, N = A.shape[0], B.shape[1]
    lane = np.arange(64)
    k = (lane // M)[:, None] * kpl + np.arange(kpl)[None, :]
    return A[(lane % M)[:, None], k], B[(lane // N)[:, None] * kpl + np.arange(kpl)[None, :], (lane % N)[:, None]]


def _elements(values: np.ndarray, dtype) -> np.ndarray:
    """Lane elements in memory as dtype; "bf16": the upper half of each f32 (exact for small integers)."""
    if dtype == "bf16":
        return (values.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16).reshape(-1)
    return values.astype(dtype).reshape(-1)


def lanes_of_result(D: np.ndarray) -> np.ndarray:
    """(64, regs) per-lane registers of the M x N result."""
    N = D.shape[1]
    groups = 64 // N
    lane, reg = np.arange(64)[:, None], np.arange(D.size // 64)[None, :]
    return D[(reg // 4) * 4 * groups + (lane // N) * 4 + reg % 4, lane % N]


@pytest.mark.parametrize("arch,name,m,k,ir_type,dtype,out_ir,out_dtype", CASES)
def test_mfma_matches_the_host(arch, name, m, k, ir_type, dtype, out_ir, out_dtype):
    kpl, regs = k * m // 64, m * m // 64
    rng = np.random.default_rng(m * k)
    A = rng.integers(-8, 8, (m, k)).astype(np.float64)
    B = rng.integers(-8, 8, (k, m)).astype(np.float64)
    C = rng.integers(-100, 100, (m, m)).astype(np.float64)
    la, lb = lanes_of_inputs(A, B, kpl)
    dev = Device(llc_code_object(KERNEL.format(R=regs, NAME=name, AT=ir_type, OT=out_ir) + TAIL, arch))
    out = dev.zeros(64 * regs, out_dtype)
    pa, pb = dev.upload(_elements(la, dtype)), dev.upload(_elements(lb, dtype))
    pc = dev.upload(lanes_of_result(C).astype(out_dtype).reshape(-1))
    dev.run("k", (1, 1, 1), (64, 1, 1), out, pa, pb, pc)
    got = dev.download(out, 64 * regs, out_dtype).reshape(64, regs)
    np.testing.assert_array_equal(got, lanes_of_result(A @ B + C).astype(out_dtype))


def test_the_accumulator_lives_in_agprs():
    text = disassemble(llc_code_object(KERNEL.format(R=4, NAME="f32.16x16x4f32", AT="float", OT="float") + TAIL,
                                       "gfx90a"))
    assert "v_mfma_f32_16x16x4f32 a[0:3]" in text


@pytest.mark.parametrize("text", ["v_mfma_f32_16x16x1f32 a[0:15], v0, v1, a[0:15]",
                                  "v_mfma_f32_32x32x4f16 a[0:31], v[0:1], v[2:3], a[0:31]",
                                  "v_mfma_i32_16x16x4i8 a[0:15], v0, v1, a[0:15]",
                                  "v_mfma_f32_32x32x2bf16 a[0:31], v0, v1, a[0:31]"])
def test_multi_block_mfma_is_refused_by_name(text):
    """Forms with several blocks (their K fills fewer elements than their registers hold)."""
    from cass_cc.emu.decode import parse_instruction
    from cass_cc.emu.fault import Unimplemented
    from cass_cc.emu.program import build
    with pytest.raises(Unimplemented, match="multi-block"):
        build(parse_instruction(text, 0, 8))


@pytest.mark.parametrize("kernel,k,dtype", [("_Z8mfma_f32PDv4_fPKfS2_PKS_", 4, np.float32),
                                            ("_Z8mfma_f16PDv4_fPKDv4_DF16_S3_PKS_", 16, np.float16)])
def test_hipcc_mfma_builtins_on_gfx90a(kernel, k, dtype):
    from .emu_build import KERNELS, compile_hip
    dev = Device(compile_hip(KERNELS / "mfma.hip", arch="gfx90a"))
    kpl = k * 16 // 64
    rng = np.random.default_rng(k)
    A, B = rng.integers(-8, 8, (16, k)).astype(np.float64), rng.integers(-8, 8, (k, 16)).astype(np.float64)
    C = rng.integers(-100, 100, (16, 16)).astype(np.float64)
    la, lb = lanes_of_inputs(A, B, kpl)
    out = dev.zeros(256, np.float32)
    pa, pb = dev.upload(la.astype(dtype).reshape(-1)), dev.upload(lb.astype(dtype).reshape(-1))
    pc = dev.upload(lanes_of_result(C).astype(np.float32).reshape(-1))
    dev.run(kernel, (1, 1, 1), (64, 1, 1), out, pa, pb, pc)
    got = dev.download(out, 256, np.float32).reshape(64, 4)
    np.testing.assert_array_equal(got, lanes_of_result(A @ B + C).astype(np.float32))
