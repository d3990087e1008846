"""CUDA's textures and surfaces in software on CDNA (hipify/cass_texture_software.h):
tests/hipify/textures/sampler_corners.cu built by the source route for gfx942 (no image
instructions: the emulated runtime refuses HIP's own texture objects as ROCm does on MI300) and
gfx90a (hipcc; its sampler lacks gather4 and linear float filtering) must print what the H200
printed (sampler_corners.h200.txt): linear filtering's 9-bit weights, wrap and mirror of
normalized coordinates, border colours of float and integer textures, tex1Dfetch out of range,
negative and large layers, gather, surface boundary modes.

One family is not bit-exact: linear filtering of normalised 8-bit texels, where the H200's sums
differ from the exact weighted sum in the last 8 of 23 mantissa bits (it filters such texels in a
fixed-point format of its own; the binary route's lifter computes the same exact sums as the
software sampler): those lines are held to 2^-12. A host model of CUDA's rules
(textures/sampler_model.py) prints what the H200 printed for linear filtering and the address
modes (the tie rule of corner weights is the H200 probe's, realworld/texture_filter_weights)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from tests.conftest import run_tool
from tests.hipify.textures import sampler_model

PROGRAM = Path(__file__).parent / "textures" / "sampler_corners.cu"
H200 = PROGRAM.with_name("sampler_corners.h200.txt")
NOT_BIT_EXACT = "unorm2d"


def _results(text: str) -> dict[str, list[int]]:
    """'name i: w0 w1 w2 w3' lines -> {'name i': [w0..w3]}; other lines are kept whole."""
    out = {}
    for line in text.splitlines():
        key, _, words = line.partition(":")
        out[key] = [int(w, 16) for w in words.split()] if words.strip() else [line]
    return out


def _float(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


@pytest.mark.parametrize("kernel", [sampler_model.linear2d, sampler_model.modes1d])
def test_the_host_model_prints_what_the_h200_printed(kernel):
    got = kernel()
    name = got[0].split()[0]
    assert got == [line for line in H200.read_text().splitlines() if line.split()[0] == name]


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["gfx942", "gfx90a"])
def test_the_software_sampler_prints_what_the_h200_printed(arch, tmp_path):
    exe = tmp_path / "sampler_corners"
    built = run_tool("cass-nvcc", "-O2", "-arch=sm_80", "--cass-route=source", f"--cass-offload-arch={arch}",
                     "-o", str(exe), str(PROGRAM), cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-3000:]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    got, want = _results(run.stdout), _results(H200.read_text())
    assert list(got) == list(want)
    exact = {k: v for k, v in want.items() if not k.startswith(NOT_BIT_EXACT)}
    assert {k: got[k] for k in exact if got[k] != exact[k]} == {}
    for key in (k for k in want if k.startswith(NOT_BIT_EXACT)):
        assert all(abs(_float(g) - _float(w)) <= 2.0 ** -12 for g, w in zip(got[key], want[key])), \
            (key, [hex(g) for g in got[key]], [hex(w) for w in want[key]])
