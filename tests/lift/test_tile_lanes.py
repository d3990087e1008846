"""cooperative_groups tiles of 2, 4, 8 and 16 lanes (lift/warp.py): their shuffles, votes, matches
and reductions run under per-lane membership masks, and cost a constant number of instructions
each, not a loop of v_readlane over the warp's lanes or masks. ptxas's test of the masks before
each one (MATCH.ANY and REDUX.OR of the masks, BRA.DIV/BRA.CONV) is dead code once the lift takes
the bare path; a group's vote is the ballot ANDed with the lane's mask; a group's reduction is a
ds_bpermute butterfly; a group's MATCH loops over its own values only. The instruction counts are
checked, and the results exactly against CUDA's rules, on gfx1100 and gfx942 (two warps a
wave), in full blocks and in one whose last warp has 16 lanes."""

from __future__ import annotations

import functools
import operator
import re
import shutil
import struct

import numpy as np
import pytest

from .lifted import lifted_unit
from .test_emulated import Device

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

SIZES = (2, 4, 8, 16)
FIELDS = 13

KERNEL = r"""
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

template <unsigned N>
__device__ void tileOps(const int *in, int *o)
{
    cg::thread_block_tile<N> t = cg::tiled_partition<N>(cg::this_thread_block());
    int v = in[threadIdx.x];
    unsigned r = t.thread_rank();
    o[0] = t.shfl(v, (r * 3 + 1) % N);
    o[1] = t.shfl_up(v, 1);
    o[2] = t.shfl_down(v, 3);
    o[3] = t.shfl_xor(v, N / 2);
    o[4] = t.ballot(v > 0);
    o[5] = t.any(v > 40);
    o[6] = t.all(v > -45);
    o[7] = t.match_any(v % 3);
    int pred = -1;
    o[8] = t.match_all(v < -48, pred);
    o[9] = pred;
    o[10] = cg::reduce(t, v, cg::plus<int>());
    o[11] = cg::reduce(t, v, cg::less<int>());
    o[12] = cg::reduce(t, (unsigned)v, cg::bit_xor<unsigned>());
}

extern "C" __global__ void tiles(const int *in, int *out)
{
    int *o = out + threadIdx.x * 4 * 13;
    tileOps<2>(in, o);
    tileOps<4>(in, o + 13);
    tileOps<8>(in, o + 26);
    tileOps<16>(in, o + 39);
}
"""


@pytest.fixture(scope="module", params=["gfx1100", "gfx942"])
def lifted(request, tmp_path_factory):
    return lifted_unit(KERNEL, tmp_path_factory.mktemp("tile_lanes"), request.param)


def _inputs(threads: int) -> np.ndarray:
    v = ((np.arange(threads) * 37 + 11) % 101 - 50).astype(np.int32)
    v[0:16] = np.abs(v[0:16]) + 1           # tiles that all vote alike, next to ones that do not
    v[20:22] = -49                          # a pair that agrees on match_all(v < -48)
    return v


def _expected(v: np.ndarray, n: int, t: int) -> list[int]:
    """CUDA's results for thread t in its tile of n lanes (ballot and match masks by rank)."""
    base, r = t - t % n, t % n
    tile = [int(x) for x in v[base:base + n]]
    own = tile[r]
    agree = len({x < -48 for x in tile}) == 1
    return [tile[(r * 3 + 1) % n],
            tile[r - 1] if r >= 1 else own,
            tile[r + 3] if r + 3 < n else own,
            tile[r ^ (n // 2)],
            sum(1 << k for k, x in enumerate(tile) if x > 0),
            int(any(x > 40 for x in tile)),
            int(all(x > -45 for x in tile)),
            _match(tile, own),
            (1 << n) - 1 if agree else 0,
            int(agree),
            sum(tile),
            min(tile),
            functools.reduce(operator.xor, (x & 0xFFFFFFFF for x in tile))]


def _match(tile: list[int], own: int) -> int:
    """match_any(v % 3) with C's remainder (its sign follows v)."""
    rem = lambda x: int(np.fmod(x, 3))
    return sum(1 << k for k, x in enumerate(tile) if rem(x) == rem(own))


# wave-instructions of one block of 64 threads: 12,956 on gfx1100 (two waves) and 9,631 on gfx942
# (one wave, two warps) with the loops of lane reads over masks and lanes; 1,689 and 932 without
LIMITS = {"gfx1100": 2000, "gfx942": 1100}


def test_no_lane_loops_and_few_instructions(lifted):
    """No v_readlane (wave32's lane loops read with it: 1,954 of them a block before), and the
    4 x 13 operations in a constant number of instructions each."""
    assert not re.findall(r"^\s+v_readlane_b32", lifted.asm, re.M), "a loop of lane reads"
    assert "MATCH.ANY" in lifted.sass_text and "BRA.DIV" in lifted.sass_text
    stats = _run(Device(lifted.code_object), 64)[1]
    assert "v_readlane_b32" not in stats.opcode_counts
    assert stats.wave_instructions < LIMITS[lifted.offload_arch], stats.wave_instructions


def _run(dev: Device, threads: int):
    """The kernel over one block of `threads`: its outputs (thread, tile size, field) and the
    launch's statistics."""
    from cass_cc.emu import launch
    v = _inputs(threads)
    out = dev.put(np.zeros(threads * 4 * FIELDS, np.int32))
    stats = launch(dev.co, "tiles", grid=(1, 1, 1), block=(threads, 1, 1),
                   kernarg=struct.pack("<QQ", dev.put(v), out), memory=dev.mem)
    got = dev.get(out, np.zeros(threads * 4 * FIELDS, np.int32)).reshape(threads, 4, FIELDS)
    return got, stats


@pytest.mark.parametrize("threads", [64, 48])
def test_tile_results_are_cudas(lifted, threads):
    got, _ = _run(Device(lifted.code_object), threads)
    v = _inputs(threads)
    for s, n in enumerate(SIZES):
        for t in range(threads):
            want = [int(np.uint32(x & 0xFFFFFFFF).view(np.int32)) for x in _expected(v, n, t)]
            assert [int(x) for x in got[t, s]] == want, (n, t)
