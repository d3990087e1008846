"""Programs built by NVIDIA's tools alone run unchanged under plain `cass-run`: libcassrt answers
as libcuda.so.1 (and libcudart.so.13), NVIDIA's runtime linked into the program talks to it, and
the NVIDIA device code the program loads is translated when it loads. Each output must equal what
the program printed on an NVIDIA H200 (reference.txt beside it)."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest

from cass_cc.runtime import cassrt
from cass_cc.runtime.cassrt.build import STUB_DIR

ROOT = Path(__file__).resolve().parents[2]
PREBUILT = ROOT / "tests" / "programs" / "prebuilt"
spec = importlib.util.spec_from_file_location("prebuilt", PREBUILT / "prebuilt.py")
prebuilt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(prebuilt)


def cass_run(argv: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(["cass-run", *argv], capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def values() -> dict[str, str]:
    """Placeholders for a build on this machine: no NVIDIA driver, so driver-API programs link
    against cass-cc's stub libcuda.so.1, as a program built on an NVIDIA machine links the
    driver's; at run time they load libcassrt under that name."""
    stub = cassrt.library_dir() / STUB_DIR
    return {**prebuilt.default_values(), "libcuda_dir": str(stub), "cubin_arch": "sm_80"}


@pytest.mark.parametrize("name", ["driver_api", "nvrtc"])
def test_driver_api_program(name: str, values: dict[str, str], tmp_path: Path) -> None:
    prebuilt.build(name, tmp_path, values, echo=False)
    proc = cass_run(prebuilt.run_argv(name, tmp_path, values))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (PREBUILT / name / "reference.txt").read_text()


# nvcc's default (sm_75 SASS and PTX: the PTX is compiled for sm_80 and lifted), the shared
# runtime, PTX only, and sm_90 SASS only.
BUILDS = {"static": [], "shared": ["-cudart", "shared"],
          "ptx-only": ["-gencode", "arch=compute_80,code=compute_80"], "sm_90": ["-arch=sm_90"]}


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_plain_nvcc_program(build: str, tmp_path: Path) -> None:
    program = ROOT / "tests" / "programs" / "bench" / "crypto" / "crc32_table"
    exe = tmp_path / "crc32_table"
    subprocess.run([prebuilt.default_values()["nvcc"], "-O2", *BUILDS[build], "-o", str(exe),
                    str(program / "main.cu")], check=True, capture_output=True)
    proc = cass_run([str(exe)])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (program / "reference.txt").read_text()


def test_corrupt_image_is_an_error(values: dict[str, str], tmp_path: Path) -> None:
    """A truncated cubin given to cuModuleLoad is CUDA_ERROR_INVALID_IMAGE with a message, never a
    crash: driver_api loads kernels.cubin from its build folder."""
    prebuilt.build("driver_api", tmp_path, values, echo=False)
    cubin = tmp_path / "kernels.cubin"
    cubin.write_bytes(cubin.read_bytes()[:600])
    proc = cass_run(prebuilt.run_argv("driver_api", tmp_path, values))
    assert proc.returncode != 0
    assert "CUDA_ERROR_INVALID_IMAGE" in proc.stdout + proc.stderr
    assert "truncated" in proc.stderr
