"""The programs of the --check tests, built once per session (real nvcc, lifter, hipcc, links):

- ok:      check_main.cu and check_extra.cu, both with a reference (the environment variable for
           one, the option for the other: CMake users get it through the environment);
- bad:     check_main.cu translated with three wrong lowerings injected (inject.py), with a
           reference, linked with check_extra.cu built without one;
- partial: the correct check_main.o linked with the reference-less check_extra.o.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import run_tool

DATA = Path(__file__).resolve().parent / "data"


def _nvcc(*args: str, cwd: Path, env: dict | None = None) -> None:
    proc = run_tool("cass-nvcc", *args, cwd=cwd, env=env)
    assert proc.returncode == 0, proc.stderr


def _in_process(*args: str, cwd: Path) -> None:
    """cass-nvcc through its Python entry point, in this process (where the injections live)."""
    from cass_cc.driver.main import main as cass_nvcc
    here = os.getcwd()
    os.chdir(cwd)
    try:
        assert cass_nvcc(list(args)) == 0
    finally:
        os.chdir(here)


@pytest.fixture(scope="session")
def check_programs(tmp_path_factory) -> dict[str, Path]:
    from tests.check.inject import wrong_lowerings  # the lifter: only for the tests that build
    work = tmp_path_factory.mktemp("check")
    main, extra = str(DATA / "check_main.cu"), str(DATA / "check_extra.cu")
    _nvcc("-c", main, "-o", "main_ok.o", cwd=work, env={**os.environ, "CASS_EMBED_REFERENCE": "1"})
    _nvcc("--cass-embed-reference", "-c", extra, "-o", "extra_ok.o", cwd=work)
    with wrong_lowerings("SHFL", "IMNMX", "RED"):
        _in_process("--cass-embed-reference", "-c", main, "-o", "main_bad.o", cwd=work)
    _in_process("-c", extra, "-o", "extra_noref.o", cwd=work)
    links = {"ok": ("main_ok.o", "extra_ok.o"), "bad": ("main_bad.o", "extra_noref.o"),
             "partial": ("main_ok.o", "extra_noref.o")}
    for name, objects in links.items():
        _nvcc(*objects, "-o", name, cwd=work)
    return {name: work / name for name in links}
