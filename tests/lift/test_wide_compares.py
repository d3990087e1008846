"""64-bit compares: ptxas splits a < b on 64-bit values into ISETP.LT.U32 of the low words and
ISETP.LT.U32.EX of the high words, which reads the low result (often with other code between the
two). Lifted word by word that was a compare, an equality and an and/or per pair, which LLVM does
not fold back (secp256k1's carry tests `sum < a` cost 1.27x hipcc's wave-instructions); as one
i64 compare it is v_cmp_*_u64. The codegen of an nvcc-built kernel is counted, and the emulator
checks every comparison, signed and unsigned, at the word boundaries. A compare of a uniform
value with a per-thread one puts the register first: ISETP.LE.U32 x.lo, u.lo with
ISETP.GE.U32.EX u.hi, x.hi (mirrored op, operands swapped) is the same 64-bit compare."""

from __future__ import annotations

import re
import shutil

import numpy as np
import pytest

from .lifted import launch_as_runtime, lifted_unit, run_one_block

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

KERNEL = r"""
extern "C" __global__ void compares(const unsigned long long *a, const unsigned long long *b, unsigned *out)
{
    unsigned t = threadIdx.x;
    unsigned long long x = a[t], y = b[t];
    long long sx = (long long)x, sy = (long long)y;
    unsigned long long s = x + y;
    unsigned bits = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3
                  | (sx < sy) << 4 | (sx >= sy) << 5 | (s < x) << 6 | (x == y) << 7 | (x != y) << 8;
    out[t] = bits;
}
"""

MIRRORED = r"""
extern "C" __global__ void tiles(const unsigned long long *a, unsigned *out)
{
    unsigned t = threadIdx.x;
    unsigned long long tile = blockIdx.x * (unsigned long long)gridDim.x * 0x12345677ull;
    unsigned long long x = a[t];
    unsigned bits = (tile >= x) | (tile < x) << 1 | (tile <= x) << 2 | (tile > x) << 3;
    atomicOr(&out[t], bits << 4 * blockIdx.x);     // keeps tile uniform: ptxas's UR form
}
"""


@pytest.fixture(scope="module")
def lifted(tmp_path_factory):
    return lifted_unit(KERNEL, tmp_path_factory.mktemp("wide_compares"))


@pytest.fixture(scope="module")
def mirrored(tmp_path_factory):
    return lifted_unit(MIRRORED, tmp_path_factory.mktemp("wide_compares_mirrored"))


def test_pairs_are_64_bit_compares(lifted):
    ex = re.findall(r"ISETP\.[A-Z0-9.]*\.EX P\d, PT, R\d+", lifted.sass_text)
    assert len(ex) >= 7, lifted.sass_text
    wide = re.findall(r"^\s+v_cmp_\w+_[ui]64", lifted.asm, re.M)
    narrow = re.findall(r"^\s+v_cmp_\w+_[ui]32", lifted.asm, re.M)
    # LLVM shares the compares (x >= y is !(x < y)): a > b, a < b, a == b, signed a < b and the
    # carry test, each one 64-bit compare; no 32-bit compare is left of the split pairs
    assert len(wide) == 5, (wide, narrow)
    assert not narrow, narrow


def test_every_compare_gives_the_64_bit_result(lifted):
    threads = 64
    rng = np.random.default_rng(11)
    a = rng.integers(0, 2**64, threads, dtype=np.uint64)
    b = rng.integers(0, 2**64, threads, dtype=np.uint64)
    # equal high words (the low words decide), equal low words, equal values, signs apart,
    # a carry out of the sum, and the extremes
    a[:8] = [0x1_00000005, 0x1_00000005, 7, 0x8000000000000000, 0xFFFFFFFF_FFFFFFFF, 0, 0x7FFFFFFF_FFFFFFFF, 5]
    b[:8] = [0x1_00000004, 0x1_00000006, 7, 0x7FFFFFFF_FFFFFFFF, 1, 0xFFFFFFFF_FFFFFFFF, 0x80000000_00000000, 5 << 32]
    a[8:16] = 0xABCD_00000000 + np.arange(8, dtype=np.uint64)
    b[8:16] = 0xABCD_00000003
    (_, _, out) = run_one_block(lifted.code_object, "compares", threads,
                                [a, b, np.zeros(threads, np.uint32)])

    def signed(v: int) -> int:
        return v - (1 << 64) if v >> 63 else v

    for t in range(threads):
        x, y = int(a[t]), int(b[t])
        sx, sy = signed(x), signed(y)
        want = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (sx < sy) << 4 \
            | (sx >= sy) << 5 | (((x + y) % 2**64) < x) << 6 | (x == y) << 7 | (x != y) << 8
        assert int(out[t]) == want, (t, hex(x), hex(y), bin(int(out[t])), bin(want))


def test_mirrored_pairs_are_64_bit_compares(mirrored):
    assert re.search(r"ISETP\.LE\.U32\.AND (P\d), PT, R\d+(\.reuse)?, UR\d+", mirrored.sass_text), mirrored.sass_text
    assert re.search(r"ISETP\.GE\.U32\.AND\.EX P\d, PT, R\d+", mirrored.sass_text)
    wide = re.findall(r"^\s+v_cmp_\w+_u64", mirrored.asm, re.M)
    narrow = re.findall(r"^\s+v_cmp\w*_[ui]32", mirrored.asm, re.M)
    assert len(wide) == 2 and not narrow, (wide, narrow)     # u > x and u < x; the rest derived


def test_mirrored_compares_are_exact(mirrored):
    import ctypes
    import struct

    from cass_cc.emu import CodeObject, Memory
    threads, blocks, step = 32, 4, 4 * 0x12345677
    # values around each block's tile, low and high words apart
    a = np.array([b * step + d for b in range(blocks) for d in (-1, 0, 1, 1 << 32, -(1 << 32))] +
                 [0, 2**64 - 1, 0x12345677, 0x1_00000000, step, 2 * step + 0xFFFFFFFF, 3 * step - 0x1_00000000],
                 dtype=object)
    a = np.array([int(v) % 2**64 for v in a] + [7] * (threads - len(a)), dtype=np.uint64)
    mem = Memory()
    co = CodeObject.load(mirrored.code_object, mem)
    pa, po = mem.allocate(a.nbytes), mem.allocate(4 * threads)
    ctypes.memmove(pa, a.ctypes.data, a.nbytes)
    ctypes.memset(po, 0, 4 * threads)
    launch_as_runtime(co, mem, "tiles", blocks, threads, struct.pack("<QQ", pa, po))
    out = np.empty(threads, np.uint32)
    ctypes.memmove(out.ctypes.data, po, out.nbytes)
    for blk in range(blocks):
        u = blk * step
        for t in range(threads):
            x = int(a[t])
            want = (u >= x) | (u < x) << 1 | (u <= x) << 2 | (u > x) << 3
            assert int(out[t]) >> 4 * blk & 0xF == want, (blk, t, hex(u), hex(x))
