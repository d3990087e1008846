"""Waves of different workgroups that wait for each other: ds_gws_barrier (HIP's grid barrier),
turns for higher-pc waves (so a wave spinning on a flag cannot starve the wave that sets it),
and resident grids run in one batch."""

from __future__ import annotations

import importlib
import struct

import numpy as np
import pytest

from cass_cc.emu import EmuFault, launch

from .emu_build import Device, asm_kernel, assemble

launch_module = importlib.import_module("cass_cc.emu.launch")   # the package exports the function
ARGS = [("out", 0, 8, "global_buffer")]

# Workgroup 1 counts down 1000 before it writes out[0] = 7; every workgroup then passes the GWS
# barrier and copies out[0] to out[1 + workgroup]. Workgroup 0 stands at the barrier long before
# (and at a higher pc, so it gets turns): only a barrier that holds it makes it read 7.
GWS_BODY = """  s_load_b64 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s2, 1
  s_cbranch_scc0 .Lbarrier
  s_mov_b32 s6, 1000
.Lloop:
  s_sub_u32 s6, s6, 1
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 .Lloop
  v_mov_b32 v1, 0
  v_mov_b32 v2, 7
  global_store_b32 v1, v2, s[4:5]
.Lbarrier:
  v_mov_b32 v3, {count}
  s_mov_b32 m0, 0
  ds_gws_barrier v3 gds
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 0
  global_load_b32 v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_lshl_b32 s7, s2, 2
  v_mov_b32 v1, s7
  global_store_b32 v1, v2, s[4:5] offset:4"""


def gws_device(count: int) -> Device:
    return Device(assemble(asm_kernel("gws", GWS_BODY.format(count=count), ARGS, vgprs=8, sgprs=16)))


def test_gws_barrier_holds_every_wave_until_all_arrive():
    dev = gws_device(count=2)                  # three waves take part: the count is waves - 1
    out = dev.zeros(4, np.uint32)
    launch(dev.co, "gws", (3, 1, 1), (32, 1, 1), struct.pack("<Q", out), memory=dev.mem)
    assert dev.download(out, 4, np.uint32).tolist() == [7, 7, 7, 7]


def test_gws_barrier_that_never_fills_is_a_deadlock():
    dev = gws_device(count=3)                  # waits for a fourth wave the grid does not have
    out = dev.zeros(4, np.uint32)
    with pytest.raises(EmuFault) as fault:
        launch(dev.co, "gws", (3, 1, 1), (32, 1, 1), struct.pack("<Q", out), memory=dev.mem)
    assert fault.value.kind == "deadlock" and "ds_gws_barrier" in str(fault.value)
    assert "3 wave(s) wait at GWS barrier 0" in str(fault.value)


def test_resident_grid_runs_in_one_batch(monkeypatch):
    """Batches of one workgroup cannot meet at a grid barrier; a grid declared resident can."""
    monkeypatch.setattr(launch_module, "BATCH_BYTES", 1)
    dev = gws_device(count=2)
    out = dev.zeros(4, np.uint32)
    with pytest.raises(EmuFault, match="deadlock|wait at GWS"):
        launch(dev.co, "gws", (3, 1, 1), (32, 1, 1), struct.pack("<Q", out), memory=dev.mem)
    launch(dev.co, "gws", (3, 1, 1), (32, 1, 1), struct.pack("<Q", out), memory=dev.mem, resident_groups=3)
    assert dev.download(out, 4, np.uint32).tolist() == [7, 7, 7, 7]


# Workgroup 0 spins until out[0] != 0; workgroup 1 sets it, in code at a higher pc than the spin
# loop. Lowest-pc-first alone would run the spinning wave forever.
SPIN_BODY = """  s_load_b64 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, 0
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 .Lwriter
.Lspin:
  global_load_b32 v2, v1, s[4:5] glc
  s_waitcnt vmcnt(0)
  v_cmp_eq_u32 vcc_lo, 0, v2
  s_cbranch_vccnz .Lspin
  v_add_nc_u32 v2, 1, v2
  global_store_b32 v1, v2, s[4:5] offset:4
  s_branch .Lend
.Lwriter:
  v_mov_b32 v2, 41
  global_store_b32 v1, v2, s[4:5]
.Lend:"""


def test_spinning_wave_does_not_starve_the_wave_it_waits_for():
    dev = Device(assemble(asm_kernel("spin", SPIN_BODY, ARGS, vgprs=8, sgprs=16)))
    out = dev.zeros(2, np.uint32)
    stats = launch(dev.co, "spin", (2, 1, 1), (32, 1, 1), struct.pack("<Q", out), memory=dev.mem)
    assert dev.download(out, 2, np.uint32).tolist() == [41, 42]
    assert stats.wave_instructions < 10 * launch_module.TURN_PERIOD


# Workgroup 0's first wave spins until out[0] != 0; workgroup 1's two waves meet at s_barrier,
# then its first wave sets out[0]. The barrier must release workgroup 1 while workgroup 0 spins.
BARRIER_BODY = """  s_load_b64 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_readfirstlane_b32 s8, v0
  s_lshr_b32 s8, s8, 5
  v_mov_b32 v1, 0
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 .Lgroup1
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc0 .Lend
.Lspin:
  global_load_b32 v2, v1, s[4:5] glc
  s_waitcnt vmcnt(0)
  v_cmp_eq_u32 vcc_lo, 0, v2
  s_cbranch_vccnz .Lspin
  s_branch .Lend
.Lgroup1:
  s_barrier
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc0 .Lend
  v_mov_b32 v2, 5
  global_store_b32 v1, v2, s[4:5]
.Lend:"""


def test_barrier_releases_a_workgroup_while_another_spins(monkeypatch):
    monkeypatch.setenv("CASS_EMU_MAX_INSTRUCTIONS", "100000")
    dev = Device(assemble(asm_kernel("bar", BARRIER_BODY, ARGS, vgprs=8, sgprs=16)))
    out = dev.zeros(1, np.uint32)
    launch(dev.co, "bar", (2, 1, 1), (64, 1, 1), struct.pack("<Q", out), memory=dev.mem)
    assert dev.download(out, 1, np.uint32).tolist() == [5]
