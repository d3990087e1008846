"""The emulator's 64-lane waves (gfx942, gfx90a): lane masks of 64 bits in SGPR pairs (EXEC,
VCC, ballots), lanes 32-63 (exec_hi), readlane/bpermute/DPP across the two halves, v_mbcnt_hi.
Kernels are LLVM IR compiled by llc-22 for the CDNA processor; the values they must produce are
computed on the host from the intrinsics' definitions (LLVM's AMDGPUUsage and the DPP controls
of SIDefines.h: wave_shl/shr/rol/ror by one lane, row_bcast:15/31)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from cass_cc import toolchain

from .emu_build import KERNELS, Device, llc_code_object

ARCHS = ["gfx942", "gfx90a"]
HEAD = """declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
"""
TAIL = '!llvm.module.flags = !{!0}\n!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}\n'
GID = """  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %b = call i32 @llvm.amdgcn.workgroup.id.x()
  %bo = mul i32 %b, BLOCK
  %i = add i32 %bo, %t
  %pa = getelementptr i32, ptr addrspace(1) %a, i32 %i
  %x = load i32, ptr addrspace(1) %pa
  %lane = and i32 %t, 63
"""


def device(body: str, arch: str, block: int) -> Device:
    return Device(llc_code_object(HEAD + body.replace("BLOCK", str(block)) + TAIL, arch))


def run(body: str, arch: str, a: np.ndarray, block: int, out_dtype=np.uint32) -> np.ndarray:
    dev = device(body, arch, block)
    n = len(a)
    out, pa = dev.zeros(n, out_dtype), dev.upload(a)
    dev.run("k", (-(-n // block), 1, 1), (block, 1, 1), out, pa)
    return dev.download(out, n, out_dtype)


def per_wave(a: np.ndarray, block: int):
    """(index of each thread's first lane in its wave, lane) for waves of 64 in blocks."""
    i = np.arange(len(a))
    t = i % block
    return i - t + (t // 64) * 64, t % 64


BALLOT = """define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a) {
""" + GID + """  %odd = and i32 %x, 1
  %c = icmp ne i32 %odd, 0
  %m = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  %hi = lshr i64 %m, 32
  %h = trunc i64 %hi to i32
  %l = trunc i64 %m to i32
  %r = xor i32 %h, %l
  %rr = add i32 %r, %lane
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %rr, ptr addrspace(1) %po
  ret void
}
"""


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("block", [128, 96])
def test_ballot_of_64_lanes(arch, block):
    a = np.random.default_rng(1).integers(0, 2**31, 384, dtype=np.uint32)
    first, lane = per_wave(a, block)
    expect = np.zeros(len(a), np.uint32)
    for k in range(len(a)):
        group_end = (k // block + 1) * block
        bits = a[first[k]:min(first[k] + 64, group_end)] & 1
        mask = sum(int(b) << j for j, b in enumerate(bits))
        expect[k] = ((mask >> 32) ^ (mask & 0xFFFFFFFF)) + lane[k]
    np.testing.assert_array_equal(run(BALLOT, arch, a, block), expect)


READLANE = """define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a) {
""" + GID + """  %r40 = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 40)
  %r7 = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 7)
  %s = sub i32 %r40, %r7
  %src = xor i32 %lane, 32
  %addr = shl i32 %src, 2
  %p = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %x)
  %r = xor i32 %s, %p
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %r, ptr addrspace(1) %po
  ret void
}
"""


@pytest.mark.parametrize("arch", ARCHS)
def test_readlane_40_and_bpermute_across_halves(arch):
    a = np.random.default_rng(2).integers(0, 2**32, 256, dtype=np.uint32)
    first, lane = per_wave(a, 128)
    expect = (a[first + 40] - a[first + 7]) ^ a[first + (lane ^ 32)]
    np.testing.assert_array_equal(run(READLANE, arch, a, 128), expect)


# lanes 40..63 only (EXEC's low half empty): the rank of each among the active lanes whose
# value is odd (mbcnt over a 64-bit ballot), and the first active lane's value
EXEC_HI = """define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a) {
""" + GID + """  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  %upper = icmp uge i32 %lane, 40
  br i1 %upper, label %hi, label %done
hi:
  %odd = and i32 %x, 1
  %c = icmp ne i32 %odd, 0
  %m = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  %ml = trunc i64 %m to i32
  %mh64 = lshr i64 %m, 32
  %mh = trunc i64 %mh64 to i32
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 %ml, i32 0)
  %rank = call i32 @llvm.amdgcn.mbcnt.hi(i32 %mh, i32 %lo)
  %f = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  %fs = shl i32 %f, 8
  %r = or i32 %fs, %rank
  store i32 %r, ptr addrspace(1) %po
  br label %done
done:
  ret void
}
"""


@pytest.mark.parametrize("arch", ARCHS)
def test_exec_hi_only(arch):
    a = np.random.default_rng(3).integers(0, 2**20, 256, dtype=np.uint32)
    first, lane = per_wave(a, 128)
    expect = np.zeros(len(a), np.uint32)
    for k in np.nonzero(lane >= 40)[0]:
        f = first[k]
        below = a[f + 40:f + lane[k]] & 1
        expect[k] = (a[f + 40] << 8) | int(below.sum())
    np.testing.assert_array_equal(run(EXEC_HI, arch, a, 128), expect)


DPP = """define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a) {
""" + GID + """  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 7, i32 %x, i32 CTRL, i32 15, i32 15, i1 BOUND)
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %d, ptr addrspace(1) %po
  ret void
}
"""
# DppCtrl (SIDefines.h) -> the source lane of each lane of 64, or -1 where there is none
DPP_SOURCES = {
    0x130: lambda l: np.where(l < 63, l + 1, -1),          # wave_shl:1
    0x134: lambda l: (l + 1) % 64,                          # wave_rol:1
    0x138: lambda l: l - 1,                                 # wave_shr:1
    0x13C: lambda l: (l - 1) % 64,                          # wave_ror:1
    0x142: lambda l: np.where(l >= 16, (l & ~15) - 1, -1),  # row_bcast:15
    0x143: lambda l: np.where(l >= 32, 31, -1),             # row_bcast:31
    0x111: lambda l: np.where(l & 15 >= 1, l - 1, -1),      # row_shr:1
}


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("ctrl", list(DPP_SOURCES))
@pytest.mark.parametrize("bound_zero", [True, False])
def test_dpp_controls_of_gfx9(arch, ctrl, bound_zero):
    a = np.random.default_rng(4).integers(0, 2**32, 128, dtype=np.uint32)
    body = DPP.replace("CTRL", str(ctrl)).replace("BOUND", "true" if bound_zero else "false")
    first, lane = per_wave(a, 128)
    src = DPP_SOURCES[ctrl](lane)
    expect = np.where(src >= 0, a[first + np.maximum(src, 0)], 0 if bound_zero else 7).astype(np.uint32)
    np.testing.assert_array_equal(run(body, arch, a, 128), expect)


# a wave-uniform atomic add: LLVM counts EXEC's 64 bits (s_bcnt1_i32_b64) and ranks the lanes
# with v_mbcnt_lo/hi to give each its old value
ATOMIC = """define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a) {
""" + GID + """  %keep = icmp ult i32 %lane, 50
  br i1 %keep, label %go, label %done
go:
  %old = atomicrmw add ptr addrspace(1) %a, i32 3 syncscope("agent") monotonic
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %old, ptr addrspace(1) %po
  br label %done
done:
  ret void
}
"""


@pytest.mark.parametrize("arch", ARCHS)
def test_uniform_atomic_counts_64_lanes(arch):
    a = np.zeros(64, np.uint32)
    a[0] = 1000
    dev = device(ATOMIC, arch, 64)
    out, pa = dev.zeros(64, np.uint32), dev.upload(a)
    dev.run("k", (1, 1, 1), (64, 1, 1), out, pa)
    result = dev.download(out, 64, np.uint32)
    assert dev.download(pa, 1, np.uint32)[0] == 1000 + 3 * 50
    # one wave: the lanes' old values are 1000 + 3 * (their rank), in lane order
    np.testing.assert_array_equal(result[:50], 1000 + 3 * np.arange(50))
    assert not result[50:].any()


@pytest.mark.parametrize("arch", ARCHS)
def test_packed_f32_arithmetic(arch):
    """v_pk_add/mul/fma_f32 with op_sel/op_sel_hi/neg on register pairs (integer values: exact)."""
    rng = np.random.default_rng(6)
    x = rng.integers(-64, 64, (64, 2)).astype(np.float32)
    y = rng.integers(-64, 64, (64, 2)).astype(np.float32)
    dev = Device(llc_code_object((KERNELS / "packed_f32.ll").read_text() + TAIL, arch))
    out, pa, pb = dev.zeros(128, np.float32), dev.upload(x.reshape(-1)), dev.upload(y.reshape(-1))
    dev.run("k", (1, 1, 1), (64, 1, 1), out, pa, pb)
    swapped = y[:, ::-1]
    expect = (((x + y) * x * swapped + y) - swapped + np.float32(0.5)) * np.float32(2) + x
    np.testing.assert_array_equal(dev.download(out, 128, np.float32).reshape(64, 2), expect)


@pytest.mark.parametrize("arch", ARCHS)
def test_float_atomics_of_cdna(arch):
    dev = Device(llc_code_object((KERNELS / "float_atomics.ll").read_text(), arch))
    out, old = dev.upload(np.array([0.5, -1.0, 100.0, 0.0], np.float64)), dev.zeros(64, np.float64)
    dev.run("k", (1, 1, 1), (64, 1, 1), out, old)
    result = dev.download(out, 4, np.float64)
    assert result[:3].tolist() == [0.5 + sum(range(64)), 63.0, 0.0]
    assert result[3:].view(np.float32).tolist() == [float(sum(range(64))), 0.0]
    # each lane got the value before its own add, max and min: all different for the add
    assert len(set(dev.download(old, 64, np.float64).tolist())) == 64


SWIZZLE = """declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)
declare i32 @llvm.amdgcn.ds.permute(i32, i32)
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a) {
""" + GID + """  %q = call i32 @llvm.amdgcn.ds.swizzle(i32 %x, i32 32795)
  %sb = call i32 @llvm.amdgcn.ds.swizzle(i32 %x, i32 16415)
  %dst = sub i32 63, %lane
  %addr = shl i32 %dst, 2
  %p = call i32 @llvm.amdgcn.ds.permute(i32 %addr, i32 %x)
  %qb = xor i32 %q, %sb
  %r = add i32 %qb, %p
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %r, ptr addrspace(1) %po
  ret void
}
"""


@pytest.mark.parametrize("arch", ARCHS)
def test_swizzle_and_permute_over_64_lanes(arch):
    """ds_swizzle quad_perm [3,2,1,0] (0x801b) and bit mode xor 0x10 (0x401f: and 0x1f, xor 16,
    within each 32 lanes), ds_permute sending each lane's value to lane 63 - lane."""
    a = np.random.default_rng(8).integers(0, 2**31, 128, dtype=np.uint32)
    first, lane = per_wave(a, 128)
    quad = a[first + (lane & ~3) + (3 - (lane & 3))]
    bits = a[first + (lane ^ 16)]
    permuted = a[first + (63 - lane)]
    np.testing.assert_array_equal(run(SWIZZLE, arch, a, 128), (quad ^ bits) + permuted)


@pytest.mark.parametrize("arch", [*ARCHS, "gfx1030"])
def test_atomic_optimizer_dpp_scan(arch):
    """Lanes 0-119 of a 128-thread block add their values to out[0] and store what they saw:
    within a wave the values seen are the base plus the exclusive prefix sums of the wave's
    values, the waves' bases the start or the start plus the other waves' sums."""
    ir = (KERNELS / "atomic_scan.ll").read_text()
    proc = subprocess.run([toolchain.path("llc"), "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={arch}", "-O2",
                           "-amdgpu-atomic-optimizer-strategy=DPP", "-filetype=obj", "-o", "-"],
                          input=ir.encode(), capture_output=True, check=True)
    from cass_cc.rdna3.tools import link
    dev = Device(link([proc.stdout]))
    x = np.random.default_rng(12).integers(0, 1000, 128, dtype=np.uint32)
    out, pa = dev.upload(np.concatenate([[1000], np.zeros(128, np.uint32)]).astype(np.uint32)), dev.upload(x)
    dev.run("k", (1, 1, 1), (128, 1, 1), out, pa)
    result = dev.download(out, 129, np.uint32)
    assert result[0] == 1000 + x[:120].sum()
    lanes = 64 if arch in ARCHS else 32
    seen = result[1:121]
    bases = set()
    for first in range(0, 120, lanes):
        part, values = seen[first:first + lanes], x[first:min(first + lanes, 120)]
        prefix = np.concatenate([[0], np.cumsum(values)[:-1]]).astype(np.uint32)
        bases.add(int(part[0]))
        np.testing.assert_array_equal(part, part[0] + prefix)
    assert 1000 in bases


@pytest.mark.parametrize("arch", ["gfx1030", "gfx1100"])
@pytest.mark.parametrize("kernel", ["ballot", "exec_hi"])
def test_rdna_kernels_built_for_wave64(arch, kernel):
    """RDNA runs a kernel as wave64 when its descriptor's wave32 bit is clear (llc -mattr=
    +wavefrontsize64): the same 64-lane results as on CDNA."""
    body = {"ballot": BALLOT, "exec_hi": EXEC_HI}[kernel].replace("BLOCK", "128")
    proc = subprocess.run([toolchain.path("llc"), "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={arch}",
                           "-mattr=+wavefrontsize64", "-O2", "-filetype=obj", "-o", "-"],
                          input=(HEAD + body + TAIL).encode(), capture_output=True, check=True)
    from cass_cc.rdna3.tools import link
    rdna, cdna = Device(link([proc.stdout])), device({"ballot": BALLOT, "exec_hi": EXEC_HI}[kernel], "gfx942", 128)
    a = np.random.default_rng(13).integers(0, 2**20, 256, dtype=np.uint32)
    results = []
    for dev in (rdna, cdna):
        out, pa = dev.zeros(256, np.uint32), dev.upload(a)
        dev.run("k", (2, 1, 1), (128, 1, 1), out, pa)
        results.append(dev.download(out, 256, np.uint32))
    np.testing.assert_array_equal(results[0], results[1])
    assert results[0].any()
