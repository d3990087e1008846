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


def no_loader_warnings(stderr: str) -> bool:
    """Nothing from ld.so (a missing version node, a library not found) on the program's stderr."""
    return not any(w in stderr for w in ("no version information available", "error while loading"))


# driver_api: g++ -lcuda; nvrtc: NVRTC and the driver API; cuda_python: `cass-run python main.py`,
# an interpreter whose ELF file names no CUDA library (cuda-bindings dlopens libcuda.so.1).
@pytest.mark.parametrize("name", ["driver_api", "nvrtc", "cuda_python"])
def test_driver_api_program(name: str, values: dict[str, str], tmp_path: Path) -> None:
    prebuilt.build(name, tmp_path, values, echo=False)
    proc = cass_run(prebuilt.run_argv(name, tmp_path, values))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (PREBUILT / name / "reference.txt").read_text()
    assert no_loader_warnings(proc.stderr), proc.stderr


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
    assert no_loader_warnings(proc.stderr), proc.stderr


def test_without_cass_run(tmp_path: Path) -> None:
    """`eval "$(cass-cc env)"` in a shell, then the program itself: a plain nvcc build runs on
    the emulator with no cass-run in between."""
    program = ROOT / "tests" / "programs" / "bench" / "crypto" / "crc32_table"
    exe = tmp_path / "crc32_table"
    subprocess.run([prebuilt.default_values()["nvcc"], "-O2", "-o", str(exe), str(program / "main.cu")],
                   check=True, capture_output=True)
    proc = subprocess.run(["bash", "-c", 'eval "$(cass-cc env)" && exec "$0"', str(exe)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (program / "reference.txt").read_text()
    assert no_loader_warnings(proc.stderr), proc.stderr


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


def test_module_queries(values: dict[str, str], tmp_path: Path) -> None:
    """Enumerating a library's kernels and a module's functions, cuKernelGetLibrary and the
    occupancy calculator (tests/programs/prebuilt/module_queries) print what they print on the
    H200."""
    runs_as_on_the_h200("module_queries", values, tmp_path)


def runs_as_on_the_h200(name: str, values: dict[str, str], tmp_path: Path) -> None:
    """Build a prebuilt program, run it under cass-run: its output is the H200's (reference.txt),
    and nothing it calls answers "not supported"."""
    prebuilt.build(name, tmp_path, values, echo=False)
    proc = cass_run(prebuilt.run_argv(name, tmp_path, values))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (PREBUILT / name / "reference.txt").read_text()
    assert "not supported" not in proc.stderr, proc.stderr


def test_pitched_copies(values: dict[str, str], tmp_path: Path) -> None:
    """The driver's 2D and 3D copies between host, device and array memory and its 2D sets, on the
    legacy and on the per-thread default stream (the _ptds/_ptsz functions), array offsets inside an
    element (accepted, as on the H200), and the bad arguments they refuse
    (tests/programs/prebuilt/pitched_copies)."""
    runs_as_on_the_h200("pitched_copies", values, tmp_path)


def test_array_copies(values: dict[str, str], tmp_path: Path) -> None:
    """The driver's 1D array copies (cuMemcpyHtoA, AtoH, AtoD, DtoA, AtoA, HtoAAsync, AtoHAsync)
    at byte offsets, inside an element too, linked and in the per-thread-stream forms
    cuGetProcAddress hands out (with cuMemcpyHtoD/DtoH and cuMemsetD32 for device memory), and the
    copies past an array's end they refuse (tests/programs/prebuilt/array_copies)."""
    runs_as_on_the_h200("array_copies", values, tmp_path)


def test_per_thread_streams(values: dict[str, str], tmp_path: Path) -> None:
    """A program built by plain nvcc with --default-stream per-thread: NVIDIA's static runtime
    takes the _ptsz/_ptds forms of the stream, event, copy, set, allocation, launch, host-function
    and callback calls from cuGetProcAddress, two threads each on their own default stream, and
    the program calls the driver's per-thread forms directly too
    (tests/programs/prebuilt/per_thread_streams)."""
    runs_as_on_the_h200("per_thread_streams", values, tmp_path)


def test_runtime_of_cuda_12(tmp_path: Path) -> None:
    """A -cudart shared program of CUDA 12 asks for each runtime function at version
    libcudart.so.12 of libcudart.so.12 (here: linked against a stand-in libcudart.so.12 with that
    version node, as CUDA 12's has); libcassrt, the same library as for CUDA 13, defines the node
    and answers every version, so it loads without a word from ld.so and runs."""
    functions = ["cudaGetDeviceCount", "cudaMalloc", "cudaMemcpy", "cudaMemset", "cudaFree"]
    (tmp_path / "stub.c").write_text("".join(f"int {f}(void) {{ return 34; }}\n" for f in functions))
    (tmp_path / "stub.map").write_text("libcudart.so.12 { global: %s; local: *; };\n" % "; ".join(functions))
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(tmp_path / "libcudart.so.12"), str(tmp_path / "stub.c"),
                    "-Wl,-soname,libcudart.so.12", f"-Wl,--version-script={tmp_path / 'stub.map'}"], check=True)
    (tmp_path / "main.c").write_text(r"""
#include <stdio.h>
#include <stddef.h>
int cudaGetDeviceCount(int *n);
int cudaMalloc(void **p, size_t size);
int cudaMemset(void *p, int value, size_t size);
int cudaMemcpy(void *dst, const void *src, size_t size, int kind);
int cudaFree(void *p);
int main(void)
{
    int n = 0;
    unsigned char host[64], *dev = NULL;
    int e = cudaGetDeviceCount(&n);
    e = e ? e : cudaMalloc((void **)&dev, sizeof host);
    e = e ? e : cudaMemset(dev, 0x5a, sizeof host);
    e = e ? e : cudaMemcpy(host, dev, sizeof host, 2 /* cudaMemcpyDeviceToHost */);
    e = e ? e : cudaFree(dev);
    printf("devices %d, error %d, byte 0x%02x\n", n, e, host[63]);
    return e != 0;
}
""")
    subprocess.run(["cc", "-o", str(tmp_path / "main"), str(tmp_path / "main.c"), f"-L{tmp_path}",
                    "-l:libcudart.so.12"], check=True)
    needs = subprocess.run(["readelf", "-V", str(tmp_path / "main")], capture_output=True, text=True).stdout
    assert "Name: libcudart.so.12" in needs
    proc = cass_run([str(tmp_path / "main")])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == "devices 1, error 0, byte 0x5a\n"
    assert no_loader_warnings(proc.stderr), proc.stderr


def test_occupancy_calculator_through_the_static_runtime(tmp_path: Path) -> None:
    """cudaOccupancyMaxPotentialBlockSize is a template of cuda_runtime.h over the runtime's
    occupancy and attribute queries, which NVIDIA's static runtime answers through the driver."""
    program = ROOT / "tests" / "programs" / "realworld" / "streams_occupancy"
    exe = tmp_path / "streams"
    subprocess.run([prebuilt.default_values()["nvcc"], "-O2", "-o", str(exe), str(program / "streams.cu")],
                   check=True, capture_output=True)
    proc = cass_run([str(exe)])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (program / "reference.txt").read_text()
