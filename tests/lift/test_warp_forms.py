"""Warp forms real code uses (cass_cc/passes/lift/warp.py, uniform.py, half.py): warp operations with a
mask that differs between lanes (sm_90 puts VOTE and MATCH into WARPSYNC.EXCLUSIVE regions),
R2UR P, URd, Ra with a kept URd, HSETP2's .H_AND/.H_OR joins of both halves. Lifted from nvcc's
SASS and run on the emulator against host computations."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from .lifted import BUILDS, code_objects
from .test_emulated import Device

HERE = Path(__file__).parent
pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
# nvcc 13 fuses `setp.f16x2 p|q` + and.pred/or.pred into HSETP2 + PLOP3; the edits write the
# joined forms (HSETP2.H_AND/.H_OR, the PLOP3 gone), which must compute the same.
JOINED = [(r"HSETP2\.GT\.AND (P\d), (P\d), (R\d+)(?:\.reuse)?, (R\d+)(?:\.reuse)?, PT ;", r"HSETP2.GT.H_AND \1, \2, \3, \4, PT ;"),
          (r"HSETP2\.LTU\.AND (P\d), (P\d), (R\d+), (R\d+), PT ;", r"HSETP2.LTU.H_OR \1, \2, \3, \4, PT ;"),
          (r"PLOP3\.LUT (P\d), PT, \1, P\d, PT, 0x80, 0x0 ;", "NOP ;"),
          (r"PLOP3\.LUT (P\d), PT, \1, P\d, PT, 0xa8, 0x0 ;", "NOP ;")]
# the masks kernel's first test of its mask keeps the uniform value too (unused by that code: the
# lift must give the same results)
KEPT = [(r"R2UR (P\d), URZ, (R\d+) ;", r"R2UR \1, UR60, \2 ;")]


@pytest.fixture(scope="module", params=BUILDS)
def lifted(request, tmp_path_factory):
    sm, offload_arch = request.param
    edits = {"halfpairs": JOINED}
    if sm == "sm_80":
        edits["masks"] = KEPT
    return code_objects(HERE / "warp_kernels.cu", sm, tmp_path_factory.mktemp("warp"), edits, offload_arch)


def _masks_reference(v: np.ndarray) -> list[list[int]]:
    out = []
    for t in range(32):
        group = [i for i in range(32) if i % 2 == t % 2]
        vals = [int(v[i]) for i in group]
        ballot = sum(1 << i for i in group if v[i] > 5)
        anyall = int(any(x > 7 for x in vals)) + 2 * int(all(x > 1 for x in vals))
        match = sum(1 << i for i in group if v[i] == v[t])
        out.append([sum(vals), int(v[3]) if t % 2 else int(v[t]), ballot, anyall, match, max(vals)])
    return out


def test_warp_operations_on_lane_groups(lifted, request):
    """Masks 0x55555555 on even lanes and 0xaaaaaaaa on odd ones: each half of the warp reduces,
    votes and matches on its own, on sm_90 in WARPSYNC.EXCLUSIVE regions and on sm_80 after ptxas's
    R2UR P mask test (the bare VOTE/MATCH of its fast path sees the group only: a vote of one half
    never carries the other half's bits). __shfl_sync(m, v, 3) on an even lane reads lane 3, outside
    its mask (undefined in CUDA): only odd lanes are checked for it."""
    dev = Device(lifted["masks"])
    rng = np.random.default_rng(11)
    v = rng.integers(0, 10, 64).astype(np.int32)
    v[0::2] = rng.integers(2, 6, 32)                    # even lanes: none > 7, all > 1; odd lanes
    v[1::2][[0, 5, 16, 21]] = [0, 9, 9, 0]              # have both: the groups' votes differ
    po = dev.put(np.zeros(64 * 6, np.int32))
    dev.launch("masks", 2, 32, "<QQ", dev.put(v), po)
    got = dev.get(po, np.zeros(64 * 6, np.int32)).reshape(2, 32, 6)
    for blk in range(2):
        want = _masks_reference(v[blk * 32: blk * 32 + 32])
        for t in range(32):
            row = [int(x) & 0xFFFFFFFF for x in got[blk, t]]
            expect = [x & 0xFFFFFFFF for x in want[t]]
            if t % 2 == 0:
                row[1] = expect[1] = 0
            assert row == expect, (blk, t)


def _halves(words: np.ndarray) -> np.ndarray:
    return words.astype(np.uint32).view(np.float16).reshape(-1, 2).astype(np.float64)


def test_half_compares_joined_over_both_halves(lifted):
    dev = Device(lifted["halfpairs"])
    rng = np.random.default_rng(5)
    a = rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    b[:8] = a[:8]                                         # equal pairs
    a[8] = 0x7E007E00                                      # NaN in both halves
    po = dev.put(np.zeros(64, np.int32))
    dev.launch("halfpairs", 1, 64, "<QQQ", dev.put(a), dev.put(b), po)
    got = dev.get(po, np.zeros(64, np.int32)).tolist()
    x, y = _halves(a), _halves(b)
    with np.errstate(invalid="ignore"):
        gt = (x > y).all(axis=1)
        ltu = (~(x >= y)).any(axis=1)
    assert got == (gt.astype(int) + 2 * ltu.astype(int)).tolist()


def _bf16_halves(words: np.ndarray) -> np.ndarray:
    pairs = words.astype(np.uint32).view(np.uint16).reshape(-1, 2).astype(np.uint32)
    return (pairs << 16).view(np.float32).astype(np.float64)


COMPARISONS = [lambda x, y: x == y, lambda x, y: (x != y) & ~np.isnan(x) & ~np.isnan(y),
               lambda x, y: x < y, lambda x, y: x <= y, lambda x, y: x > y, lambda x, y: x >= y,
               lambda x, y: (x == y) | np.isnan(x) | np.isnan(y), lambda x, y: x != y, lambda x, y: ~(x >= y),
               lambda x, y: ~(x > y), lambda x, y: ~(x <= y), lambda x, y: ~(x < y),
               lambda x, y: ~np.isnan(x) & ~np.isnan(y), lambda x, y: np.isnan(x) | np.isnan(y)]


def test_every_half_comparison_on_both_halves(lifted, request):
    """HSETP2.{EQ,NE,LT,LE,GT,GE,EQU,NEU,LTU,LEU,GTU,GEU,NUM,NAN}.AND P, Q on f16 pairs, and on
    bf16 pairs (.BF16_V2, sm_90): P from the low halves, Q from the high ones; NaNs, equal values,
    signed zeros."""
    dev = Device(lifted["halfcompares"])
    rng = np.random.default_rng(9)
    n = 64
    a = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    b[:8] = a[:8]
    a[8:12] = [0x7E000000, 0x00007E00, 0x7FC00000, 0x00007FC0]   # f16 and bf16 NaNs in one half
    a[12], b[12] = 0x80000000, 0x00008000                        # -0 against +0
    po = dev.put(np.zeros(2 * n, np.uint32))
    dev.launch("halfcompares", 1, n, "<QQQ", dev.put(a), dev.put(b), po)
    got = dev.get(po, np.zeros(2 * n, np.uint32))
    kinds = [(_halves, got[:n])]
    if request.node.callspec.params["lifted"][0] == "sm_90":
        kinds.append((_bf16_halves, got[n:]))
    for halves, words in kinds:
        x, y = halves(a), halves(b)
        want = np.zeros(n, np.uint64)
        with np.errstate(invalid="ignore"):
            for k, compare in enumerate(COMPARISONS):
                r = compare(x, y)
                want += r[:, 0].astype(np.uint64) << (2 * k)
                want += r[:, 1].astype(np.uint64) << (2 * k + 1)
        assert words.tolist() == want.tolist(), halves.__name__
