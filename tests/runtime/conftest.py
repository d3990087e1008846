"""Building the HIP test programs (tests/programs/hip/<name>/) once per session with hipcc for
gfx1100, and running them under bin/cass-run."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cass_cc import toolchain
from cass_cc.errors import ToolMissing
from tests.conftest import ROOT, run_tool

HIP_PROGRAMS = ROOT / "tests" / "programs" / "hip"
OFFLOAD_ARCH = "gfx1100"


def hipcc(args: list[str], cwd: Path, offload_arch: str) -> None:
    try:
        driver = toolchain.path("hipcc")
        libs = toolchain.rocm_device_lib_path(offload_arch)
    except ToolMissing as e:
        pytest.skip(str(e))
    cmd = [driver, f"--offload-arch={offload_arch}", f"--rocm-device-lib-path={libs}", "-O2", *args]
    proc = subprocess.run(cmd, cwd=cwd, env=toolchain.hip_environment(), capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stderr}"


@pytest.fixture(scope="session")
def hip_program(tmp_path_factory):
    """hip_program(name) -> folder holding `prog` (from the .hip files, with the extra hipcc
    flags of an optional flags.txt) and `<stem>.hsaco` for each `<stem>.genco.hip` (a code
    object for the module API); built once per session, for gfx1100 unless offload_arch says
    otherwise."""
    built: dict[tuple[str, str], Path] = {}

    def build(name: str, offload_arch: str = OFFLOAD_ARCH) -> Path:
        key = (name, offload_arch)
        if key not in built:
            source = HIP_PROGRAMS / name
            out = tmp_path_factory.mktemp(f"{name}-{offload_arch}")
            sources = sorted(str(p) for p in source.glob("*.hip") if not p.name.endswith(".genco.hip"))
            flags = (source / "flags.txt").read_text().split() if (source / "flags.txt").exists() else []
            hipcc([*flags, "-o", str(out / "prog"), *sources], out, offload_arch)
            for genco in sorted(source.glob("*.genco.hip")):
                stem = genco.name.removesuffix(".genco.hip")
                hipcc(["--genco", "-o", str(out / f"{stem}.hsaco"), str(genco)], out, offload_arch)
            built[key] = out
        return built[key]

    return build


def cass_run(folder: Path, *args: str, env_extra: dict[str, str] | None = None,
             timeout: int = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.update(env_extra or {})
    return run_tool("cass-run", *args, str(folder / "prog"), cwd=folder, env=env, timeout=timeout)
