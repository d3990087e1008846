"""Warp operations in blocks that are not one warp (warp_blocks.cu), lifted from nvcc's sm_80 SASS
for gfx1100 (a warp is a wave32) and for gfx942 and gfx90a (two warps share a wave64, each in
its 32-lane half: lift/warp_model.py), run on the emulator and compared with an exact host model
of PTX's warp operations: blocks of 32 (a wave64's upper half empty), 96 and 100 (a last wave
whose upper half is empty or holds a partial warp of 4 threads) and 256, two blocks each."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from .lifted import code_objects
from .test_emulated import Device

HERE = Path(__file__).parent
WORDS = 20
pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")


@pytest.fixture(scope="module", params=["gfx1100", "gfx942", "gfx90a"])
def lifted(request, tmp_path_factory):
    return code_objects(HERE / "warp_blocks.cu", "sm_80", tmp_path_factory.mktemp("blocks"),
                        offload_arch=request.param)["warp_blocks"]


def shfl(values: list[int], lane: int, mode: str, b: int, width: int = 32) -> int:
    """PTX shfl.sync as CUDA's __shfl*_sync(mask, v, b, width) issues it (c = (32 - width) << 8,
    | 0x1f except for up): the source lane, or the lane's own value when out of range."""
    seg = (32 - width) & 31
    clamp = 0 if mode == "up" else 31
    max_lane = (lane & seg) | (clamp & ~seg & 31)
    if mode == "idx":
        j = (lane & seg) | (b & ~seg & 31)
        ok = j <= max_lane
    elif mode == "up":
        j = lane - b
        ok = j >= max_lane
    elif mode == "down":
        j = lane + b
        ok = j <= max_lane
    else:
        j = lane ^ b
        ok = j <= max_lane
    return values[j] if ok else values[lane]


def expected(v: np.ndarray, block: int) -> np.ndarray:
    """The block's rows (block x WORDS); rows of partial warps leave the whole-warp words 0."""
    out = np.zeros((block, WORDS), np.int64)
    whole, first = (block + 31) & ~31, min((block + 31) & ~31, 64)
    odd = sum(int(x) & 1 for x in v)
    for t in range(block):
        w, lane = t // 32, t % 32
        warp = [int(x) for x in v[32 * w: min(32 * w + 32, block)]]
        n, x = len(warp), int(v[t])
        active = (1 << n) - 1
        row = out[t]
        row[0], row[1] = lane, active
        row[2] = sum(1 << k for k in range(n) if warp[k] & 1)
        row[3] = int(any(y > 90 for y in warp)) + 2 * int(all(y > 2 for y in warp))
        row[4] = sum(1 << k for k in range(n) if warp[k] & 3 == x & 3)
        row[5], row[6] = sum(warp), max(warp)
        row[7] = warp[(lane * 7 + 3) % n]
        row[8] = shfl(warp + [0] * (32 - n), lane, "bfly", 1, 4)
        row[9] = odd
        if n == 32:
            tile = warp[lane & ~15: (lane & ~15) + 16]
            row[10] = shfl(warp, lane, "up", 3)
            row[11] = shfl(warp, lane, "down", 5)
            row[12] = shfl(warp, lane, "down", 5, 8)
            row[13] = shfl(warp, lane, "up", 1, 16)
            row[14] = shfl(warp, lane, "bfly", 16)
            row[15] = shfl(warp, lane, "idx", 9, 16)
            row[16] = sum(tile)
            row[17] = shfl(warp, lane, "down", 2, 16)
        if t < 64:
            row[18] = v[first - 1 - t] if first - 1 - t < block else x
        else:
            row[18] = v[64 + block - 1 - t]
        row[19] = w
    return (out & 0xFFFFFFFF).astype(np.uint32)


@pytest.mark.parametrize("block", [32, 96, 100, 256])
def test_warp_operations_per_warp(lifted, block):
    dev = Device(lifted)
    blocks = 2
    rng = np.random.default_rng(block)
    v = rng.integers(0, 100, blocks * block).astype(np.int32)
    po = dev.put(np.zeros(blocks * block * WORDS, np.uint32))
    dev.launch("warp_blocks", blocks, block, "<QQ", dev.put(v), po)
    got = dev.get(po, np.zeros(blocks * block * WORDS, np.uint32)).reshape(blocks, block, WORDS)
    for blk in range(blocks):
        want = expected(v[blk * block:(blk + 1) * block], block)
        for t in range(block):
            assert got[blk, t].tolist() == want[t].tolist(), (blk, t)
