"""Accesses a GPU runs without a fault run so on the emulator: past the end of an allocation but
inside its page (a warning once per instruction; a fault when strict), from lanes EXEC masks
off, buffer accesses outside their descriptor's range (0 / dropped), the dwords a compiler adds
to a scalar load, flat accesses through the private aperture."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from cass_cc.emu import EmuFault, launch

from .emu_build import asm_device

COPY_PLUS_ONE = """  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_nc_u32 v2, 1, v2
  global_store_b32 v1, v2, s[6:7]
"""


def _launch(dev, warnings, *values, grid=1, block=32):
    return launch(dev.co, "k", grid, block, dev.args("k", *values), memory=dev.mem, warn=warnings.append)


def test_access_inside_the_page_reads_padding_and_writes_there_once_warned(monkeypatch):
    monkeypatch.delenv("CASS_EMU_STRICT", raising=False)
    dev = asm_device(COPY_PLUS_ONE, npointers=2)
    src = dev.upload(np.arange(30, dtype=np.uint32) * 3)          # 120 bytes: lanes 30, 31 read past it
    out = dev.zeros(30, np.uint32)
    neighbour = dev.upload(np.full(30, 7, np.uint32))
    warnings: list[str] = []
    for _ in range(2):
        _launch(dev, warnings, src, out)
    assert dev.download(out, 30, np.uint32).tolist() == (np.arange(30) * 3 + 1).tolist()
    assert np.frombuffer(ctypes.string_at(out + 120, 8), np.uint32).tolist() == [1, 1]   # in the padding
    assert dev.download(neighbour, 30, np.uint32).tolist() == [7] * 30
    assert len(warnings) == 2 and dev.mem.padding_count == 4     # once per instruction; every time counted
    load, store = warnings
    assert load.startswith("warning: kernel 'k' pc 0x") and "'global_load_b32 v2, v1, s[4:5]': lane 30 read of 4 " \
        f"bytes at {src + 120:#x}: 4 bytes past the end of the allocation at {src:#x} (size 120)" in load
    assert "'global_store_b32 v1, v2, s[6:7]': lane 30 write of 4 bytes" in store and "--strict" in store


def test_strict_makes_an_access_inside_the_page_a_fault(monkeypatch):
    monkeypatch.setenv("CASS_EMU_STRICT", "1")
    dev = asm_device(COPY_PLUS_ONE, npointers=2)
    src, out = dev.upload(np.arange(30, dtype=np.uint32)), dev.zeros(30, np.uint32)
    with pytest.raises(EmuFault) as info:
        _launch(dev, [], src, out)
    f = info.value
    assert (f.kind, f.lane, f.address) == ("memory", 30, src + 120)
    assert "past the end of the allocation" in str(f) and "--strict" in str(f)


def test_lanes_exec_masks_off_do_not_access_their_addresses():
    dev = asm_device("""  v_cmp_gt_u32 vcc_lo, 16, v0
  v_cndmask_b32 v4, 0x40000000, v1, vcc_lo       ; lanes 16..31: 1 GiB past the buffer
  s_and_saveexec_b32 s8, vcc_lo
  global_load_b32 v3, v4, s[4:5]
  s_waitcnt vmcnt(0)
  global_store_b32 v4, v3, s[6:7]
  s_or_b32 exec_lo, exec_lo, s8
""", npointers=2)
    src, out = dev.upload(np.arange(16, dtype=np.uint32) + 40), dev.zeros(16, np.uint32)
    warnings: list[str] = []
    _launch(dev, warnings, src, out)
    assert dev.download(out, 16, np.uint32).tolist() == list(range(40, 56)) and warnings == []


BUFFER = """  s_mov_b32 s8, s4                              ; raw descriptor of the first 64 bytes of p0
  s_and_b32 s9, s5, 0xffff
  s_mov_b32 s10, 64
  s_mov_b32 s11, 0x30000000                     ; OOB_SELECT 3 (raw), as LLVM builds it
  v_cmp_gt_u32 vcc_lo, 16, v0
  v_cndmask_b32 v4, 0x40000000, v1, vcc_lo       ; lanes 16..31 far outside: the range check stops them
  buffer_load_b32 v3, v4, s[8:11], 0 offen
  v_mov_b32 v5, 100
  buffer_atomic_add_u32 v5, v4, s[8:11], 0 offen glc
  v_mov_b32 v6, 9
  buffer_store_b32 v6, v4, s[8:11], 0 offen offset:4
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v3, s[6:7]
  global_store_b32 v1, v5, s[6:7] offset:128
"""


def test_buffer_accesses_outside_the_descriptors_range_read_zero_and_write_nothing():
    dev = asm_device(BUFFER, npointers=2)
    data = np.arange(32, dtype=np.uint32) + 1
    src, out = dev.upload(data), dev.zeros(64, np.uint32)
    warnings: list[str] = []
    _launch(dev, warnings, src, out)
    got = dev.download(out, 64, np.uint32)
    assert got[:32].tolist() == data[:16].tolist() + [0] * 16                 # loads
    assert got[32:].tolist() == data[:16].tolist() + [0] * 16                 # atomics' old values
    after = dev.download(src, 32, np.uint32)
    # lane i adds 100 to word i, then stores 9 at word i + 1 (lane 15's store, at byte 64, is out of range)
    assert after[:16].tolist() == [data[0] + 100] + [9] * 15 and after[16:].tolist() == data[16:].tolist()
    assert warnings == []


def test_scalar_load_widened_past_the_end_reads_the_page_quietly():
    """s_load_b128 of a 4-byte allocation: the other three dwords are the compiler's."""
    dev = asm_device("""  s_load_b128 s[8:11], s[6:7], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v2, s8
  v_mov_b32 v3, s9
  v_mov_b32 v4, s11
  global_store_b32 v1, v2, s[4:5]
  global_store_b32 v1, v3, s[4:5] offset:128
  global_store_b32 v1, v4, s[4:5] offset:256
""", npointers=2)
    out, word = dev.zeros(96, np.uint32), dev.upload(np.array([77], np.uint32))
    warnings: list[str] = []
    _launch(dev, warnings, out, word)
    got = dev.download(out, 96, np.uint32)
    assert got[:32].tolist() == [77] * 32 and not got[32:].any() and warnings == []


def test_scalar_load_whose_first_dword_is_past_the_end_is_warned_without_a_lane():
    dev = asm_device("""  s_load_b32 s8, s[6:7], 0x4
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v2, s8
  global_store_b32 v1, v2, s[4:5]
""", npointers=2)
    out, word = dev.zeros(32, np.uint32), dev.upload(np.array([77], np.uint32))
    warnings: list[str] = []
    _launch(dev, warnings, out, word)
    assert not dev.download(out, 32, np.uint32).any()
    [warning] = warnings
    assert "'s_load_b32 s8, s[6:7], 0x4': read of 4 bytes" in warning and "lane" not in warning


def test_flat_access_through_the_private_aperture_is_the_lanes_scratch():
    dev = asm_device("""  s_mov_b64 s[10:11], src_private_base
  v_mov_b32 v4, 8
  v_mov_b32 v5, s11
  v_add_nc_u32 v6, 1000, v0
  flat_store_b32 v[4:5], v6
  flat_load_b32 v7, v[4:5]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_store_b32 v1, v7, s[4:5]
""", scratch=64)
    out = dev.zeros(32, np.uint32)
    _launch(dev, [], out)
    assert dev.download(out, 32, np.uint32).tolist() == list(range(1000, 1032))


def test_scalar_buffer_load_past_num_records_reads_zero():
    """s_buffer_load_b128 of a 2-dword range: the last two dwords read 0 without an access."""
    dev = asm_device("""  s_mov_b32 s8, s6
  s_and_b32 s9, s7, 0xffff
  s_mov_b32 s10, 8
  s_mov_b32 s11, 0x30000000
  s_buffer_load_b128 s[12:15], s[8:11], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v2, s12
  v_mov_b32 v3, s13
  v_mov_b32 v4, s14
  global_store_b32 v1, v2, s[4:5]
  global_store_b32 v1, v3, s[4:5] offset:128
  global_store_b32 v1, v4, s[4:5] offset:256
""", npointers=2)
    out, words = dev.zeros(96, np.uint32), dev.upload(np.array([5, 6, 7, 8], np.uint32))
    _launch(dev, [], out, words)
    got = dev.download(out, 96, np.uint32)
    assert got[:32].tolist() == [5] * 32 and got[32:64].tolist() == [6] * 32 and not got[64:].any()


def test_buffer_load_and_store_of_dwords_across_the_range_end_are_checked_per_dword():
    """A b128 at byte 8 of a 16-byte raw range: dwords 0 and 1 inside, 2 and 3 read 0 / not written."""
    dev = asm_device("""  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  s_mov_b32 s10, 16
  s_mov_b32 s11, 0x30000000
  v_mov_b32 v2, 8
  buffer_load_b128 v[4:7], v2, s[8:11], 0 offen
  v_mov_b32 v8, 9
  v_mov_b32 v9, 9
  v_mov_b32 v10, 9
  v_mov_b32 v11, 9
  buffer_store_b128 v[8:11], v2, s[8:11], 0 offen offset:4
  s_waitcnt vmcnt(0)
  v_add_nc_u32 v4, v4, v5
  v_add_nc_u32 v6, v6, v7
  global_store_b32 v1, v4, s[6:7]
  global_store_b32 v1, v6, s[6:7] offset:128
""", npointers=2)
    src, out = dev.upload(np.arange(8, dtype=np.uint32) + 1), dev.zeros(64, np.uint32)
    _launch(dev, [], src, out)
    got = dev.download(out, 64, np.uint32)
    assert got[:32].tolist() == [3 + 4] * 32 and not got[32:].any()
    assert dev.download(src, 8, np.uint32).tolist() == [1, 2, 3, 9, 5, 6, 7, 8]   # only the dword at 12
