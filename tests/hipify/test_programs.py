"""The self-checking CUDA programs of tests/programs/hipify translate without warnings and
build into gfx1100 programs with hipcc (compiled and linked against libamdhip64)."""

from __future__ import annotations

from pathlib import Path

import pytest

PROGRAMS = Path(__file__).resolve().parent.parent / "programs" / "hipify"
FAMILY_OF = {  # what each program exercises, so a missing one is noticed
    "warp_shuffle_vote": "warp", "half_bf16": "half", "coop_groups_tiles": "coop_groups",
    "atomics_scopes": "device", "streams_events": "runtime", "graph_capture": "runtime",
    "math_intrinsics": "device",
}


def test_every_family_has_a_program():
    assert sorted(p.name for p in PROGRAMS.iterdir() if p.is_dir()) == sorted(FAMILY_OF)


@pytest.mark.parametrize("program", sorted(FAMILY_OF))
def test_program_hipifies_and_builds(hip_compiler, program):
    sources = sorted((PROGRAMS / program).glob("*.cu"))
    assert len(sources) == 1, "these programs are one translation unit each"
    text = sources[0].read_text()
    assert "checksum: " in text and "PASS" in text
    result, proc = hip_compiler.compile_cuda(program, text, link=True)
    assert [str(d) for d in result.diagnostics] == []
    assert result.kernels
    assert proc.returncode == 0, proc.stderr[-4000:]
