"""A launch runs until it ends, however long its waves contend and spin on each other; it is a
hang only when no wave can make progress (cass_cc.emu.progress): by repeated states (found in
a few thousand instructions) or by the stretch CASS_EMU_HANG_INSTRUCTIONS. The instruction
budget is an option."""

from __future__ import annotations

import numpy as np
import pytest

from cass_cc.emu import EmuFault, launch

from .emu_build import KERNELS, Device, asm_device, compile_hip

GROUPS = 8


@pytest.fixture(scope="module")
def contention_code() -> bytes:
    return compile_hip(KERNELS / "contention.hip")


@pytest.fixture
def dev(contention_code, monkeypatch) -> Device:
    monkeypatch.delenv("CASS_EMU_MAX_INSTRUCTIONS", raising=False)
    monkeypatch.delenv("CASS_EMU_HANG_INSTRUCTIONS", raising=False)
    return Device(contention_code)


def run(dev: Device, name: str, grid: int, block: int, *values):
    """A launch whose grid is resident at once, as a GPU holds it (what the runtime asks for)."""
    return launch(dev.co, name, grid, block, dev.args(name, *values), memory=dev.mem, resident_groups=grid)


def test_ticket_lock_and_contended_counters_finish(dev):
    lock, counter = dev.zeros(2, np.uint32), dev.zeros(1, np.uint32)
    order, bins = dev.zeros(GROUPS, np.uint32), dev.zeros(4, np.uint32)
    run(dev, "ticket_lock", GROUPS, 64, lock, counter, order, bins)
    assert dev.download(counter, 1, np.uint32)[0] == sum(range(1, GROUPS + 1))    # no update lost
    assert sorted(dev.download(order, GROUPS, np.uint32).tolist()) == list(range(GROUPS))
    assert dev.download(lock, 2, np.uint32).tolist() == [GROUPS, GROUPS]
    assert dev.download(bins, 4, np.uint32).tolist() == [GROUPS * 16] * 4


def test_barrier_on_a_global_counter_across_blocks_finishes(dev):
    arrived, values, sums = dev.zeros(1, np.uint32), dev.zeros(GROUPS, np.uint32), dev.zeros(GROUPS, np.uint32)
    run(dev, "counter_barrier", GROUPS, 64, arrived, values, sums)
    assert dev.download(sums, GROUPS, np.uint32).tolist() == [sum(b * 7 + 1 for b in range(GROUPS))] * GROUPS


def test_spin_lock_of_every_wave_finishes(dev):
    lock, counter = dev.zeros(1, np.int32), dev.zeros(1, np.uint32)
    run(dev, "wave_lock", 4, 128, lock, counter)
    assert dev.download(counter, 1, np.uint32)[0] == 16
    assert dev.download(lock, 1, np.int32)[0] == 0


def test_budget_is_an_option_that_stops_even_a_finishing_kernel(dev, monkeypatch):
    monkeypatch.setenv("CASS_EMU_MAX_INSTRUCTIONS", "5000")
    lock, counter = dev.zeros(1, np.int32), dev.zeros(1, np.uint32)
    with pytest.raises(EmuFault) as info:
        run(dev, "wave_lock", 4, 128, lock, counter)
    assert info.value.kind == "budget" and "--emu-budget" in str(info.value)


def _proof(fault: EmuFault) -> None:
    """The report of a hang found by repeated states, soon."""
    text = str(fault)
    assert fault.kind == "hang" and "back in a state it was in before" in text, text
    assert fault.pc is not None and fault.lane is not None and fault.instruction
    assert text.startswith(f"kernel '{fault.kernel}' pc {fault.pc:#x} '{fault.instruction}': lane {fault.lane} hangs")
    stretch = int(text.split(" executed ")[1].split()[0])
    assert stretch < 10_000, text


def test_lock_nobody_releases_is_a_hang(dev):
    """Failing compare-and-swaps change nothing."""
    lock = dev.upload(np.array([1], np.int32))
    with pytest.raises(EmuFault) as info:
        run(dev, "held_lock", 2, 64, lock)
    _proof(info.value)
    assert "held_lock" in str(info.value)


def test_counter_nobody_raises_is_a_hang(dev):
    """An atomic add of 0 writes the value that is there: not progress."""
    with pytest.raises(EmuFault) as info:
        run(dev, "never_arrives", 2, 64, dev.zeros(1, np.uint32))
    _proof(info.value)


def test_counting_spin_is_a_hang_after_the_stretch(dev, monkeypatch):
    """`while (!flag) n++` never repeats a state: it stops once every wave ran the stretch."""
    monkeypatch.setenv("CASS_EMU_HANG_INSTRUCTIONS", "20000")
    with pytest.raises(EmuFault) as info:
        run(dev, "counting_spin", 1, 64, dev.zeros(1, np.int32), dev.zeros(64, np.int32))
    text = str(info.value)
    assert info.value.kind == "hang" and "CASS_EMU_HANG_INSTRUCTIONS=20000" in text, text
    assert 20_000 <= int(text.split(" executed ")[1].split()[0]) < 30_000


def _asm(body: str) -> Device:
    return asm_device(body)


def test_store_of_the_same_value_in_a_spin_is_no_progress():
    dev = _asm("""  v_mov_b32 v2, 5
.Lspin:
  global_store_b32 v1, v2, s[4:5]
  global_load_b32 v3, v1, s[4:5] offset:128 glc
  s_waitcnt vmcnt(0)
  v_cmp_eq_u32 vcc_lo, 0, v3
  s_cbranch_vccnz .Lspin
""")
    out = dev.zeros(64, np.uint32)
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, out)
    _proof(info.value)
    assert dev.download(out, 32, np.uint32).tolist() == [5] * 32


def test_leaving_an_inner_loop_of_an_endless_loop_is_no_progress():
    """A spin with a delay loop inside: the wave's loop is the outer one."""
    dev = _asm(""".Louter:
  s_mov_b32 s8, 50
.Linner:
  s_sub_u32 s8, s8, 1
  s_cmp_lg_u32 s8, 0
  s_cbranch_scc1 .Linner
  global_load_b32 v3, v1, s[4:5] glc
  s_waitcnt vmcnt(0)
  v_cmp_eq_u32 vcc_lo, 0, v3
  s_cbranch_vccnz .Louter
""")
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, dev.zeros(32, np.uint32))
    _proof(info.value)
    assert "in the loop at pc" in str(info.value)


def _loops(count: int, iterations: int) -> Device:
    """`count` register-only loops one after the other, then a store of 1."""
    body = "".join(f"  s_mov_b32 s8, {iterations}\n.L{i}:\n  s_sub_u32 s8, s8, 1\n  s_cmp_lg_u32 s8, 0\n"
                   f"  s_cbranch_scc1 .L{i}\n" for i in range(count))
    return _asm(body + "  v_mov_b32 v2, 1\n  global_store_b32 v1, v2, s[4:5]\n")


def test_leaving_a_loop_is_progress(monkeypatch):
    """Five loops of 3000 instructions without a store, under a stretch of 8000: each exit counts."""
    monkeypatch.setenv("CASS_EMU_HANG_INSTRUCTIONS", "8000")
    dev = _loops(5, 1000)
    out = dev.zeros(32, np.uint32)
    stats = dev.run("k", 1, 32, out)
    assert stats.wave_instructions > 15_000
    assert dev.download(out, 32, np.uint32).tolist() == [1] * 32


def test_one_loop_longer_than_the_stretch_without_stores_is_taken_for_a_hang(monkeypatch):
    """The price of the stretch rule: a loop that stores nothing for longer than it looks hung."""
    monkeypatch.setenv("CASS_EMU_HANG_INSTRUCTIONS", "8000")
    dev = _loops(1, 5000)
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, dev.zeros(32, np.uint32))
    assert info.value.kind == "hang" and "CASS_EMU_HANG_INSTRUCTIONS=8000" in str(info.value)


def test_spinning_wave_waits_while_another_computes_without_stores(monkeypatch):
    """Workgroup 0 spins (its state repeats at once); workgroup 1 counts down 2000 (6000
    instructions, no store) and then sets the flag: no hang while one running wave is not
    repeating and has not run the stretch."""
    monkeypatch.setenv("CASS_EMU_HANG_INSTRUCTIONS", "8000")
    dev = _asm("""  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 .Lworker
.Lspin:
  global_load_b32 v3, v1, s[4:5] glc
  s_waitcnt vmcnt(0)
  v_cmp_eq_u32 vcc_lo, 0, v3
  s_cbranch_vccnz .Lspin
  v_mov_b32 v2, 2
  global_store_b32 v1, v2, s[4:5] offset:128
  s_branch .Lend
.Lworker:
  s_mov_b32 s8, 2000
.Lwork:
  s_sub_u32 s8, s8, 1
  s_cmp_lg_u32 s8, 0
  s_cbranch_scc1 .Lwork
  v_mov_b32 v2, 1
  global_store_b32 v1, v2, s[4:5]
.Lend:
""")
    out = dev.zeros(64, np.uint32)
    dev.run("k", 2, 32, out)
    assert dev.download(out, 64, np.uint32).tolist() == [1] * 32 + [2] * 32


def test_spin_on_host_memory_is_no_proof(monkeypatch):
    """Another host thread may set a flag in host memory while a kernel polls it: only the
    stretch stops such a spin."""
    monkeypatch.setenv("CASS_EMU_HANG_INSTRUCTIONS", "20000")
    dev = _asm(""".Lspin:
  global_load_b32 v3, v1, s[4:5] glc
  s_waitcnt vmcnt(0)
  v_cmp_eq_u32 vcc_lo, 0, v3
  s_cbranch_vccnz .Lspin
""")
    flag = dev.mem.allocate(128, "host")
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, flag)
    assert info.value.kind == "hang" and "CASS_EMU_HANG_INSTRUCTIONS=20000" in str(info.value)


def _sum_loop(step: int) -> Device:
    """One loop of 4000 iterations summing p1[i * step / 4] (8 instructions each), then a store."""
    return asm_device(f"""  s_mov_b32 s8, 0
  s_mov_b32 s9, 0
  v_mov_b32 v3, 0
.Lloop:
  v_mov_b32 v2, s8
  global_load_b32 v4, v2, s[6:7]
  s_waitcnt vmcnt(0)
  v_add_nc_u32 v3, v3, v4
  s_add_u32 s8, s8, {step}
  s_add_u32 s9, s9, 1
  s_cmp_lg_u32 s9, 4000
  s_cbranch_scc1 .Lloop
  global_store_b32 v1, v3, s[4:5]
""", npointers=2)


def test_loop_that_walks_an_array_makes_progress(monkeypatch):
    """32000 instructions without a store under a stretch of 8000: every read reaches new memory."""
    monkeypatch.setenv("CASS_EMU_HANG_INSTRUCTIONS", "8000")
    dev = _sum_loop(4)
    out, data = dev.zeros(32, np.uint32), dev.upload(np.arange(4000, dtype=np.uint32))
    dev.run("k", 1, 32, out, data)
    assert dev.download(out, 32, np.uint32).tolist() == [sum(range(4000))] * 32


def test_loop_that_rereads_one_word_does_not(monkeypatch):
    monkeypatch.setenv("CASS_EMU_HANG_INSTRUCTIONS", "8000")
    dev = _sum_loop(0)
    with pytest.raises(EmuFault) as info:
        dev.run("k", 1, 32, dev.zeros(32, np.uint32), dev.upload(np.arange(4000, dtype=np.uint32)))
    assert info.value.kind == "hang" and "CASS_EMU_HANG_INSTRUCTIONS=8000" in str(info.value)


def test_wait_for_the_clock_is_no_hang():
    """A loop until clock64 passes a mark (the shape LLVM gives it: what the clock read is reduced
    to the same flags at each back edge) ends as the clock advances; reading the clock rules out
    the proof, as reading host memory does."""
    dev = _asm("""  s_sendmsg_rtn_b64 s[8:9], sendmsg(MSG_RTN_GET_REALTIME)
  s_waitcnt lgkmcnt(0)
.Lwait:
  s_sendmsg_rtn_b64 s[10:11], sendmsg(MSG_RTN_GET_REALTIME)
  s_waitcnt lgkmcnt(0)
  s_sub_u32 s10, s10, s8
  s_subb_u32 s11, s11, s9
  s_cmp_lt_u32 s10, 50000
  s_cselect_b32 s10, -1, 0
  s_cmp_eq_u32 s11, 0
  s_cselect_b32 s11, -1, 0
  s_and_b32 s10, s10, s11
  s_cmp_lg_u32 s10, 0
  s_cbranch_scc1 .Lwait
  v_mov_b32 v2, 1
  global_store_b32 v1, v2, s[4:5]
""")
    out = dev.zeros(32, np.uint32)
    dev.run("k", 1, 32, out)
    assert dev.download(out, 32, np.uint32).tolist() == [1] * 32
