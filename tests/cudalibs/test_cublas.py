"""cass-cc's libcublas: programs that link -lcublas run on the AMD side and agree with a host
reference (exactly for integer-valued inputs; fp32 GEMM of other values within a tolerance, as the
summation order is cass-cc's: tests/cudalibs/data/cublas_api.cu)."""

from __future__ import annotations

import pytest

from tests.cudalibs.programs import cass_build, cass_run, loaded_libraries, nvidia_build

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
