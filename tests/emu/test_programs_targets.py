"""The program tests of test_programs.py whose results do not depend on the wave size, on the
other targets the emulator runs: programs.hip compiled by hipcc (its clang 15 knows gfx90a and
gfx1030) for CDNA2 (wave64) and RDNA2 (wave32). The wave-size-dependent ones (ballot masks,
printf order across waves, per-wave instruction counts) are left to test_wave64.py."""

from __future__ import annotations

import pytest

from .emu_build import KERNELS, Device, compile_hip
from .test_programs import (test_3d_grid_of_3d_blocks, test_block_sum_tree_reduction,  # noqa: F401
                            test_contended_compare_and_swap_loop, test_double_stencil_2d,
                            test_global_atomics_histogram, test_global_variables_and_relocations,
                            test_lds_atomics_dynamic_shared, test_math_functions_within_ulp_budget,
                            test_printf_in_lane_order, test_private_array_and_call,
                            test_templates, test_tiled_matmul, test_warp_shuffle_reduction)

_CODE: dict[str, bytes] = {}


@pytest.fixture(params=["gfx90a", "gfx1030"])
def programs(request) -> Device:
    """programs.hip built for the target (once per session)."""
    arch = request.param
    if arch not in _CODE:
        _CODE[arch] = compile_hip(KERNELS / "programs.hip", arch=arch)
    return Device(_CODE[arch])


@pytest.mark.parametrize("arch", ["gfx90a", "gfx1030", "gfx1100"])
def test_24_bit_division_through_floats(arch):
    """v_mad_f32 (gfx90a) and v_fma_f32 in LLVM's 24-bit division expansion: exact quotients."""
    import numpy as np
    dev = Device(compile_hip(KERNELS / "div24.hip", arch=arch))
    rng = np.random.default_rng(9)
    a, b = rng.integers(0, 2**32, 512, dtype=np.uint32), rng.integers(0, 2**32, 512, dtype=np.uint32)
    out, pa, pb = dev.zeros(512, np.uint32), dev.upload(a), dev.upload(b)
    dev.run("_Z5div24PjPKjS1_", (2, 1, 1), (256, 1, 1), out, pa, pb)
    x, y = a & 0xFFFFF, (b & 0xFFF) + 1
    s, t = (a & 0x7FFFF).astype(np.int64) - 0x40000, ((b & 0x7FF).astype(np.int64) - 0x400) | 1
    q = (np.abs(s) // np.abs(t)) * np.sign(s) * np.sign(t)           # C's truncating division
    expect = (x // y) ^ ((x % y) << 20) ^ (q.astype(np.uint32) * np.uint32(7))
    np.testing.assert_array_equal(dev.download(out, 512, np.uint32), expect.astype(np.uint32))
