"""sm_80 mbarriers (passes/lift/mbarrier.py): the raw 64-bit word nvcc's own SASS reads and writes,
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


@pytest.fixture(scope="module")
def lifted(tmp_path_factory):
    return code_objects(HERE / "mbarrier_kernels.cu", "sm_80", tmp_path_factory.mktemp("mbar"))


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
