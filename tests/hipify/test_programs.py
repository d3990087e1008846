"""The self-checking CUDA programs of tests/programs/hipify translate without warnings, build
into gfx1100 programs with hipcc (compiled and linked against libamdhip64), and pass on the
emulator under cass-run."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import run_tool

PROGRAMS = Path(__file__).resolve().parent.parent / "programs" / "hipify"
FAMILY_OF = {  # what each program exercises, so a missing one is noticed
    "warp_shuffle_vote": "warp", "half_bf16": "half", "coop_groups_tiles": "coop_groups",
    "atomics_scopes": "device", "streams_events": "runtime", "graph_capture": "runtime",
    "math_intrinsics": "device", "inline_ptx": "inline_asm",
    "inline_ptx_mma": "inline_asm",
}

_built: dict[str, Path] = {}


def build(hip_compiler, program: str) -> Path:
    """Translate and build a program once per session; returns the executable."""
    if program not in _built:
        sources = sorted((PROGRAMS / program).glob("*.cu"))
        assert len(sources) == 1, "these programs are one translation unit each"
        text = sources[0].read_text()
        assert "checksum: " in text and "PASS" in text
        result, proc = hip_compiler.compile_cuda(program, text, link=True)
        assert [str(d) for d in result.diagnostics] == []
        assert result.kernels
        assert proc.returncode == 0, proc.stderr[-4000:]
        _built[program] = hip_compiler.folder / program
    return _built[program]


def test_every_family_has_a_program():
    assert sorted(p.name for p in PROGRAMS.iterdir() if p.is_dir()) == sorted(FAMILY_OF)


@pytest.mark.parametrize("program", sorted(FAMILY_OF))
def test_program_hipifies_and_builds(hip_compiler, program):
    assert build(hip_compiler, program).is_file()


@pytest.mark.slow
@pytest.mark.parametrize("program", sorted(FAMILY_OF))
def test_program_passes_on_the_emulator(hip_compiler, program):
    executable = build(hip_compiler, program)
    proc = run_tool("cass-run", "--emulate", str(executable), cwd=executable.parent, timeout=300)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert lines[-1] == "PASS" and lines[-2].startswith("checksum: "), proc.stdout[-2000:]
