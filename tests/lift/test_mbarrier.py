"""sm_80 mbarriers (cass_cc/passes/lift/mbarrier.py): the raw 64-bit word nvcc's own SASS reads and writes,
after init, plain arrives, cp.async arrive-ons (ARRIVES.LDGSTSBAR.64 after the SASS's ATOMS.ADD of
the warp's count), arrive_and_drop and phase completions, lifted and run on the emulator with two
waves arriving. The expected words follow the encoding that SASS uses (mbarrier.py's docstring):
low = 2^30 - expected, high = phase << 31 | (2^31 - pending)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from .lifted import code_objects
from .test_emulated import Device

HERE = Path(__file__).parent
pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")


def word(phase: int, pending: int, expected: int) -> int:
    return ((phase << 31 | (2**31 - pending)) << 32) | (2**30 - expected)


@pytest.fixture(scope="module", params=["gfx1100", "gfx942"])
def lifted(request, tmp_path_factory):
    return code_objects(HERE / "mbarrier_kernels.cu", "sm_80", tmp_path_factory.mktemp("mbar"), offload_arch=request.param)


@pytest.mark.parametrize("threads", [64, 96])
def test_words_through_four_phases(lifted, threads):
    dev = Device(lifted["words"])
    src = np.arange(threads, dtype=np.int32) * 3 + 11
    pw, pt = dev.put(np.zeros(5, np.uint64)), dev.put(np.zeros(threads, np.uint64))
    pp, pc = dev.put(np.zeros(threads, np.uint32)), dev.put(np.zeros(threads, np.int32))
    dev.launch("words", 1, threads, "<QQQQQ", dev.put(src), pw, pt, pp, pc)
    n, half = threads, threads // 2
    got = [int(w) for w in dev.get(pw, np.zeros(5, np.uint64))]
    assert got == [word(0, n, n),        # init
                   word(1, n, n),        # every thread arrived once: phase 1, all pending again
                   word(0, n, n),        # each thread's cp.async arrive-on and its own arrive
                   word(1, half, half),  # odd threads dropped out: half expected from now on
                   word(0, half, half)]  # the even threads alone complete the next phase
    # each arrive returns the word before it: phase 0, n down to 1 pending, in some order
    tokens = sorted(int(t) for t in dev.get(pt, np.zeros(threads, np.uint64)))
    assert tokens == sorted(word(0, n - i, n) for i in range(n))
    assert sorted(dev.get(pp, np.zeros(threads, np.uint32)).tolist()) == list(range(1, n + 1))
    assert dev.get(pc, np.zeros(threads, np.int32)).tolist() == src[::-1].tolist()


def test_a_wave_arriving_on_several_mbarriers_past_their_counts(lifted):
    """Lane t arrives on mbarrier t % 4 (expected 3): each word ends 16 arrivals later, five
    phases on (phase 1, 2 pending), and the states returned are those before each of the 16.
    (The lanes of a wave arrive one by one here; test_words has them arrive together.)"""
    dev = Device(lifted["spread"])
    pw, pt = dev.put(np.zeros(5, np.uint64)), dev.put(np.zeros(96, np.uint64))
    dev.launch("spread", 1, 96, "<QQ", pw, pt)
    # warp 2's 32 arrivals on the fifth: ten phases completed, 2 pending in the eleventh
    assert [int(w) for w in dev.get(pw, np.zeros(5, np.uint64))] == [word(1, 2, 3)] * 4 + [word(0, 1, 3)]
    tokens = dev.get(pt, np.zeros(96, np.uint64))
    for m in range(4):
        assert sorted(int(t) for t in tokens[m:64:4]) == sorted(word((i // 3) & 1, 3 - i % 3, 3) for i in range(16))
    assert [int(t) for t in tokens[64:]] == [word((i // 3) & 1, 3 - i % 3, 3) for i in range(32)]
