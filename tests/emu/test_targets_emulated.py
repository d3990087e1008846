"""The emulator on gfx12 (RDNA4) code objects: kernels that LLVM-22 compiles for gfx1201 (its
encodings, its names: s_add_co_u32, v_mad_co_u64_u32, s_wait_loadcnt, s_barrier_signal/wait,
workgroup ids in TTMP registers) run to the exact values the host computes, and to the same
values as the gfx1100 build of the same kernel. One kernel per instruction family."""

from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu.decode import disassemble
from cass_cc.rdna3.target import emit_assembly
from cass_cc.rdna3.tools import assemble, link

from .emu_build import KERNELS as KERNEL_DIR, Device, llc_code_object

TARGETS = ["gfx1100", "gfx1201"]
HEAD = "declare i32 @llvm.amdgcn.workitem.id.x()\ndeclare i32 @llvm.amdgcn.workgroup.id.x()\n" \
       "declare void @llvm.amdgcn.s.barrier()\n"
TAIL = '!llvm.module.flags = !{!0}\n!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}\n'
N, BLOCK = 256, 64


def build(body: str, arch: str) -> Device:
    return Device(link([assemble(emit_assembly(HEAD + body + TAIL, arch), arch)]))


GID = """  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %b = call i32 @llvm.amdgcn.workgroup.id.x()
  %bo = mul i32 %b, 64
  %i = add i32 %bo, %t
"""

VALU = """define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, i64 %m) {
""" + GID + """  %pa = getelementptr i32, ptr addrspace(1) %a, i32 %i
  %x = load i32, ptr addrspace(1) %pa
  %x64 = zext i32 %x to i64
  %p = mul i64 %x64, %m
  %s = add i64 %p, 12345678901
  %f = uitofp i32 %x to float
  %g = call float @llvm.fma.f32(float %f, float 1.5, float -3.25)
  %gi = fptosi float %g to i64
  %r = xor i64 %s, %gi
  %po = getelementptr i64, ptr addrspace(1) %out, i32 %i
  store i64 %r, ptr addrspace(1) %po
  ret void
}
declare float @llvm.fma.f32(float, float, float)
"""

SALU = """define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, i64 %m) {
""" + GID + """  %b64 = zext i32 %b to i64
  %s = add i64 %m, %b64
  %d = sub i64 %s, 7
  %sh = shl i64 %d, 3
  %po = getelementptr i64, ptr addrspace(1) %out, i32 %i
  store i64 %sh, ptr addrspace(1) %po
  ret void
}
"""

LDS = """@tile = internal addrspace(3) global [64 x i32] undef
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, i64 %m) {
""" + GID + """  %pa = getelementptr i32, ptr addrspace(1) %a, i32 %i
  %x = load i32, ptr addrspace(1) %pa
  %pl = getelementptr [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %t
  store i32 %x, ptr addrspace(3) %pl
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %u = sub i32 63, %t
  %pu = getelementptr [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %u
  %y = load i32, ptr addrspace(3) %pu
  %y64 = zext i32 %y to i64
  %po = getelementptr i64, ptr addrspace(1) %out, i32 %i
  store i64 %y64, ptr addrspace(1) %po
  ret void
}
"""

ATOMIC = """define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, i64 %m) {
""" + GID + """  %pa = getelementptr i32, ptr addrspace(1) %a, i32 %i
  %x = load i32, ptr addrspace(1) %pa
  %x64 = zext i32 %x to i64
  %slot = and i32 %i, 7
  %po = getelementptr i64, ptr addrspace(1) %out, i32 %slot
  %old = atomicrmw add ptr addrspace(1) %po, i64 %x64 syncscope("agent") monotonic
  ret void
}
"""

# a returning atomic, a 16-bit signed scalar load from constant memory, a division by a
# wave-uniform divisor (gfx12 computes its reciprocal with SALU float instructions)
SCALAR_FLOAT = """define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, i64 %m, ptr addrspace(4) %c) {
""" + GID + """  %pa = getelementptr i32, ptr addrspace(1) %a, i32 %i
  %x = load i32, ptr addrspace(1) %pa
  %po = getelementptr i64, ptr addrspace(1) %out, i32 %i
  %x64 = zext i32 %x to i64
  store i64 %x64, ptr addrspace(1) %po
  %old = atomicrmw add ptr addrspace(1) %po, i64 5 syncscope("agent") monotonic
  %m32 = trunc i64 %m to i32
  %d = add i32 %m32, %b
  %q = udiv i32 %x, %d
  %q64 = zext i32 %q to i64
  %pc = getelementptr i16, ptr addrspace(4) %c, i64 3
  %h = load i16, ptr addrspace(4) %pc, !invariant.load !{}
  %h64 = sext i16 %h to i64
  %r1 = mul i64 %old, 1000003
  %r2 = add i64 %r1, %q64
  %r3 = add i64 %r2, %h64
  %mf = sitofp i32 %d to float
  %inv = fdiv float 1.0, %mf
  %ge = fcmp oge float %inv, 0x3F847AE140000000  ; float 0.01
  %tr = call float @llvm.trunc.f32(float %mf)
  %tri = fptosi float %tr to i64
  %bonus = select i1 %ge, i64 %tri, i64 0
  %r = add i64 %r3, %bonus
  store i64 %r, ptr addrspace(1) %po
  ret void
}
declare float @llvm.trunc.f32(float)
"""

# fmaxf/fminf with NaNs (gfx12: v_max_num_f32/v_min_num_f32; gfx11: v_max_f32 after quieting)
MINMAX = """define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, i64 %m) {
""" + GID + """  %pa = getelementptr float, ptr addrspace(1) %a, i32 %i
  %x = load float, ptr addrspace(1) %pa
  %j = xor i32 %i, 1
  %pb = getelementptr float, ptr addrspace(1) %a, i32 %j
  %y = load float, ptr addrspace(1) %pb
  %hi = call float @llvm.maxnum.f32(float %x, float %y)
  %lo = call float @llvm.minnum.f32(float %x, float %y)
  %hb = bitcast float %hi to i32
  %lb = bitcast float %lo to i32
  %h64 = zext i32 %hb to i64
  %l64 = zext i32 %lb to i64
  %hs = shl i64 %h64, 32
  %r = or i64 %hs, %l64
  %po = getelementptr i64, ptr addrspace(1) %out, i32 %i
  store i64 %r, ptr addrspace(1) %po
  ret void
}
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.minnum.f32(float, float)
"""

# three-operand fmaxf/fminf chains and a clamp with NaNs (gfx12: v_max3_num_f32, v_min3_num_f32,
# v_med3_num_f32; softmax's row maximum is such a chain)
MINMAX3 = """define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, i64 %m) {
""" + GID + """  %pa = getelementptr float, ptr addrspace(1) %a, i32 %i
  %x = load float, ptr addrspace(1) %pa
  %j = xor i32 %i, 1
  %pb = getelementptr float, ptr addrspace(1) %a, i32 %j
  %y = load float, ptr addrspace(1) %pb
  %k2 = xor i32 %i, 2
  %pc = getelementptr float, ptr addrspace(1) %a, i32 %k2
  %z = load float, ptr addrspace(1) %pc
  %h1 = call float @llvm.maxnum.f32(float %x, float %y)
  %hi = call float @llvm.maxnum.f32(float %h1, float %z)
  %l1 = call float @llvm.minnum.f32(float %x, float %y)
  %lo = call float @llvm.minnum.f32(float %l1, float %z)
  %c1 = call float @llvm.maxnum.f32(float %x, float -0.5)
  %cl = call float @llvm.minnum.f32(float %c1, float 0.5)
  %hb = bitcast float %hi to i32
  %lb = bitcast float %lo to i32
  %cb = bitcast float %cl to i32
  %lc = xor i32 %lb, %cb
  %h64 = zext i32 %hb to i64
  %l64 = zext i32 %lc to i64
  %hs = shl i64 %h64, 32
  %r = or i64 %hs, %l64
  %po = getelementptr i64, ptr addrspace(1) %out, i32 %i
  store i64 %r, ptr addrspace(1) %po
  ret void
}
"""


def host_values(family: str, a: np.ndarray, m: int) -> np.ndarray:
    i = np.arange(N)
    if family == "valu":
        s = a.astype(np.uint64) * np.uint64(m) + np.uint64(12345678901)
        g = (a.astype(np.float64) * 1.5 - 3.25).astype(np.float32).astype(np.int64)  # exact: fma's value
        return s ^ g.view(np.uint64)
    if family == "salu":
        return ((np.uint64(m) + (i // BLOCK).astype(np.uint64) - np.uint64(7)) << np.uint64(3))
    if family == "lds":
        return a[(i // BLOCK) * BLOCK + (BLOCK - 1 - i % BLOCK)].astype(np.uint64)
    if family == "minmax":
        x = a.view(np.float32)
        y = x[i ^ 1]
        return (np.fmax(x, y).view(np.uint32).astype(np.uint64) << np.uint64(32)) | \
            np.fmin(x, y).view(np.uint32).astype(np.uint64)
    if family == "minmax3":
        x = a.view(np.float32)
        y, z = x[i ^ 1], x[i ^ 2]
        clamp = np.fmin(np.fmax(x, np.float32(-0.5)), np.float32(0.5))
        low = np.fmin(np.fmin(x, y), z).view(np.uint32) ^ clamp.view(np.uint32)
        return (np.fmax(np.fmax(x, y), z).view(np.uint32).astype(np.uint64) << np.uint64(32)) | low.astype(np.uint64)
    if family == "scalar_float":
        d = (np.uint64(m & 0xFFFFFFFF) + (i // BLOCK).astype(np.uint64))
        bonus = np.where(np.float32(1) / d.astype(np.float32) >= np.float32(0.01), d, np.uint64(0))
        return a.astype(np.uint64) * np.uint64(1000003) + a.astype(np.uint64) // d - np.uint64(1234) + bonus
    out = np.zeros(N, np.uint64)
    np.add.at(out, i & 7, a.astype(np.uint64))
    return out


KERNELS = {"valu": VALU, "salu": SALU, "lds": LDS, "atomic": ATOMIC, "scalar_float": SCALAR_FLOAT,
           "minmax": MINMAX, "minmax3": MINMAX3}


@pytest.mark.parametrize("family", list(KERNELS))
def test_family_matches_the_host_on_every_target(family):
    rng = np.random.default_rng(7)
    a = rng.integers(0, 2**20, N, dtype=np.uint32)
    if family in ("minmax", "minmax3"):   # floats, every 5th a quiet NaN (no +-0 pairs: their order is the ISA's)
        a = np.where(np.arange(N) % 5 == 0, np.float32(np.nan), rng.normal(size=N).astype(np.float32)).view(np.uint32)
    m = 0x1_0000_0062   # 98 + the block index: 1/d crosses 0.01 between the blocks
    results = {}
    for arch in TARGETS:
        dev = build(KERNELS[family], arch)
        out, pa = dev.zeros(N, np.uint64), dev.upload(a)
        pc = dev.upload(np.array([1, 2, 3, -1234, 5], np.int16))
        args = (out, pa, m, pc) if family == "scalar_float" else (out, pa, m)
        dev.run("k", (N // BLOCK, 1, 1), (BLOCK, 1, 1), *args)
        results[arch] = dev.download(out, N, np.uint64)
    np.testing.assert_array_equal(results["gfx1201"], host_values(family, a, m))
    np.testing.assert_array_equal(results["gfx1201"], results["gfx1100"])


def test_gfx12_code_uses_its_own_spellings():
    """The kernels above do exercise gfx12's names (else the tests would prove nothing new)."""
    text = "".join(disassemble(link([assemble(emit_assembly(HEAD + k + TAIL, "gfx1201"), "gfx1201")]))
                   for k in KERNELS.values())
    for word in ("s_wait_loadcnt", "s_wait_kmcnt", "s_barrier_signal", "s_barrier_wait", "ttmp9",
                 "v_mad_co_u64_u32", "s_add_nc_u64", "s_cvt_f32_u32", "s_mul_f32", "s_trunc_f32", "s_fmac_f32", "v_max_num_f32",
                 "v_max3_num_f32", "v_min3_num_f32", "v_med3_num_f32",
                 "th:TH_ATOMIC_RETURN"):
        assert word in text, word


# CDNA (wave64) and RDNA2: the same kernels, compiled by llc-22 (the lifter builds for neither)
OTHER_TARGETS = ["gfx942", "gfx90a", "gfx1030"]


@pytest.mark.parametrize("arch", OTHER_TARGETS)
@pytest.mark.parametrize("family", list(KERNELS))
def test_family_matches_the_host_on_cdna_and_rdna2(family, arch):
    rng = np.random.default_rng(7)
    a = rng.integers(0, 2**20, N, dtype=np.uint32)
    if family in ("minmax", "minmax3"):
        a = np.where(np.arange(N) % 5 == 0, np.float32(np.nan), rng.normal(size=N).astype(np.float32)).view(np.uint32)
    m = 0x1_0000_0062
    dev = Device(llc_code_object(HEAD + KERNELS[family] + TAIL, arch))
    out, pa = dev.zeros(N, np.uint64), dev.upload(a)
    pc = dev.upload(np.array([1, 2, 3, -1234, 5], np.int16))
    dev.run("k", (N // BLOCK, 1, 1), (BLOCK, 1, 1), *((out, pa, m, pc) if family == "scalar_float" else (out, pa, m)))
    np.testing.assert_array_equal(dev.download(out, N, np.uint64), host_values(family, a, m))


@pytest.mark.parametrize("arch,words", [
    ("gfx942", ("global_load_dword", "global_store_dwordx2", "s_load_dwordx", "ds_read_b32", "ds_write_b32",
                "v_lshl_add_u64", "v_add_u32", "global_atomic_add_x2", "sc0", "v_subb_co_u32")),
    ("gfx90a", ("global_load_dword", "v_addc_co_u32", "v_pk_mov_b32", "s_load_dwordx", "ds_read_b32")),
    ("gfx1030", ("global_load_dword", "global_store_dwordx2", "s_load_dwordx", "ds_read_b32", "v_add_co_ci_u32")),
])
def test_other_targets_code_uses_its_own_spellings(arch, words):
    text = "".join(disassemble(llc_code_object(HEAD + k + TAIL, arch)) for k in KERNELS.values())
    for word in words:
        assert word in text, word


@pytest.mark.parametrize("text", ["s_barrier_signal 3", "s_barrier_wait 1", "s_barrier_signal m0"])
def test_named_barriers_are_refused_not_run_as_the_workgroup_barrier(text):
    from cass_cc.emu.decode import parse_instruction
    from cass_cc.emu.fault import Unimplemented
    from cass_cc.emu.isa_names import gfx11_mnemonic
    from cass_cc.emu.program import build
    instr = parse_instruction(text, 0, 4)
    instr.mnemonic = gfx11_mnemonic(instr.mnemonic, "gfx12")
    with pytest.raises(Unimplemented, match="named barrier"):
        build(instr)


DPP_GFX10 = """declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.mov.dpp8.i32(i32, i32)
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, i64 %m) {
""" + GID + """  %pa = getelementptr i32, ptr addrspace(1) %a, i32 %i
  %x = load i32, ptr addrspace(1) %pa
  %s = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 339, i32 15, i32 15, i1 false)
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 357, i32 15, i32 15, i1 false)
  %e = call i32 @llvm.amdgcn.mov.dpp8.i32(i32 %x, i32 SEL8)
  %s64 = zext i32 %s to i64
  %r64 = zext i32 %r to i64
  %sh = shl i64 %s64, 32
  %sr = or i64 %sh, %r64
  %e64 = zext i32 %e to i64
  %out3 = mul i64 %e64, 1000003
  %res = xor i64 %sr, %out3
  %po = getelementptr i64, ptr addrspace(1) %out, i32 %i
  store i64 %res, ptr addrspace(1) %po
  ret void
}
"""


def test_gfx10_dpp16_and_dpp8_on_gfx1030():
    """row_share:3 (DppCtrl 0x153), row_xmask:5 (0x165) and dpp8 on RDNA2's wave32."""
    sel = [7, 0, 3, 3, 1, 6, 2, 5]
    packed = sum(s << (3 * k) for k, s in enumerate(sel))
    dev = Device(llc_code_object(HEAD + DPP_GFX10.replace("SEL8", str(packed)) + TAIL, "gfx1030"))
    a = np.random.default_rng(5).integers(0, 2**32, N, dtype=np.uint32)
    out, pa = dev.zeros(N, np.uint64), dev.upload(a)
    dev.run("k", (N // BLOCK, 1, 1), (BLOCK, 1, 1), out, pa, 0)
    i = np.arange(N)
    wave, lane = i - i % 32, i % 32
    share = a[wave + (lane & ~15) + 3].astype(np.uint64)
    xmask = a[wave + (lane & ~15) + ((lane & 15) ^ 5)].astype(np.uint64)
    dpp8 = a[wave + (lane & ~7) + np.array(sel)[lane & 7]].astype(np.uint64)
    expect = ((share << np.uint64(32)) | xmask) ^ (dpp8 * np.uint64(1000003))
    np.testing.assert_array_equal(dev.download(out, N, np.uint64), expect)


@pytest.mark.parametrize("arch", ["gfx942", "gfx90a", "gfx1030", "gfx1100"])
def test_private_arrays_and_calls(arch):
    """out[t] = arr[t & 15] with arr[j] = j * t in the lane's scratch, read in a callee (whose
    stack pointer on MUBUF targets counts the wave's bytes)."""
    dev = Device(llc_code_object((KERNEL_DIR / "private_call.ll").read_text(), arch))
    out, unused = dev.zeros(128, np.uint32), dev.zeros(1, np.uint32)
    dev.run("k", (1, 1, 1), (128, 1, 1), out, unused)
    t = np.arange(128, dtype=np.uint32)
    np.testing.assert_array_equal(dev.download(out, 128, np.uint32), (t & 15) * t)
