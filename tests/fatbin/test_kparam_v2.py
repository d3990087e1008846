"""Kernels with more than 4 KB of parameters carry EIATTR_KPARAM_INFO_V2 records (parameters from
c[0x0][0x1a80] before sm_90); the cubin reader takes their layout from them, checked against cuobjdump -elf."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cass_cc import toolchain
from cass_cc.errors import CassError
from cass_cc.fatbin import Cubin

from tests.sass.compiled import compile_cu

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

BIG = Path(__file__).parents[1] / "programs" / "realworld" / "params_large" / "bigparams.cu"
_V2 = re.compile(r"EIATTR_KPARAM_INFO_V2\s+Format:\s+EIFMT_SVAL\s+Value:\s+Index : 0x0\s+"
                 r"Ordinal : (0x[0-9a-f]+)\s+Offset\s*: (0x[0-9a-f]+)\s+Size\s*: (0x[0-9a-f]+)")


def _cuobjdump_params(path: Path) -> dict[str, list[tuple[int, int, int]]]:
    """{kernel: [(ordinal, offset, size)]} from cuobjdump -elf's decoded .nv.info.<kernel> sections."""
    text = subprocess.run([toolchain.path("cuobjdump"), "-elf", str(path)], capture_output=True, text=True,
                          check=True).stdout
    out = {}
    for part in re.split(r"\n\.nv\.info\.", text)[1:]:
        name = part.split()[0]
        out[name] = sorted((int(a, 16), int(b, 16), int(c, 16)) for a, b, c in _V2.findall(part))
    return out


@pytest.fixture(scope="module", params=["sm_80", "sm_90"])
def big_cubin(request) -> Path:
    return compile_cu(BIG, f"-arch={request.param}", output="-cubin")


def test_large_parameter_layout_matches_cuobjdump(big_cubin):
    cubin = Cubin(big_cubin.read_bytes())
    expected = _cuobjdump_params(big_cubin)
    assert {k.name for k in cubin.kernels} <= set(expected)
    for k in cubin.kernels:
        assert expected[k.name], k.name                 # the V2 records are there
        assert [tuple(p) for p in k.params] == expected[k.name]
        assert k.param_base == (0x210 if cubin.arch == "sm_90" else 0x1a80)
        last = k.params[-1]
        assert last.offset + last.size <= k.param_size > 4096


def test_size_word_outside_the_block_is_an_error(big_cubin):
    """A size word with bits the reader does not know (here: bit 20 set) is caught, not believed."""
    data = bytearray(big_cubin.read_bytes())
    record = bytes([0x04, 0x45, 0x0c, 0x00])          # EIFMT_SVAL, EIATTR_KPARAM_INFO_V2, 12 bytes
    at = data.index(record)
    data[at + 12:at + 16] = (int.from_bytes(data[at + 12:at + 16], "little") | 1 << 20).to_bytes(4, "little")
    with pytest.raises(CassError, match="outside the .*-byte parameter block"):
        Cubin(bytes(data))
