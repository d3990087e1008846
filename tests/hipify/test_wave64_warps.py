"""CUDA's 32-lane warps on wave64 targets through the source route (cass_wave64.h): a program
per warp family (tests/hipify/wave64), built for gfx942 (clang-22) and gfx90a (hipcc), prints
every lane's result exactly as CUDA's semantics give them (wave64/cuda_model.py, computed on
the host), in blocks of 96 threads (a wave and a half: the second wave holds one warp) and 40
threads (a partial warp), with partial masks and divergent branches. The model prints what the
H200 printed for each program (<name>.h200.txt); gfx1100 (wave32) builds the same programs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_tool
from tests.hipify.wave64.cuda_model import PROGRAMS as MODELLED, expected_output

PROGRAMS = Path(__file__).parent / "wave64"
FAMILIES = list(MODELLED)


def _build_and_run(tmp_path: Path, name: str, arch: str) -> str:
    exe = tmp_path / name
    built = run_tool("cass-nvcc", "-O2", "-arch=sm_80", "--cass-route=source", f"--cass-offload-arch={arch}",
                     "-o", str(exe), str(PROGRAMS / f"{name}.cu"), cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-3000:]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return run.stdout


def _first_difference(got: str, want: str) -> str:
    for g, w in zip(got.splitlines(), want.splitlines()):
        if g != w:
            lanes = [(i, a, b) for i, (a, b) in enumerate(zip(g.split(), w.split())) if a != b]
            return f"{w.split(':')[0]}: (thread, got, expected) {lanes[:8]}"
    return "line counts differ"


@pytest.mark.parametrize("name", FAMILIES)
def test_the_model_prints_what_the_h200_printed(name):
    got = expected_output(name)
    want = (PROGRAMS / f"{name}.h200.txt").read_text()
    assert got == want, _first_difference(got, want)


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["gfx942", "gfx90a"])
@pytest.mark.parametrize("name", FAMILIES)
def test_wave64_warp_family_has_cudas_values(name, arch, tmp_path):
    got = _build_and_run(tmp_path, name, arch)
    want = expected_output(name)
    assert got == want, _first_difference(got, want)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["votes", "coop_groups"])
def test_wave32_builds_the_same_warps(name, tmp_path):
    assert _build_and_run(tmp_path, name, "gfx1100") == expected_output(name)


def test_legacy_warp_functions_are_refused_on_wave64_with_the_reason(tmp_path):
    """HIP defines __shfl, __ballot, __any and __all over the whole 64-lane wave: no 32-lane
    meaning can be given to them there, so the build names each (file:line) and writes nothing."""
    source = tmp_path / "legacy.cu"
    source.write_text("__global__ void k(int *p) {\n  int v = p[threadIdx.x];\n"
                      "  p[threadIdx.x] = __shfl_down(v, 1);\n  p[0] = __ballot(v > 0);\n}\n")
    obj = tmp_path / "legacy.o"
    built = run_tool("cass-nvcc", "--cass-route=source", "--cass-offload-arch=gfx1100,gfx942", "-c", str(source),
                     "-o", str(obj), cwd=tmp_path)
    assert built.returncode == 1 and not obj.exists()
    assert (f"{source}:3: '__shfl_down' is a legacy warp function (CUDA 8, without _sync), which HIP defines "
            "over the whole 64-lane wave of gfx942" in built.stderr)
    assert f"{source}:4: '__ballot' is a legacy warp function too" in built.stderr
    assert "Traceback" not in built.stderr


WARP_SIZE_QUERIES = r"""#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
__global__ void device_warp_size(int *out) { out[0] = warpSize; }
int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int runtime_attribute = 0, driver_attribute = 0, in_kernel = 0, *out;
  cudaDeviceGetAttribute(&runtime_attribute, cudaDevAttrWarpSize, 0);
  CUdevice device;
  cuInit(0);
  cuDeviceGet(&device, 0);
  cuDeviceGetAttribute(&driver_attribute, CU_DEVICE_ATTRIBUTE_WARP_SIZE, device);
  cudaMalloc(&out, sizeof(int));
  device_warp_size<<<1, 1>>>(out);
  cudaMemcpy(&in_kernel, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d %d %d %d\n", prop.warpSize, runtime_attribute, driver_attribute, in_kernel);
  return 0;
}
"""


@pytest.mark.slow
@pytest.mark.parametrize("route", ["auto", "source"])
def test_every_warp_size_query_says_32_on_wave64(route, tmp_path):
    """A CUDA program sizes its arrays and loops by the warp size it asks for; on gfx942 the
    device's waves are 64 lanes, its CUDA warps 32: the runtime's property and attribute, the
    driver API's attribute and warpSize in a kernel all say 32, on each route."""
    source = tmp_path / "warp_size.cu"
    source.write_text(WARP_SIZE_QUERIES)
    exe = tmp_path / "warp_size"
    built = run_tool("cass-nvcc", "-O2", "-arch=sm_80", f"--cass-route={route}", "--cass-offload-arch=gfx942",
                     "-o", str(exe), str(source), "-lcuda", cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-3000:]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.returncode == 0 and run.stdout == "32 32 32 32\n", run.stdout + run.stderr[-2000:]
