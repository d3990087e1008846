"""PRMT with its selector in a register (ptxas's 16-bit compare-and-swap loop picks one at run
time) is one v_perm_b32 plus the sign fill, not a 64-bit shift per byte: the codegen is counted
and the emulator checks every selector form, sign nibbles included, against PTX's prmt."""

from __future__ import annotations

import re
import shutil

import numpy as np
import pytest

from .lifted import lifted_unit, run_one_block

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

KERNEL = r"""
extern "C" __global__ void permute(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x, a = in[3 * t], b = in[3 * t + 1], s = in[3 * t + 2], d;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(s));
    out[t] = d;
}
"""


@pytest.fixture(scope="module")
def lifted(tmp_path_factory):
    return lifted_unit(KERNEL, tmp_path_factory.mktemp("prmt_selectors"))


def _prmt(a: int, b: int, s: int) -> int:
    """PTX prmt.b32, default mode: byte i is byte (nibble i & 7) of b:a, or its sign spread over
    the byte when nibble i has bit 3 set."""
    pool = b << 32 | a
    out = 0
    for i in range(4):
        nibble = s >> 4 * i & 0xF
        byte = pool >> 8 * (nibble & 7) & 0xFF
        if nibble & 8:
            byte = 0xFF if byte & 0x80 else 0
        out |= byte << 8 * i
    return out


def test_one_permute_no_byte_shifts(lifted):
    assert re.search(r"PRMT R\d+, R\d+, R\d+, R\d+", lifted.sass_text)
    assert len(re.findall(r"^\s+v_perm_b32", lifted.asm, re.M)) == 1
    assert not re.findall(r"^\s+v_lshrrev_b64", lifted.asm, re.M)


def test_every_selector_gives_ptx_result(lifted):
    threads = 64
    rng = np.random.default_rng(7)
    words = rng.integers(0, 2**32, size=(threads, 3), dtype=np.uint64).astype(np.uint32)
    words[:8, 2] = [0x3210, 0x7654, 0x5410, 0x3254, 0x9910, 0x8888, 0xFFFF, 0x0123]
    words[8:16, 0] = [0x80FF7F01, 0x00800080, 0xFFFFFFFF, 0, 0x7F7F7F7F, 0x80808080, 0x12345678, 0x89ABCDEF]
    words[8:16, 2] = 0xFEDC - np.arange(8, dtype=np.uint32) * 0x1111 // 3
    (_, out) = run_one_block(lifted.code_object, "permute", threads, [words.reshape(-1), np.zeros(threads, np.uint32)])
    want = [_prmt(int(a), int(b), int(s)) for a, b, s in words]
    assert [int(x) for x in out] == want, [(hex(int(x)), hex(w)) for x, w in zip(out, want) if int(x) != w][:4]
