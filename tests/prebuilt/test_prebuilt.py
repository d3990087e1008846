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
    prebuilt.build("module_queries", tmp_path, values, echo=False)
    proc = cass_run(prebuilt.run_argv("module_queries", tmp_path, values))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (PREBUILT / "module_queries" / "reference.txt").read_text()
    assert "not supported" not in proc.stderr, proc.stderr


# What pitched_copies prints for each default stream when every byte equals its host model: the
# checksums are of the models, so they follow from the program alone (its H200 reference is still
# to be recorded).
PITCHED_COPIES_LINES = """\
array 50 x 0 x 0, format 0x1, 1 channels, flags 0
array 16 x 10 x 0, format 0x2, 2 channels, flags 0
array 6 x 5 x 4, format 0x10, 4 channels, flags 0
start: d1 e86323a2d6a09c03, d2 bff8b9ef3f5bbac3, arrays 2030d94a87283fa7 e1bc78208c572f78 fa35add56a2425cf 0069dadb2eae11c0
2D copies: d1 450d338711823fad, d2 4dfd1aba6da25e6b, arrays 605bf624c5db965a 54ef134f53cc8cc6 ddbe9b9c88134e8f, host 5e1ce855960f2879
3D copies: d1 ed824622235f001c, d2 f01ec4d5aa5ec063, 3D array c3262d60c242d752, host e0f05a7203cc0aa5
2D sets: d1 edfcb6630ddab62a, d2 340a34d71bc97e9a, d3 7bdb082e3f8e1069
""".splitlines() + [f"bad argument, {case}: CUDA_ERROR_INVALID_VALUE" for case in (
    "no 2D copy", "no 3D copy", "source pitch below the width", "destination pitch below x + width",
    "memory type 0", "memory type 5", "no host pointer", "no device pointer", "no array",
    "array row overrun", "array rows overrun", "source height below y + height",
    "array slices overrun", "level 1 of an array", "32-bit set with a pitch below the width",
    "16-bit set at an odd address", "8-bit set of no pointer")]


def test_pitched_copies(values: dict[str, str], tmp_path: Path) -> None:
    """The driver's 2D and 3D copies between host, device and array memory and its 2D sets, on the
    legacy and on the per-thread default stream (the _ptds/_ptsz functions), array offsets inside an
    element (accepted, as on the H200), and the bad arguments they refuse
    (tests/programs/prebuilt/pitched_copies)."""
    prebuilt.build("pitched_copies", tmp_path, values, echo=False)
    proc = cass_run(prebuilt.run_argv("pitched_copies", tmp_path, values))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    expected = [f"{stream}: {line}" for stream in ("legacy stream", "per-thread stream")
                for line in PITCHED_COPIES_LINES] + ["PASS"]
    assert proc.stdout.splitlines() == expected
    assert "not supported" not in proc.stderr, proc.stderr


# What array_copies prints when every byte equals its host model (the checksums are of the models;
# its H200 reference is still to be recorded). The copies at a byte inside an element are expected
# to succeed, as the 2D copies' do on the H200.
ARRAY_COPIES_CHECKSUMS = {
    "legacy stream": (
        "filled: a 1cccfb52ca4b5514, b 430b9fb5d6c4885e, c 5e70711fbdc67a68, d 197dba4a39f802ed",
        "copies: a b6e8c1044d3d7bd4, b 62f13ae765c0f9f8, c 57c23433d09fae52, d 7fdd0c344ed8e804, "
        "host f1ce7ff492316385 9f81241efe51528b",
        "inside elements: a 2d3046586b8b2039, host 0ef9c49ce50c6fcc"),
    "per-thread stream": (
        "filled: a 8c5ba912ee15faee, b 02bf127d0e71ef77, c bfaf607c91037dec, d 11a6e70282966158",
        "copies: a b6f169f82572e823, b 7cddd5e73c6dbf66, c b104f4eeda33f349, d 8a4df404f7674d6b, "
        "host 3e5a8f5ba6c288a2 12e72ae9791f0ba8",
        "inside elements: a ae65111ef4f4d701, host 71fb4dbe4b0e45b3"),
}
ARRAY_COPIES_REFUSED = (
    "host to array past its end", "array to host, one byte more than the array",
    "array to device from the array's end", "device to array, offset wrapping around",
    "array to array, source past its end", "array to array, destination past its end",
    "async host to array past its end", "async array to host past its end")


def array_copies_lines() -> list[str]:
    names = ["cuMemcpyHtoA", "cuMemcpyAtoH", "cuMemcpyAtoD", "cuMemcpyDtoA", "cuMemcpyAtoA", "cuMemcpyHtoAAsync",
             "cuMemcpyAtoHAsync", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemsetD32"]
    lines = [f"cuGetProcAddress {n}, per-thread default stream: found" for n in names]
    for stream, (filled, copies, inside) in ARRAY_COPIES_CHECKSUMS.items():
        lines += [f"{stream}: {filled}", f"{stream}: {copies}",
                  f"{stream}: 1D copy into an array at a byte inside an element: CUDA_SUCCESS",
                  f"{stream}: 1D copy from an array at a byte inside an element: CUDA_SUCCESS",
                  f"{stream}: {inside}"]
        lines += [f"{stream}: out of range, {case}: CUDA_ERROR_INVALID_VALUE" for case in ARRAY_COPIES_REFUSED]
    return lines + ["PASS"]


def test_array_copies(values: dict[str, str], tmp_path: Path) -> None:
    """The driver's 1D array copies (cuMemcpyHtoA, AtoH, AtoD, DtoA, AtoA, HtoAAsync, AtoHAsync)
    at byte offsets, linked and in the per-thread-stream forms cuGetProcAddress hands out (with
    cuMemcpyHtoD/DtoH and cuMemsetD32 for device memory), and the copies past an array's end they
    refuse (tests/programs/prebuilt/array_copies)."""
    prebuilt.build("array_copies", tmp_path, values, echo=False)
    proc = cass_run(prebuilt.run_argv("array_copies", tmp_path, values))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == array_copies_lines()
    assert "not supported" not in proc.stderr, proc.stderr


# What per_thread_streams prints when every result equals its host model (the checksums are of the
# models; its H200 reference is still to be recorded). "flags 1" is CU_STREAM_NON_BLOCKING, the
# flag the stream was created with; 0 is the default stream's priority on NVIDIA's and HIP's ranges.
PER_THREAD_STREAMS_LINES = """\
thread 0: pipeline 907c6c0911d52208, managed b9e4af2d540188d3, host functions 2, as modelled
thread 1: pipeline 881193e8a63a34ff, managed c2baefff33d83b73, host functions 2, as modelled
driver: created stream flags 1, default stream priority 0
driver: copies dab4f273ef07f9cf, as modelled
PASS
""".splitlines()


def test_per_thread_streams(values: dict[str, str], tmp_path: Path) -> None:
    """A program built by plain nvcc with --default-stream per-thread: NVIDIA's static runtime
    takes the _ptsz/_ptds forms of the stream, event, copy, set, allocation, launch, host-function
    and callback calls from cuGetProcAddress, two threads each on their own default stream, and
    the program calls the driver's per-thread forms directly too
    (tests/programs/prebuilt/per_thread_streams)."""
    prebuilt.build("per_thread_streams", tmp_path, values, echo=False)
    proc = cass_run(prebuilt.run_argv("per_thread_streams", tmp_path, values))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == PER_THREAD_STREAMS_LINES
    assert "not supported" not in proc.stderr, proc.stderr


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
