"""M0-relative VGPR moves (hipcc's code for dynamically indexed private arrays): v_movrels_b32,
v_movreld_b32, v_movrelsd_b32, v_movrelsd_2_b32 — the index from M0 per wave, EXEC, the 10-bit
fields of movrelsd_2, and the out-of-range rule (a source past the wave's VGPRs reads VGPR0, a
destination past them is not written). Assembled with llvm-mc-22, run on the emulator; and hipcc's
own use of them for a private array indexed by a uniform runtime value."""

from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu.decode import decode

from .emu_build import Device, asm_device, compile_hip

LANE = np.arange(32, dtype=np.uint32)
ARRAY = 8                                      # the "array": v8..v15, element i = lane * 16 + i
FILL = "".join(f"  v_lshl_add_u32 v{ARRAY + i}, v0, 4, {i}\n" for i in range(8))


def _run(body: str, n_out: int = 32, groups: int = 1) -> np.ndarray:
    dev = asm_device(FILL + body)
    out = dev.zeros(n_out, np.uint32)
    dev.run("k", groups, 32, out)
    return dev.download(out, n_out, np.uint32)


def _element(i) -> np.ndarray:
    return LANE * 16 + np.uint32(i)


def test_movrels_reads_base_plus_m0():
    out = _run("""
  s_mov_b32 m0, 5
  v_movrels_b32 v2, v8                       ; v2 = v13
  global_store_b32 v1, v2, s[4:5]
""")
    assert np.array_equal(out, _element(5))


def test_movrels_vop3_form_and_zero_index():
    out = _run("""
  s_mov_b32 m0, 0
  v_movrels_b32_e64 v2, v10                  ; v2 = v10
  global_store_b32 v1, v2, s[4:5]
""")
    assert np.array_equal(out, _element(2))


def test_movreld_writes_base_plus_m0_from_vgpr_sgpr_and_constant():
    out = _run("""
  v_mov_b32 v3, 0x700
  s_mov_b32 m0, 2
  v_movreld_b32 v8, v3                       ; v10 = 0x700
  s_movk_i32 s9, 0x900
  s_mov_b32 m0, 4
  v_movreld_b32 v8, s9                       ; v12 = 0x900
  s_mov_b32 m0, 7
  v_movreld_b32 v8, -3                       ; v15 = -3
  global_store_b32 v1, v8, s[4:5]
  global_store_b32 v1, v10, s[4:5] offset:128
  global_store_b32 v1, v12, s[4:5] offset:256
  global_store_b32 v1, v15, s[4:5] offset:384
  global_store_b32 v1, v11, s[4:5] offset:512
""", n_out=160)
    assert np.array_equal(out[:32], _element(0))
    assert (out[32:64] == 0x700).all()
    assert (out[64:96] == 0x900).all()
    assert (out[96:128] == np.uint32(-3 & 0xFFFFFFFF)).all()
    assert np.array_equal(out[128:], _element(3))        # neighbours untouched


def test_movrelsd_offsets_both_operands():
    out = _run("""
  s_mov_b32 m0, 3
  v_movrelsd_b32 v8, v12                     ; v11 = v15
  global_store_b32 v1, v11, s[4:5]
""")
    assert np.array_equal(out, _element(7))


def test_movrelsd_2_uses_separate_10_bit_fields():
    # source offset M0[9:0] = 2, destination offset M0[25:16] = 3; the other bits are ignored
    out = _run("""
  s_mov_b32 m0, 0xfc03fc02
  v_movrelsd_2_b32 v8, v12                   ; v11 = v14
  global_store_b32 v1, v11, s[4:5]
  global_store_b32 v1, v10, s[4:5] offset:128
""", n_out=64)
    assert np.array_equal(out[:32], _element(6))
    assert np.array_equal(out[32:], _element(2))


def test_exec_masks_movreld():
    out = _run("""
  v_mov_b32 v3, 0x55
  s_mov_b32 m0, 1
  s_mov_b32 s12, exec_lo
  s_mov_b32 exec_lo, 0xffff
  v_movreld_b32 v9, v3                       ; v10 = 0x55 in lanes 0-15 only
  s_mov_b32 exec_lo, s12
  global_store_b32 v1, v10, s[4:5]
""")
    assert np.array_equal(out, np.where(LANE < 16, 0x55, _element(2)))


def test_m0_differs_per_wave():
    # two workgroups, one wave each: M0 = workgroup id, so wave 1 reads one element further
    out = _run("""
  s_mov_b32 m0, s2
  v_movrels_b32 v2, v9
  s_lshl_b32 s3, s2, 7
  v_add_nc_u32 v1, s3, v1
  global_store_b32 v1, v2, s[4:5]
""", n_out=64, groups=2)
    assert np.array_equal(out[:32], _element(1))
    assert np.array_equal(out[32:], _element(2))


def test_out_of_range_source_reads_vgpr0_and_destination_is_dropped():
    out = _run("""
  v_mov_b32 v3, 0x77
  s_mov_b32 m0, 1000
  v_movrels_b32 v2, v8                       ; past the last VGPR: reads v0 (the lane id)
  v_movreld_b32 v8, v3                       ; past the last VGPR: no write anywhere
  global_store_b32 v1, v2, s[4:5]
  global_store_b32 v1, v0, s[4:5] offset:128
  global_store_b32 v1, v8, s[4:5] offset:256
""", n_out=96)
    assert np.array_equal(out[:32], LANE)
    assert np.array_equal(out[32:64], LANE)
    assert np.array_equal(out[64:], _element(0))


HIP_KERNEL = """#include <hip/hip_runtime.h>
// a private array indexed by a runtime value uniform across the wave: hipcc keeps it in VGPRs
// and reaches it with s_mov_b32 m0 + v_movreld_b32 (the stores) and v_movrels_b32 (the loads)
extern "C" __global__ void pick(float *out, const float *in, int n) {
  int t = threadIdx.x;
  float w[8];
  for (int i = 0; i < 8; ++i) w[i] = in[t * 8 + i];
  for (int i = 0; i < n; ++i) w[(i * 3 + n) & 7] += i * t;
  float s = 0;
  for (int i = 0; i < n; ++i) s += (i + 1) * w[(i * 5 + n) & 7];
  out[t] = s;
}
"""


@pytest.fixture(scope="module")
def pick_code(tmp_path_factory) -> bytes:
    source = tmp_path_factory.mktemp("movrel") / "pick.hip"
    source.write_text(HIP_KERNEL)
    return compile_hip(source)


def test_hipcc_dynamically_indexed_private_array(pick_code):
    assert {"v_movrels_b32_e32", "v_movreld_b32_e32"} <= {i.mnemonic for i in decode(pick_code, 0).values()}
    dev = Device(pick_code)
    w = np.random.default_rng(7).integers(-50, 50, (32, 8)).astype(np.float32)
    for n in (5, 11):
        out = dev.zeros(32, np.float32)
        dev.run("pick", 1, 32, out, dev.upload(w), n)
        want = w.copy()
        for t in range(32):
            for i in range(n):
                want[t, (i * 3 + n) & 7] += np.float32(i * t)
        sums = np.zeros(32, np.float32)
        for i in range(n):
            sums = sums + np.float32(i + 1) * want[:, (i * 5 + n) & 7]
        assert np.array_equal(dev.download(out, 32, np.float32), sums)
