"""The source route's textures on targets with image instructions (gfx1100 built by hipcc, gfx1201
by clang-22, gfx1030): HIP's fetches, except that a linearly filtering fetch takes CUDA's weights
(cass_texture_compat.h, cass_image_linear: AMD's sampler weighs and sums differently, an ulp or
more away) and a layered fetch CUDA's layer rule.

- textures/sampler_corners.cu prints what the H200 printed, but for two families where AMD's
  image instructions answer otherwise and nothing mends them: an element read of an integer
  texture outside a border-mode texture (AMD's sampler converts the border colour to the
  integer, the H200 returns its float bits) and surface accesses out of range (cudaBoundaryMode
  Zero whatever the mode, cass_texture_compat.h says why). Linear filtering, normalised 8-bit
  texels to 2^-12 as in test_software_textures.py.
- textures/linear_modes.cu (linear filtering in 1D, 2D float2, layered 2D and 3D under every
  address mode) prints what the binary route prints (the lifter's CUDA rule,
  passes/lift/texture.py) and the software sampler (gfx942).
- realworld/texture_filter_weights prints the H200's output.

linear_modes.h200.txt is the H200's output of linear_modes.cu: the rule all three routes share
is held to it where it agrees, to 1 ulp (1D, 2D and layered fetches but 1D border mode); 3D
filtering and 1D border-mode filtering of that rule are off on the H200 (tens to millions of
ulps), which the lines not held record for the next change of the rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT, run_tool
from tests.hipify.test_software_textures import H200 as CORNERS_H200, NOT_BIT_EXACT, _float, _results

TEXTURES = Path(__file__).parent / "textures"
CORNERS = TEXTURES / "sampler_corners.cu"
LINEAR = TEXTURES / "linear_modes.cu"
LINEAR_H200 = TEXTURES / "linear_modes.h200.txt"
FILTER_WEIGHTS = ROOT / "tests" / "programs" / "realworld" / "texture_filter_weights"
IMAGE_TARGETS = ["gfx1100", "gfx1201", "gfx1030"]

# sampler_corners' modes1d samples x = 6 * at[i] outside [0, 6) of the int4 border texture
# (at = -0.01, 1.0, 1.2, -1.3, 2.55, -0.6 for i = 0, 5, 6, 7, 8, 9): line 3i + 2 each
INTEGER_BORDER = {f"modes1d {3 * i + 2}" for i in (0, 5, 6, 7, 8, 9)}
SURFACES = "surfaces"


def _run(source: Path, arch: str, route: str, tmp_path: Path) -> str:
    exe = tmp_path / f"{source.stem}_{route}_{arch}"
    built = run_tool("cass-nvcc", "-O2", "-arch=sm_80", f"--cass-route={route}", f"--cass-offload-arch={arch}",
                     "-o", str(exe), str(source), cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-3000:]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return run.stdout


@pytest.mark.slow
@pytest.mark.parametrize("arch", IMAGE_TARGETS)
def test_sampler_corners_print_what_the_h200_printed(arch, tmp_path):
    got, want = _results(_run(CORNERS, arch, "source", tmp_path)), _results(CORNERS_H200.read_text())
    assert list(got) == list(want)
    held = {k: v for k, v in want.items()
            if not k.startswith((NOT_BIT_EXACT, SURFACES)) and k not in INTEGER_BORDER}
    assert {k: got[k] for k in held if got[k] != held[k]} == {}
    for key in (k for k in want if k.startswith(NOT_BIT_EXACT)):
        assert all(abs(_float(g) - _float(w)) <= 2.0 ** -12 for g, w in zip(got[key], want[key])), \
            (key, [hex(g) for g in got[key]], [hex(w) for w in want[key]])


@pytest.fixture(scope="module")
def binary_route_linear(tmp_path_factory) -> str:
    return _run(LINEAR, "gfx1100", "binary", tmp_path_factory.mktemp("binary"))


@pytest.mark.slow
@pytest.mark.parametrize("arch", IMAGE_TARGETS[:2] + ["gfx942"])
def test_linear_filtering_is_the_binary_routes(arch, binary_route_linear, tmp_path):
    assert _run(LINEAR, arch, "source", tmp_path) == binary_route_linear


def _ulps(a: int, b: int) -> int:
    return abs(a - b) if a >> 31 == b >> 31 else 1 << 32


@pytest.mark.slow
def test_linear_filtering_holds_to_the_h200_in_1d_and_2d(binary_route_linear):
    got, want = _results(binary_route_linear), _results(LINEAR_H200.read_text())
    assert list(got) == list(want)
    far = {}
    for key, words in want.items():
        shape, mode = key.split()[:2]
        held = [] if shape == "3d" else [1, 2, 3] if mode.startswith("border") else [0, 1, 2, 3]
        for c in held:
            if _ulps(got[key][c], words[c]) > 1:
                far[f"{key} word {c}"] = (hex(got[key][c]), hex(words[c]))
    assert far == {}


@pytest.mark.slow
@pytest.mark.parametrize("arch", IMAGE_TARGETS[:2])
def test_texture_filter_weights_print_the_h200s_output(arch, tmp_path):
    out = _run(FILTER_WEIGHTS / "texture_filter_weights.cu", arch, "source", tmp_path)
    assert out == (FILTER_WEIGHTS / "reference.txt").read_text()
