"""Compare-and-swap in every memory space: operand order (RDNA3 global/flat/buffer vdata =
{new, cmp}; ds_cmpstore takes data then cmp), 32 and 64 bits, returned pre-op values, and many
lanes of one wave on one address applied one after another in lane order."""

from __future__ import annotations

import numpy as np
import pytest

from .emu_build import KERNELS, Device, asm_device, compile_hip

# Every lane tries cmpswap(mem, cmp=lane, new=lane+1) on one word holding 0: applied in lane
# order, lane i sees i (its own compare matches), so all 32 succeed and memory ends at 32.
CHAIN = """
  v_lshrrev_b32 v2, 2, v1                      ; lane
  v_add_nc_u32 v10, 1, v2                      ; new = lane + 1
  v_mov_b32 v11, v2                            ; cmp = lane
  v_mov_b32 v3, 0
"""


def _chain_expectations(dev, cells, pout):
    assert dev.download(cells, 1, np.uint32)[0] == 32
    assert dev.download(pout, 32, np.uint32).tolist() == list(range(32))


@pytest.mark.parametrize("op", [
    "global_atomic_cmpswap_b32 v12, v3, v[10:11], s[4:5] glc",
    "flat_atomic_cmpswap_b32 v12, v[4:5], v[10:11] glc",
    "buffer_atomic_cmpswap_b32 v[12:13], v3, s[12:15], 0 offen glc",
])
def test_cmpswap_b32_lanes_apply_in_order_and_return_their_own_old_value(op):
    dest = "v12"
    if op.startswith("buffer"):                  # buffer returns into vdata's first register
        op = "buffer_atomic_cmpswap_b32 v[10:11], v3, s[12:15], 0 offen glc"
        dest = "v10"
    dev = asm_device(CHAIN + """
  v_mov_b32 v4, s4
  v_mov_b32 v5, s5
  s_mov_b32 s12, s4
  s_and_b32 s13, s5, 0xffff
  s_mov_b32 s14, 64
  s_mov_b32 s15, 0x31014000
""" + f"  {op}\n  s_waitcnt vmcnt(0)\n  global_store_b32 v1, {dest}, s[6:7]\n", npointers=2)
    cells, pout = dev.zeros(1, np.uint32), dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, cells, pout)
    _chain_expectations(dev, cells, pout)


def test_cmpswap_b32_reverse_chain_only_lane_zero_succeeds():
    """cmp = 31 - lane, new = 32 - lane: in lane order only the lane whose cmp matches the
    value left by the lanes before it succeeds; lanes after see the new value and fail."""
    dev = asm_device("""
  v_lshrrev_b32 v2, 2, v1
  v_sub_nc_u32 v11, 31, v2                     ; cmp
  v_sub_nc_u32 v10, 32, v2                     ; new
  v_mov_b32 v3, 0
  global_atomic_cmpswap_b32 v12, v3, v[10:11], s[4:5] glc
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v12, s[6:7]
""", npointers=2)
    cells, pout = dev.upload(np.array([31], np.uint32)), dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, cells, pout)
    assert dev.download(cells, 1, np.uint32)[0] == 32      # lane 0 wrote 32
    assert dev.download(pout, 32, np.uint32).tolist() == [31] + [32] * 31


def test_cmpswap_b32_operand_order_and_failure_leaves_memory():
    """Distinct addresses: vdata = {new, cmp}; even lanes' cmp matches, odd lanes' does not."""
    dev = asm_device("""
  v_lshrrev_b32 v2, 2, v1
  v_add_nc_u32 v10, 1000, v2                   ; new
  v_and_b32 v5, 1, v2
  v_add_nc_u32 v11, v2, v5                     ; cmp = lane (even) / lane + 1 (odd)
  global_atomic_cmpswap_b32 v12, v1, v[10:11], s[4:5] glc
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v12, s[6:7]
""", npointers=2)
    cells, pout = dev.upload(np.arange(32, dtype=np.uint32)), dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, cells, pout)
    lane = np.arange(32)
    assert dev.download(cells, 32, np.uint32).tolist() == np.where(lane % 2 == 0, lane + 1000, lane).tolist()
    assert dev.download(pout, 32, np.uint32).tolist() == lane.tolist()


@pytest.mark.parametrize("space", ["global", "flat"])
def test_cmpswap_b64_chain_on_one_address(space):
    """64-bit: vdata = v[10:13] = {new lo, new hi, cmp lo, cmp hi}; values above 2^32 so a
    32-bit-only compare would be caught."""
    op = ("global_atomic_cmpswap_b64 v[14:15], v3, v[10:13], s[4:5] glc" if space == "global"
          else "flat_atomic_cmpswap_b64 v[14:15], v[4:5], v[10:13] glc")
    dev = asm_device("""
  v_lshrrev_b32 v2, 2, v1
  v_add_nc_u32 v10, 1, v2                      ; new lo = lane + 1
  v_mov_b32 v11, 7                             ; new hi
  v_mov_b32 v12, v2                            ; cmp lo = lane
  v_mov_b32 v13, 7                             ; cmp hi
  v_mov_b32 v3, 0
  v_mov_b32 v4, s4
  v_mov_b32 v5, s5
""" + f"  {op}\n" + """  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_lshlrev_b32 v6, 1, v1
  global_store_b64 v6, v[14:15], s[6:7]
""", npointers=2)
    cells, pout = dev.upload(np.array([7 << 32], np.uint64)), dev.zeros(32, np.uint64)
    dev.run("k", 1, 32, cells, pout)
    assert int(dev.download(cells, 1, np.uint64)[0]) == (7 << 32) + 32
    assert dev.download(pout, 32, np.uint64).tolist() == [(7 << 32) + i for i in range(32)]


@pytest.mark.parametrize("words", [1, 2])
def test_ds_cmpstore_takes_data_then_cmp(words):
    t = "b32" if words == 1 else "b64"
    regs = ("v10", "v11", "v12") if words == 1 else ("v[10:11]", "v[12:13]", "v[14:15]")
    dev = asm_device(f"""
  v_lshrrev_b32 v2, 2, v1
  v_mov_b32 v3, 0
  v_mov_b32 v20, 0
  v_mov_b32 v21, 0
  ds_store_b64 v3, v[20:21]
  v_add_nc_u32 v10, 1, v2                      ; data (new) = lane + 1
  v_mov_b32 v11, 0
  v_mov_b32 v12, v2                            ; cmp = lane
  v_mov_b32 v13, 0
  {"v_mov_b32 v11, v2" if words == 1 else ""}
  ds_cmpstore_rtn_{t} {regs[2]}, v3, {"v10, v11" if words == 1 else "v[10:11], v[12:13]"}
  s_waitcnt lgkmcnt(0)
  ds_load_b64 v[16:17], v3
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v6, 1, v1
  global_store_b32 v1, {"v12" if words == 1 else "v14"}, s[6:7]
  global_store_b64 v3, v[16:17], s[4:5]
""", npointers=2, lds=64)
    cells, pout = dev.zeros(1, np.uint64), dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, cells, pout)
    assert int(dev.download(cells, 1, np.uint64)[0]) == 32
    assert dev.download(pout, 32, np.uint32).tolist() == list(range(32))


# Compare-and-swap loops compiled by hipcc: 4 blocks of 64 threads (8 waves) on one word each.
BLOCKS, THREADS = 4, 64
ADDENDS = ((np.arange(BLOCKS * THREADS, dtype=np.uint64) * 2654435761) % 1000).astype(np.uint32)


@pytest.fixture(scope="module")
def cas_code() -> bytes:
    return compile_hip(KERNELS / "cmpswap.hip")


def test_atomiccas_loops_add_every_lane_exactly_once(cas_code):
    dev = Device(cas_code)
    s32, s64, lds = dev.zeros(1, np.uint32), dev.zeros(1, np.uint64), dev.zeros(BLOCKS, np.uint32)
    dev.run("cas_add", BLOCKS, THREADS, dev.upload(ADDENDS), s32, s64, lds)
    total = int(ADDENDS.sum())
    assert int(dev.download(s32, 1, np.uint32)[0]) == total
    assert int(dev.download(s64, 1, np.uint64)[0]) == total << 20
    assert dev.download(lds, BLOCKS, np.uint32).tolist() == ADDENDS.reshape(BLOCKS, -1).sum(1).tolist()


def test_compare_exchange_success_flag_loops_add_every_lane_exactly_once(cas_code):
    dev = Device(cas_code)
    sums, sums64 = dev.zeros(5, np.uint32), dev.zeros(2, np.uint64)
    dev.run("cas_flag_add", BLOCKS, THREADS, dev.upload(ADDENDS), sums, sums64)
    total = int(ADDENDS.sum())
    assert dev.download(sums, 5, np.uint32).tolist() == [total] * 5
    assert dev.download(sums64, 2, np.uint64).tolist() == [total, total << 33]


def test_half2_cas_loop_sum_is_exact(cas_code):
    """The pattern of hipify's atomicAdd on __half2; every partial sum is exact in half."""
    dev = Device(cas_code)
    word = dev.zeros(1, np.uint32)
    dev.run("cas_half2_add", BLOCKS, THREADS, dev.upload(ADDENDS), word)
    lo, hi = dev.download(word, 1, np.uint32).view(np.float16).tolist()
    assert (lo, hi) == (0.25 * int((ADDENDS & 3).sum()), 0.5 * int((ADDENDS & 1).sum()))


def test_returning_buffer_atomic_writes_old_value_over_vdata():
    """MUBUF has no vdst: with glc the pre-op value replaces vdata's first register(s)."""
    dev = asm_device("""
  v_mov_b32 v3, 0
  v_mov_b32 v10, 1
  s_mov_b32 s12, s4
  s_and_b32 s13, s5, 0xffff
  s_mov_b32 s14, 64
  s_mov_b32 s15, 0x31014000
  buffer_atomic_add_u32 v10, v3, s[12:15], 0 offen glc
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v10, s[6:7]
""", npointers=2)
    cells, pout = dev.upload(np.array([100], np.uint32)), dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, cells, pout)
    assert dev.download(cells, 1, np.uint32)[0] == 132
    assert dev.download(pout, 32, np.uint32).tolist() == list(range(100, 132))
