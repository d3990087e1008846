"""GLOBAL, FLAT, SCRATCH and SMEM loads, stores and atomics of every width, in gfx1100 assembly."""

from __future__ import annotations

import numpy as np
import pytest

from .emu_build import asm_device

LANE = np.arange(32)


def _dev(body, npointers=2, **kw):
    return asm_device(body, npointers=npointers, **kw)


def test_subdword_and_d16_loads_and_stores():
    src = np.arange(256, dtype=np.uint8) * 7 + 200       # mixes bytes with the sign bit set
    dev = _dev("""
  v_lshrrev_b32 v2, 2, v1                     ; lane = byte offset
  global_load_u8 v3, v2, s[4:5]
  global_load_i8 v4, v2, s[4:5]
  v_lshlrev_b32 v5, 1, v2
  global_load_u16 v6, v5, s[4:5]
  global_load_i16 v7, v5, s[4:5]
  v_mov_b32 v8, 0x12345678
  global_load_d16_b16 v8, v5, s[4:5]          ; low half replaced
  v_mov_b32 v9, 0x12345678
  global_load_d16_hi_b16 v9, v5, s[4:5]       ; high half replaced
  v_lshlrev_b32 v10, 5, v2                    ; 32 bytes per lane in the output
  global_store_b32 v10, v3, s[6:7]
  global_store_b32 v10, v4, s[6:7] offset:4
  global_store_b32 v10, v6, s[6:7] offset:8
  global_store_b32 v10, v7, s[6:7] offset:12
  global_store_b32 v10, v8, s[6:7] offset:16
  global_store_b32 v10, v9, s[6:7] offset:20
  global_store_b8 v10, v9, s[6:7] offset:24
  global_store_d16_hi_b16 v10, v9, s[6:7] offset:26
""")
    psrc, pout = dev.upload(src), dev.zeros(32 * 8, np.uint32)
    dev.run("k", 1, 32, psrc, pout)
    out = dev.download(pout, 32 * 8, np.uint32).reshape(32, 8)
    h = src.view(np.uint16).astype(np.uint32)
    assert np.array_equal(out[:, 0], src[:32])
    assert np.array_equal(out[:, 1], src[:32].view(np.int8).astype(np.int32).view(np.uint32))
    assert np.array_equal(out[:, 2], h[:32])
    assert np.array_equal(out[:, 3], src.view(np.int16)[:32].astype(np.int32).view(np.uint32))
    assert np.array_equal(out[:, 4], 0x12340000 | h[:32])
    assert np.array_equal(out[:, 5], (h[:32].astype(np.uint32) << 16) | 0x5678)
    assert np.array_equal(out[:, 6], 0x78 | (h[:32].astype(np.uint32) << 16))


def test_wide_loads_and_stores_with_vgpr_pair_address():
    src = np.arange(32 * 4, dtype=np.uint32) * 3 + 1
    dev = _dev("""
  v_lshlrev_b32 v2, 2, v1                     ; 16 bytes per lane
  v_add_co_u32 v4, vcc_lo, s4, v2
  v_add_co_ci_u32_e64 v5, null, s5, 0, vcc_lo
  global_load_b128 v[8:11], v[4:5], off
  global_load_b96 v[12:14], v[4:5], off offset:4
  global_load_b64 v[16:17], v2, s[4:5] offset:8
  v_add_nc_u32 v8, v8, v12                   ; d0 + d1
  v_add_nc_u32 v9, v9, v13                   ; d1 + d2
  v_add_nc_u32 v10, v10, v16                 ; d2 + d2
  v_add_nc_u32 v11, v11, v17                 ; d3 + d3
  global_store_b128 v2, v[8:11], s[6:7]
""")
    psrc, pout = dev.upload(src), dev.zeros(32 * 4, np.uint32)
    dev.run("k", 1, 32, psrc, pout)
    d = src.reshape(32, 4)
    expect = np.stack([d[:, 0] + d[:, 1], d[:, 1] + d[:, 2], 2 * d[:, 2], 2 * d[:, 3]], 1)
    assert np.array_equal(dev.download(pout, 128, np.uint32).reshape(32, 4), expect)


def test_global_atomics_return_old_values_in_lane_order():
    dev = _dev("""
  v_mov_b32 v2, 0
  v_mov_b32 v3, 1
  global_atomic_add_u32 v4, v2, v3, s[4:5] glc          ; all lanes hit one counter: old = lane
  v_lshrrev_b32 v5, 2, v1
  global_atomic_max_i32 v2, v5, s[4:5] offset:4         ; no return
  v_sub_nc_u32 v6, 0, v5
  global_atomic_min_i32 v2, v6, s[4:5] offset:8
  v_mov_b32 v7, 5
  global_atomic_inc_u32 v2, v7, s[4:5] offset:12        ; wraps to 0 after 5
  v_mov_b32 v8, 1.0
  global_atomic_add_f32 v2, v8, s[4:5] offset:16
  v_mov_b32 v10, 3                                      ; cmpswap: new = 3 if memory == 0
  v_mov_b32 v11, 0
  global_atomic_cmpswap_b32 v12, v2, v[10:11], s[4:5] offset:20 glc
  v_mov_b32 v14, 1
  v_mov_b32 v15, 0
  global_atomic_add_u64 v2, v[14:15], s[4:5] offset:24
  global_store_b32 v1, v4, s[6:7]
  global_store_b32 v1, v12, s[6:7] offset:128
""")
    cells, pout = dev.upload(np.array([0, 0, 0, 0, 0, 0, 0xFFFFFFFF, 0], np.uint32)), dev.zeros(64, np.uint32)
    dev.run("k", 1, 32, cells, pout)
    c = dev.download(cells, 8, np.uint32)
    assert c[:3].tolist() == [32, 31, (-31) & 0xFFFFFFFF]
    inc = 0
    for _ in range(32):
        inc = 0 if inc >= 5 else inc + 1
    assert c[3] == inc
    assert c[4].view(np.float32) == 32.0 and c[5] == 3
    assert int(c[6]) | int(c[7]) << 32 == 0xFFFFFFFF + 32
    out = dev.download(pout, 64, np.uint32)
    assert out[:32].tolist() == list(range(32))
    assert out[32:].tolist() == [0] + [3] * 31


def test_flat_atomics_the_lifter_emits_in_both_apertures():
    """The native atomics CUDA's atomicDec/Min/Max/And/Or/Xor and float atomicAdd lift to, through
    flat pointers into global memory and into LDS (a generic pointer to __shared__), with and
    without a result; denormal sums are kept, as the gfx11 instruction keeps them."""
    dev = _dev("""
  v_mov_b32 v2, 0
  ds_store_b32 v2, v2                          ; LDS cell 0 = 0
  v_mov_b32 v20, 0
  s_barrier
  v_lshrrev_b32 v3, 2, v1                      ; lane
  v_mov_b32 v4, s4
  v_mov_b32 v5, s5                             ; flat pointer to cells
  s_mov_b64 s[10:11], src_shared_base
  v_mov_b32 v6, 0
  v_mov_b32 v7, s11                            ; flat pointer to LDS cell 0
  v_mov_b32 v8, 9
  flat_atomic_dec_u32 v9, v[4:5], v8 glc       ; from 3: 3 2 1 0 9 8 ...
  flat_atomic_dec_u32 v[6:7], v8               ; LDS: 0 9 8 ... wraps the same way
  flat_atomic_min_u32 v[4:5], v3 offset:4
  flat_atomic_max_u32 v[4:5], v3 offset:8
  v_lshlrev_b32 v10, v3, 1
  flat_atomic_and_b32 v[4:5], v10 offset:12    ; clears every lane's bit
  flat_atomic_or_b32 v[4:5], v10 offset:16
  flat_atomic_xor_b32 v11, v[4:5], v10 offset:20 glc
  v_mov_b32 v12, 0x00000001                    ; the smallest denormal
  flat_atomic_add_f32 v[4:5], v12 offset:24
  s_barrier
  ds_load_b32 v13, v20
  s_waitcnt lgkmcnt(0)
  global_store_b32 v1, v9, s[6:7]
  global_store_b32 v1, v11, s[6:7] offset:128
  global_store_b32 v1, v13, s[6:7] offset:256
""", lds=64)
    cells = dev.upload(np.array([3, 0xFFFFFFFF, 0, 0xFFFFFFFF, 0, 0, 0], np.uint32))
    pout = dev.zeros(96, np.uint32)
    dev.run("k", 1, 32, cells, pout)
    c = dev.download(cells, 7, np.uint32)
    olds = dev.download(pout, 96, np.uint32).reshape(3, 32)
    decs = [3]
    for _ in range(32):
        decs.append(9 if decs[-1] == 0 or decs[-1] > 9 else decs[-1] - 1)
    assert olds[0].tolist() == decs[:32] and c[0] == decs[32]
    lds = 0
    for _ in range(32):
        lds = 9 if lds == 0 or lds > 9 else lds - 1
    assert olds[2].tolist() == [lds] * 32
    assert c[1:6].tolist() == [0, 31, 0, 0xFFFFFFFF, 0xFFFFFFFF]
    xors = np.bitwise_xor.accumulate(np.uint32(1) << np.arange(32, dtype=np.uint32))
    assert olds[1].tolist() == [0] + xors[:31].tolist()
    assert c[6] == 32                            # 32 smallest denormals, none flushed


def test_flat_reaches_global_and_lds_through_the_aperture():
    dev = _dev("""
  v_lshrrev_b32 v2, 2, v1
  ds_store_b32 v1, v2                          ; LDS[lane] = lane
  s_mov_b64 s[10:11], src_shared_base
  v_mov_b32 v4, v1
  v_mov_b32 v5, s11                            ; flat pointer to LDS
  flat_load_b32 v6, v[4:5]
  v_add_co_u32 v8, vcc_lo, s6, v1
  v_add_co_ci_u32_e64 v9, null, s7, 0, vcc_lo
  v_add_nc_u32 v6, 10, v6
  flat_store_b32 v[8:9], v6
""", lds=128)
    pout = dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, dev.zeros(1, np.uint32), pout)
    assert dev.download(pout, 32, np.uint32).tolist() == [i + 10 for i in range(32)]


def test_scratch_is_private_per_lane():
    dev = _dev("""
  v_lshrrev_b32 v2, 2, v1
  s_mov_b32 s32, 16
  v_mov_b32 v3, 0
  scratch_store_b32 off, v2, s32 offset:4      ; every lane: same offset, own memory
  v_add_nc_u32 v4, 1, v2
  v_add_nc_u32 v5, 2, v2
  v_mov_b32 v10, 32
  scratch_store_b64 v10, v[4:5], off
  scratch_load_b32 v6, off, s32 offset:4
  scratch_load_b64 v[7:8], v10, off
  v_add3_u32 v6, v6, v7, v8                    ; 3 * lane + 3
  global_store_b32 v1, v6, s[6:7]
""", scratch=64)
    pout = dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, dev.zeros(1, np.uint32), pout)
    assert dev.download(pout, 32, np.uint32).tolist() == [3 * i + 3 for i in range(32)]


def test_scalar_loads_of_every_width():
    src = np.arange(64, dtype=np.uint32) * 11
    dev = _dev("""
  s_load_b32 s10, s[4:5], 0x4
  s_load_b64 s[12:13], s[4:5], 0x8
  s_load_b128 s[16:19], s[4:5], 0x10
  s_load_b256 s[24:31], s[4:5], 0x20
  s_mov_b32 s40, 0x40
  s_load_b512 s[48:63], s[4:5], s40
  s_waitcnt lgkmcnt(0)
  s_add_u32 s10, s10, s13
  s_add_u32 s10, s10, s19
  s_add_u32 s10, s10, s31
  s_add_u32 s10, s10, s63
  v_mov_b32 v2, s10
  global_store_b32 v1, v2, s[6:7]
""")
    pout = dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, dev.upload(src), pout)
    assert set(dev.download(pout, 32, np.uint32).tolist()) == {int(src[1] + src[3] + src[7] + src[15] + src[31])}


def test_widened_scalar_load_past_the_end_of_an_allocation():
    # the compiler may load a 12-byte struct with s_load_b128: the fourth dword reads as zero
    dev = _dev("""
  s_load_b128 s[12:15], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  s_add_u32 s12, s12, s13
  s_add_u32 s12, s12, s14
  s_add_u32 s12, s12, s15
  v_mov_b32 v2, s12
  global_store_b32 v1, v2, s[6:7]
""")
    pout = dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, dev.upload(np.array([1, 20, 300], np.uint32)), pout)
    assert set(dev.download(pout, 32, np.uint32).tolist()) == {321}


def test_buffer_loads_and_stores_through_a_descriptor():
    src = np.arange(64, dtype=np.uint32) * 5
    dev = _dev("""
  s_mov_b32 s8, s4                            ; descriptor: base = src, stride 8 bytes
  s_and_b32 s9, s5, 0xffff
  s_or_b32 s9, s9, 0x80000
  s_mov_b32 s10, -1
  s_mov_b32 s11, 0x30000000                   ; OOB_SELECT 3: raw range check (what LLVM sets)
  v_lshrrev_b32 v2, 2, v1                     ; index = lane
  buffer_load_b32 v3, v2, s[8:11], 0 idxen offset:4     ; src[2 * lane + 1]
  buffer_load_b32 v4, v1, s[8:11], 4 offen              ; src[lane + 1]
  v_add_nc_u32 v3, v3, v4
  global_store_b32 v1, v3, s[6:7]
""")
    pout = dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, dev.upload(src), pout)
    lane = np.arange(32)
    assert dev.download(pout, 32, np.uint32).tolist() == (src[2 * lane + 1] + src[lane + 1]).tolist()


def test_flat_atomics_on_lds_through_the_aperture():
    dev = _dev("""
  v_mov_b32 v2, 0
  ds_store_b32 v2, v2
  s_mov_b64 s[10:11], src_shared_base
  v_mov_b32 v4, 0
  v_mov_b32 v5, s11
  v_mov_b32 v6, 2
  flat_atomic_add_u32 v7, v[4:5], v6 glc      ; old values 0, 2, 4, ...
  global_store_b32 v1, v7, s[6:7]
""", lds=64)
    pout = dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, dev.zeros(1, np.uint32), pout)
    assert dev.download(pout, 32, np.uint32).tolist() == [2 * i for i in range(32)]


@pytest.mark.parametrize("text", ["buffer_load_dword v1, off, s[0:3], 0 lds", "global_load_dword v1, v[2:3], off tfe"])
def test_loads_to_lds_and_fault_status_are_refused(text):
    from cass_cc.emu.decode import parse_instruction
    from cass_cc.emu.fault import Unimplemented
    from cass_cc.emu.isa_names import gfx11_mnemonic
    from cass_cc.emu.program import build
    instr = parse_instruction(text, 0, 8)
    instr.mnemonic = gfx11_mnemonic(instr.mnemonic, "gfx9")
    with pytest.raises(Unimplemented, match="modifier"):
        build(instr)
