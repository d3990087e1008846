"""Multi-word adds and subtractions: ptxas's IADD3 / IADD3.X carry chains (64- and 128-bit sums)
become v_add_co_u32 + v_add_co_ci_u32 chains, not sums in i64 with a compare for every carry, and
its a + ~b + 1 differences v_sub_co_u32 + v_sub_co_ci_u32, not nots and adds: the codegen of an
nvcc-built kernel is counted, and the emulator checks the exact results, every carry and borrow
taken."""

from __future__ import annotations

import ctypes
import re
import shutil
import struct

import numpy as np
import pytest

from .lifted import lifted_unit

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

KERNEL = r"""
extern "C" __global__ void sums(unsigned long long *o, const unsigned long long *a, const unsigned long long *b)
{
    unsigned t = threadIdx.x;
    o[t] = a[t] + b[t];                                        // IADD3 P0 + IADD3.X
    unsigned __int128 x = ((unsigned __int128)a[t] << 64) | b[t];
    unsigned __int128 y = ((unsigned __int128)b[t] << 64) | a[t];
    unsigned __int128 s = x + y + (unsigned __int128)a[t];      // carries in and out of middle words
    o[64 + 2 * t] = (unsigned long long)s;
    o[64 + 2 * t + 1] = (unsigned long long)(s >> 64);
    o[192 + t] = a[t] - b[t];                                  // IADD3 P0, -b + IADD3.X ~b, P0
    unsigned __int128 d = x - y;
    o[256 + 2 * t] = (unsigned long long)d;
    o[256 + 2 * t + 1] = (unsigned long long)(d >> 64);
}
"""


@pytest.fixture(scope="module")
def lifted(tmp_path_factory):
    return lifted_unit(KERNEL, tmp_path_factory.mktemp("wide_arithmetic"))


def test_carry_chains_are_add_with_carry(lifted):
    assert "IADD3.X" in lifted.sass_text
    assert not re.findall(r"^\s+v_cmp_\w+_u64", lifted.asm, re.M), "a compare per carry"
    assert len(re.findall(r"^\s+v_add_co_ci_u32", lifted.asm, re.M)) >= 4


def test_differences_are_subtract_with_borrow(lifted):
    assert re.search(r"IADD3 R\d+, P\d, R\d+, -R\d+", lifted.sass_text)
    assert re.search(r"IADD3\.X R\d+, P\d, (R\d+, ~R\d+|~R\d+, R\d+)", lifted.sass_text)
    assert re.search(r"IMAD\.X R\d+, R\d+, 0x1, ~R\d+, P\d", lifted.sass_text)
    assert not re.findall(r"^\s+v_not_b32", lifted.asm, re.M), "a not per word"
    # one borrow chain for the 64-bit difference and one for the 128-bit difference
    assert len(re.findall(r"^\s+v_sub_co_u32", lifted.asm, re.M)) == 2
    assert len(re.findall(r"^\s+v_sub_co_ci_u32", lifted.asm, re.M)) == 4


def test_sums_are_exact(lifted):
    from cass_cc.emu import CodeObject, Memory, launch
    threads = 64
    rng = np.random.default_rng(3)
    a = rng.integers(0, 2**64, threads, dtype=np.uint64)
    b = rng.integers(0, 2**64, threads, dtype=np.uint64)
    a[:8] = 0xFFFFFFFFFFFFFFFF                   # every carry out of every word
    b[:4] = 1
    b[4:8] = 0xFFFFFFFFFFFFFFFF
    mem = Memory()
    co = CodeObject.load(lifted.code_object, mem)
    pa, pb, po = mem.allocate(a.nbytes), mem.allocate(b.nbytes), mem.allocate(6 * threads * 8)
    ctypes.memmove(pa, a.ctypes.data, a.nbytes)
    ctypes.memmove(pb, b.ctypes.data, b.nbytes)
    launch(co, "sums", grid=(1, 1, 1), block=(threads, 1, 1), kernarg=struct.pack("<QQQ", po, pa, pb), memory=mem)
    out = np.empty(6 * threads, np.uint64)
    ctypes.memmove(out.ctypes.data, po, out.nbytes)
    for t in range(threads):
        x, y = int(a[t]), int(b[t])
        assert int(out[t]) == (x + y) % 2**64
        s = ((x << 64 | y) + (y << 64 | x) + x) % 2**128
        assert int(out[64 + 2 * t]) | int(out[65 + 2 * t]) << 64 == s, t
        assert int(out[192 + t]) == (x - y) % 2**64, t
        d = ((x << 64 | y) - (y << 64 | x)) % 2**128
        assert int(out[256 + 2 * t]) | int(out[257 + 2 * t]) << 64 == d, t
