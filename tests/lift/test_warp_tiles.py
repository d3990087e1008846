"""cooperative_groups tiles lifted from nvcc's SASS and run on the emulator against host
computations (cass_cc/passes/lift/warp.py): each tile of 8 or 16 lanes votes, matches and reduces
over its own lanes only, while the other tiles of its warp hold other masks; on sm_80 ptxas tests
the masks with R2UR P and runs a bare VOTE/MATCH when they differ, which must see the tile's lanes
only (the old lowering voted over the whole warp: other tiles' ballot bits, wrong any/all).
A tile of two warps (sm_80) keeps its barrier and scratch in reserved shared memory
(c[0x0][0x124], cass_cc/passes/lift/launch.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from .lifted import BUILDS, code_objects
from .test_emulated import Device

HERE = Path(__file__).parent
pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")


@pytest.fixture(scope="module", params=BUILDS)
def tiles(request, tmp_path_factory):
    sm, offload_arch = request.param
    return code_objects(HERE / "warp_tiles.cu", sm, tmp_path_factory.mktemp("tiles"), offload_arch=offload_arch)


def _expected(v: np.ndarray, n: int) -> list[list[int]]:
    rows = []
    for t in range(len(v)):
        base = t - t % n
        tile = [int(x) for x in v[base:base + n]]
        ballot = sum(1 << k for k, x in enumerate(tile) if x > 0)
        match = sum(1 << k for k, x in enumerate(tile) if x & 3 == int(v[t]) & 3)
        full = (1 << n) - 1
        rows.append([ballot, int(any(x > 6 for x in tile)), int(all(x > -7 for x in tile)), match,
                     full + (1 << 24), sum(tile) & 0xFFFFFFFF])
    return rows


@pytest.mark.parametrize("n", [8, 16])
def test_tile_votes_see_their_tile_only(tiles, n):
    dev = Device(tiles[f"tiles{n}"])
    rng = np.random.default_rng(n)
    v = rng.integers(-8, 9, 64).astype(np.int32)
    v[0:n] = np.abs(v[0:n]) + 1                 # the first tile: all positive, so it votes unlike its neighbours
    out = dev.put(np.zeros(64 * 6, np.uint32))
    dev.launch(f"tiles{n}", 1, 64, "<QQ", dev.put(v), out)
    got = dev.get(out, np.zeros(64 * 6, np.uint32)).reshape(64, 6)
    want = _expected(v, n)
    for t in range(64):
        assert [int(x) for x in got[t]] == want[t], (n, t)


@pytest.mark.parametrize("offload_arch", ["gfx1100", "gfx942"])
def test_two_warp_tile_syncs_shuffles_and_reduces(offload_arch, tmp_path):
    """A tile of two warps syncs by one warp polling a shared word until the other sets its bit:
    on gfx942 two warps sharing a wave would run one side of the branch at a time and hang, so
    there the kernel runs one warp per wave (lift/warp_model.py) and computes what it does on
    wave32."""
    dev = Device(code_objects(HERE / "warp_big_tiles.cu", "sm_80", tmp_path, offload_arch=offload_arch)["big64"])
    assert ("__cass_wave_per_warp.big64" in dev.co.globals) == (offload_arch == "gfx942")
    v = (np.arange(128, dtype=np.int32) * 7919) % 201 - 100
    out = dev.put(np.zeros(128 * 4, np.int32))
    dev.launch("big64", 1, 128, "<QQ", dev.put(v), out)
    got = dev.get(out, np.zeros(128 * 4, np.int32)).reshape(128, 4)
    for t in range(128):
        base = t - t % 64
        assert list(got[t]) == [v[t ^ 32], v[base + 40], v[base:base + 64].sum(), t // 64], t
