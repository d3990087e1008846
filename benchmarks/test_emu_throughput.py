"""Emulator throughput: wave-instructions and lane-instructions per second on a compute-bound
kernel (an FMA loop, 100 iterations) and a memory-bound kernel (a grid-stride scaled copy, 16
elements per thread) at a few grid sizes of 256-thread blocks.

Run: .venv/bin/python -m pytest benchmarks/test_emu_throughput.py --benchmark-enable -s
(not part of make test). Each case prints its rates; pytest-benchmark reports the times.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.emu.emu_build import KERNELS, Device, compile_hip


@pytest.fixture(scope="module")
def device():
    return Device(compile_hip(KERNELS / "throughput.hip"))


@pytest.mark.parametrize("blocks", [1, 16, 128])
@pytest.mark.parametrize("kernel", ["fma_loop", "copy"])
def test_emu_throughput(benchmark, device, kernel, blocks):
    reps = 16
    n = blocks * 256 * reps
    src, dst = device.upload(np.ones(n, np.float32)), device.zeros(n, np.float32)
    args = (dst, 100) if kernel == "fma_loop" else (src, dst, n, reps)
    stats = benchmark.pedantic(lambda: device.run(kernel, blocks, 256, *args), rounds=2, iterations=1)
    wave_rate = stats.wave_instructions / stats.seconds
    lane_rate = stats.lane_instructions / stats.seconds
    benchmark.extra_info.update(wave_instructions=stats.wave_instructions, wave_per_s=wave_rate,
                                lane_per_s=lane_rate)
    print(f"\n{kernel} blocks={blocks}x256: {stats.wave_instructions} wave-instructions in "
          f"{stats.seconds:.3f} s = {wave_rate:,.0f} wave-instr/s, {lane_rate:,.0f} lane-instr/s")
    assert stats.wave_instructions > 0
