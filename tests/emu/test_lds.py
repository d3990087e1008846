"""LDS (DS) loads, stores and atomics across the waves of a workgroup with s_barrier, and the
cross-lane DS instructions ds_bpermute_b32, ds_permute_b32, ds_swizzle_b32."""

from __future__ import annotations

import numpy as np

from .emu_build import asm_device


def _run(body: str, block: int, grid: int = 1, lds: int = 1024, n_out=None) -> np.ndarray:
    dev = asm_device(body, lds=lds)
    n = n_out or block * grid
    out = dev.zeros(n, np.uint32)
    dev.run("k", grid, block, out)
    return dev.download(out, n, np.uint32)


def test_barrier_orders_lds_across_waves_of_a_workgroup():
    # 4 waves: each thread writes LDS[t], barrier, then reads LDS[(t + 37) % 128] (another wave's)
    out = _run("""
  v_and_b32 v2, 0x3ff, v0                   ; thread id
  v_lshlrev_b32 v3, 2, v2
  v_mad_u32_u24 v4, v2, 3, s2              ; 3 * t + workgroup id
  ds_store_b32 v3, v4
  s_barrier
  v_add_nc_u32 v5, 37, v2
  v_and_b32 v5, 0x7f, v5
  v_lshlrev_b32 v5, 2, v5
  ds_load_b32 v6, v5
  s_lshl_b32 s10, s2, 9                     ; 128 threads * 4 bytes per workgroup
  v_add_nc_u32 v3, s10, v3
  global_store_b32 v3, v6, s[4:5]
""", block=128, grid=2)
    t = np.arange(128)
    expect = np.concatenate([3 * ((t + 37) % 128) + g for g in range(2)])
    assert np.array_equal(out, expect)


def test_lds_atomics_2addr_and_wide_accesses():
    out = _run("""
  v_and_b32 v2, 0x3ff, v0
  v_mov_b32 v3, 0
  v_cmp_eq_u32 vcc_lo, 0, v2
  s_and_saveexec_b32 s10, vcc_lo
  ds_store_2addr_b32 v3, v3, v3 offset0:0 offset1:1   ; zero the two counters
  s_or_b32 exec_lo, exec_lo, s10
  s_barrier
  v_mov_b32 v4, 1
  ds_add_rtn_u32 v5, v3, v4                 ; ranks 0..63 in wave then lane order
  ds_max_u32 v3, v2 offset:4
  s_barrier
  ds_load_2addr_b32 v[6:7], v3 offset0:0 offset1:1
  v_lshlrev_b32 v8, 4, v2
  v_add_nc_u32 v8, 16, v8
  v_mov_b32 v9, v5
  v_mov_b32 v10, v6
  v_mov_b32 v11, v7
  v_mov_b32 v12, v2
  ds_store_b128 v8, v[9:12]
  ds_load_b128 v[13:16], v8
  v_lshlrev_b32 v17, 2, v2
  v_mul_u32_u24 v18, v13, 1000000
  v_mad_u32_u24 v18, v14, 1000, v18
  v_add_nc_u32 v18, v18, v15
  global_store_b32 v17, v18, s[4:5]
""", block=64, lds=2048)
    assert out.tolist() == [r * 1000000 + 64 * 1000 + 63 for r in range(64)]


def test_bpermute_permute_and_swizzle():
    out = _run("""
  v_and_b32 v2, 0x3ff, v0
  v_mul_lo_u32 v3, v2, 10                   ; value = 10 * lane
  v_xor_b32 v4, 5, v2
  v_lshlrev_b32 v4, 2, v4                   ; address of lane ^ 5
  ds_bpermute_b32 v5, v4, v3                ; v5 = 10 * (lane ^ 5)
  v_add_nc_u32 v6, 1, v2
  v_and_b32 v6, 31, v6
  v_lshlrev_b32 v6, 2, v6
  ds_permute_b32 v7, v6, v3                 ; lane+1 receives 10 * lane
  ds_swizzle_b32 v8, v3 offset:swizzle(SWAP,16)
  ds_swizzle_b32 v9, v3 offset:swizzle(QUAD_PERM,3,2,1,0)
  ds_swizzle_b32 v10, v3 offset:swizzle(BITMASK_PERM,"00p00")
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v11, 4, v2
  global_store_b32 v11, v5, s[4:5]
  global_store_b32 v11, v7, s[4:5] offset:4
  global_store_b32 v11, v8, s[4:5] offset:8
  v_lshl_or_b32 v9, v9, 16, v10
  global_store_b32 v11, v9, s[4:5] offset:12
""", block=32, n_out=128)
    r = out.reshape(32, 4)
    lane = np.arange(32)
    assert np.array_equal(r[:, 0], 10 * (lane ^ 5))
    assert np.array_equal(r[:, 1], 10 * ((lane - 1) % 32))
    assert np.array_equal(r[:, 2], 10 * (lane ^ 16))
    assert np.array_equal(r[:, 3], (10 * ((lane & ~3) | (3 - (lane & 3)))) << 16 | 10 * (lane & 4))


def test_lds_address_wraps_at_32_bits():
    # hipcc emits ds_load_b32 v0, v15 offset:508 with v15 = -4 * lane: the sum wraps to 508 - 4 * lane
    out = _run("""
  v_and_b32 v2, 0x3ff, v0
  v_lshlrev_b32 v3, 2, v2
  ds_store_b32 v3, v2 offset:0
  s_barrier
  v_sub_nc_u32 v4, 0, v3                    ; -4 * lane
  ds_load_b32 v5, v4 offset:124             ; LDS[31 - lane]
  global_store_b32 v3, v5, s[4:5]
""", block=32)
    assert out.tolist() == list(range(31, -1, -1))


def test_append_and_consume_count_active_lanes():
    # LDS[20] starts at 100; wave 0 appends with all 32 lanes, wave 1 with 10, in wave order;
    # then every lane of both waves consumes; lane results go to out[t], the final count to out[64]
    out = _run("""
  v_and_b32 v2, 0x3ff, v0
  v_mov_b32 v3, 100
  v_mov_b32 v4, 20
  v_mov_b32 v5, 0
  v_cmp_eq_u32 vcc_lo, 0, v2
  s_and_saveexec_b32 s10, vcc_lo
  ds_store_b32 v4, v3                       ; thread 0 sets the counter
  s_mov_b32 exec_lo, s10
  s_waitcnt lgkmcnt(0)
  s_barrier
  s_mov_b32 m0, 16
  v_cmp_gt_u32 vcc_lo, 42, v2               ; wave 1: lanes 32..41 active
  s_and_saveexec_b32 s10, vcc_lo
  ds_append v5 offset:4
  s_mov_b32 exec_lo, s10
  s_barrier
  s_mov_b32 m0, 20
  ds_consume v6
  s_barrier
  v_lshlrev_b32 v7, 2, v2
  v_add_nc_u32 v5, v5, v6                   ; append result + consume result, per lane
  global_store_b32 v7, v5, s[4:5]
  v_mov_b32 v8, 0
  ds_load_b32 v9, v4
  s_waitcnt lgkmcnt(0)
  global_store_b32 v8, v9, s[4:5] offset:256
""", block=64, lds=64, n_out=65)
    # appends: wave 0 gets 100 (counter 132), wave 1's 10 lanes get 132 (counter 142);
    # consumes: wave 0 gets 142 (counter 110), wave 1 gets 110 (counter 78)
    assert out[:32].tolist() == [100 + 142] * 32
    assert out[32:42].tolist() == [132 + 110] * 10
    assert out[42:64].tolist() == [110] * 22            # inactive in the append: v5 kept 0
    assert out[64] == 78


def test_unaligned_dword_store_and_load():
    # each lane stores a dword at byte 4*t + 2 (straddling two aligned dwords) and reads it back,
    # whole and by its upper half
    out = _run("""
  v_and_b32 v2, 0x3ff, v0
  v_lshlrev_b32 v3, 2, v2
  v_add_nc_u32 v4, 0x11110000, v2            ; value: 0x1111_00tt
  ds_store_b32 v3, v4 offset:2
  s_waitcnt lgkmcnt(0)
  ds_load_b32 v5, v3 offset:2
  ds_load_u16 v6, v3 offset:4
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v7, 3, v2
  global_store_b32 v7, v5, s[4:5]
  global_store_b32 v7, v6, s[4:5] offset:4
""", block=32, lds=256, n_out=64)
    t = np.arange(32)
    assert out[0::2].tolist() == (0x11110000 | t).tolist()
    assert out[1::2].tolist() == [0x1111] * 32
