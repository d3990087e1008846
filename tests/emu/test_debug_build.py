"""The program kernels built at -O0 (what debug builds give): calls that are not inlined, values
kept in scratch, device-library functions reached by tail calls (s_setpc_b64), printf included."""

from __future__ import annotations

import numpy as np
import pytest

from .emu_build import Device
from .test_programs import _collatz


@pytest.fixture
def debug(programs_o0_code) -> Device:
    return Device(programs_o0_code)


def test_private_array_and_calls_at_O0(debug):
    idx = (np.arange(64) * 7).astype(np.int32)
    pidx, pout = debug.upload(idx), debug.zeros(64, np.int32)
    stats = debug.run("private_array", (2, 1, 1), (32, 1, 1), pidx, pout)
    assert any(op.startswith("scratch_") for op in stats.opcode_counts)
    expect = [(i & 63) ** 2 + t + _collatz(t + 1) for t, i in enumerate(idx)]
    assert debug.download(pout, 64, np.int32).tolist() == expect


def test_printf_reached_by_a_tail_call_at_O0(debug):
    lines = []
    debug.run("hello", (1, 1, 1), (4, 1, 1), 3, printf=lines.append)
    assert lines == [f"thread {t} of 3: hi {0.25 * t:.2f} {255 + t:x}\n" for t in range(3)]


def test_tiled_matmul_at_O0(debug):
    n = 32
    a = np.random.default_rng(3).random((n, n), np.float32)
    pa, pc = debug.upload(a), debug.zeros(n * n, np.float32)
    debug.run("matmul", (2, 2, 1), (16, 16, 1), pa, pa, pc, n)
    assert np.allclose(debug.download(pc, n * n, np.float32).reshape(n, n), a.astype(np.float64) @ a, rtol=1e-5)
