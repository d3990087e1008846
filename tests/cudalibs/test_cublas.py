"""cass-cc's libcublas: programs that link -lcublas run on the AMD side and agree with a host
reference (exactly for integer-valued inputs; fp32 GEMM of other values within a tolerance, as the
summation order is cass-cc's: tests/cudalibs/data/cublas_api.cu)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cass_cc.driver.cmake import TOOLCHAIN_FILE
from tests.conftest import ROOT
from tests.cudalibs.programs import DATA, cass_build, cass_run, loaded_libraries, nvidia_build

pytestmark = pytest.mark.slow  # builds the library and emulates whole programs

CHECKS = ["version 130002", "stream kept, pointer mode 0, math mode 3",
          *(f"{g} {a}{b}: OK" for g in ("sgemm", "dgemm") for a in "NT" for b in "NT"),
          "sgemm fp32 (rtol 1e-5, atol 1e-4): OK", "dgemm device scalars, beta 0: OK",
          "sgemm strided batched: OK", "gemmex double: OK", "sgemv N: OK", "sgemv T: OK", "daxpy: OK",
          "ddot nrm2 asum: OK", "idamax idamin: OK", "dscal dswap dcopy: OK", "dswap other side: OK",
          "set/get vector: OK", "set/get matrix: OK", "ALL OK"]


@pytest.mark.parametrize("lib", ["cublas", "cublas_static"])
def test_cass_nvcc_program_links_cass_cc_cublas(build_root, lib):
    out = build_root / f"cublas-{lib}"
    out.mkdir()
    exe = cass_build("cublas_api.cu", out, lib)
    loaded = loaded_libraries(exe)
    assert "cudalibs-" in loaded["libcublas.so.13"] and "nvidia" not in loaded["libcublas.so.13"], loaded
    assert not any("nvidia" in where for where in loaded.values()), loaded
    proc = cass_run(exe)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == CHECKS


def test_program_built_against_nvidias_cublas_runs_with_cass_cc_cublas(build_root):
    out = build_root / "cublas-nvidia"
    out.mkdir()
    proc = cass_run(nvidia_build("cublas_api.cu", out, "libcublas.so.13"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == CHECKS
    assert "no version information" not in proc.stderr


def test_unimplemented_functions_fail_and_name_themselves_once(build_root):
    out = build_root / "cublas-unsupported"
    out.mkdir()
    proc = cass_run(cass_build("cublas_unsupported.cu", out, "cublas"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "cscal: 15 15; CUBLAS_STATUS_NOT_SUPPORTED"
    assert proc.stderr.count("cublasCscal_v2 is not supported") == 1, proc.stderr


def test_cmake_project_links_cass_cc_cublas_through_cuda_cublas(build_root):
    """FindCUDAToolkit's CUDA::cublas target, with cass-cc's toolchain file, is cass-cc's library."""
    cmake = Path(sys.executable).parent / "cmake"
    if not cmake.is_file():
        pytest.skip(f"{cmake} is not installed (pip install -e .[test])")
    folder = build_root / "cmake-cublas"
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    configure = subprocess.run([str(cmake), f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN_FILE}",
                                f"-DCMAKE_CUDA_COMPILER={ROOT / 'bin' / 'cass-nvcc'}",
                                "-S", str(DATA / "cmake_cublas"), "-B", str(folder)],
                               capture_output=True, text=True, env=env, timeout=600)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    build = subprocess.run([str(cmake), "--build", str(folder)], capture_output=True, text=True, env=env,
                           timeout=600)
    assert build.returncode == 0, build.stdout + build.stderr
    exe = folder / "cublas_api"
    assert "cudalibs-" in loaded_libraries(exe)["libcublas.so.13"]
    proc = cass_run(exe)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == CHECKS
