"""Relocatable device code (-rdc=true, -dc) on the binary route: nvcc's device link at the
program's link, kernels that call device functions of other translation units (CALL.ABS into
other sections), device variables shared across translation units, static libraries of -rdc
objects, an explicit `nvcc -dlink` step, and the calls that are refused."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from binroute import ROOT, cass_nvcc, cass_run, checksum, program_sources, reports

from cass_cc import toolchain

MULTI = ROOT / "tests" / "programs" / "binary" / "rdc_multi"
XTEA = ROOT / "tests" / "programs" / "bench" / "crypto" / "xtea_ctr"

pytestmark = pytest.mark.slow  # builds and emulates whole programs


def _passes(exe: Path, folder: Path) -> None:
    proc = cass_run(exe)
    assert proc.returncode == 0 and proc.stdout.rstrip().endswith("PASS"), proc.stdout + proc.stderr
    reference = folder / "reference.txt"
    if reference.is_file():
        assert checksum(proc.stdout) == checksum(reference.read_text())


def _all_lifted(folder: Path, kernels: set[str]) -> None:
    found = [k for r in reports(folder) for k in r["kernels"]]
    assert {k["name"] for k in found} == kernels, found
    assert all(k["tier"] == "lift" and k["status"] == "ok" for k in found), found


@pytest.fixture(scope="module")
def rdc_objects(build_root) -> Path:
    """rdc_multi's translation units compiled by cass-nvcc on the default route, one with -dc."""
    out = build_root / "rdc-objects"
    out.mkdir()
    for source in program_sources(MULTI):
        mode = ["-dc"] if source.stem == "lib" else ["-rdc=true", "-c"]
        proc = cass_nvcc("-O2", *mode, source, "-o", out / f"{source.stem}.o", cwd=out,
                         env={"CASS_ROUTE": "", "CASS_REPORT_DIR": str(out / "compile")})
        assert proc.returncode == 0, proc.stderr
    compiled = reports(out / "compile")
    assert len(compiled) == 4 and all(r["route"] == "binary" and not r["kernels"] for r in compiled)
    assert all("translated at the device link" in r["diagnostics"][0] for r in compiled)
    return out


def test_objects_link_through_the_device_link(rdc_objects):
    out = rdc_objects / "objects"
    objects = [rdc_objects / f"{s.stem}.o" for s in program_sources(MULTI)]
    proc = cass_nvcc(*objects, "-o", out / "prog", cwd=rdc_objects,
                     env={"CASS_ROUTE": "", "CASS_REPORT_DIR": str(out)})
    assert proc.returncode == 0, proc.stderr
    _passes(out / "prog", MULTI)
    _all_lifted(out, {"_Z10scale_rowsPKfPfii", "_Z8hash_allPji"})
    assert [r["source"] for r in reports(out)][0].endswith("prog.dlink.o")


def test_static_library_of_rdc_objects(rdc_objects):
    """`ar rcs` of -rdc objects, named by path and by -L/-l: the device link reads its members."""
    out = rdc_objects / "archive"
    out.mkdir()
    subprocess.run(["ar", "rcs", str(out / "libdev.a"), *(str(rdc_objects / f"{n}.o") for n in ("lib", "scale", "hash"))],
                   check=True)
    proc = cass_nvcc("--cass-route=binary", rdc_objects / "main.o", out / "libdev.a", "-o", out / "by_path",
                     cwd=out, env={"CASS_REPORT_DIR": str(out / "by_path.reports")})
    assert proc.returncode == 0, proc.stderr
    _passes(out / "by_path", MULTI)
    _all_lifted(out / "by_path.reports", {"_Z10scale_rowsPKfPfii", "_Z8hash_allPji"})
    proc = cass_nvcc(rdc_objects / "main.o", f"-L{out}", "-ldev", "-lcudart", "-o", out / "by_name", cwd=out)
    assert proc.returncode == 0, proc.stderr
    _passes(out / "by_name", MULTI)


def test_explicit_device_link_step_is_not_repeated(rdc_objects):
    """A device-link object from an explicit `nvcc -dlink` step stands for the device link: its
    linked cubin is translated and no second device link runs (that would define the
    registration functions twice)."""
    out = rdc_objects / "explicit"
    out.mkdir()
    objects = [str(rdc_objects / f"{s.stem}.o") for s in program_sources(MULTI)]
    subprocess.run([toolchain.path("nvcc"), "-dlink", "-arch=sm_80", *objects, "-o", str(out / "dlink.o")], check=True)
    proc = cass_nvcc(*objects, out / "dlink.o", "-o", out / "prog", cwd=out, env={"CASS_REPORT_DIR": str(out)})
    assert proc.returncode == 0, proc.stderr
    _passes(out / "prog", MULTI)
    _all_lifted(out, {"_Z10scale_rowsPKfPfii", "_Z8hash_allPji"})


def test_xtea_separately_compiled_on_the_default_route(build_root):
    """The bench program xtea_ctr, compiled file by file with -rdc=true as Makefiles do; the
    kernel reads a __constant__ key through the generic pointer it hands a device function."""
    out = build_root / "rdc-xtea"
    out.mkdir()
    objects = []
    for source in program_sources(XTEA):
        objects.append(out / f"{source.stem}.o")
        proc = cass_nvcc("-O2", "-rdc=true", "-c", source, "-o", objects[-1], cwd=out, env={"CASS_ROUTE": ""})
        assert proc.returncode == 0, proc.stderr
    proc = cass_nvcc(*objects, "-o", out / "prog", cwd=out, env={"CASS_ROUTE": "", "CASS_REPORT_DIR": str(out)})
    assert proc.returncode == 0, proc.stderr
    _passes(out / "prog", XTEA)
    _all_lifted(out, {"_Z11ctr_encryptPKjPjij"})


CALLER = """
__device__ unsigned step(unsigned x);
__global__ void apply(unsigned *v) { v[threadIdx.x] = step(v[threadIdx.x]); }
int main() {
  unsigned h[32], *d;
  for (int i = 0; i < 32; i++) h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  apply<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  unsigned s = 0;
  for (int i = 0; i < 32; i++) s += h[i];
  printf("sum %u\\n", s);
  return 0;
}
"""


def test_edited_device_function_is_not_served_from_the_cache(build_root):
    """The kernel's own SASS stays the same when only the device function it calls changes."""
    out = build_root / "rdc-edit"
    out.mkdir()
    (out / "main.cu").write_text("#include <cstdio>\n" + CALLER)
    sums = []
    for addend in (1, 2):
        (out / "step.cu").write_text(f"__device__ unsigned step(unsigned x) {{ return x + {addend}; }}\n")
        proc = cass_nvcc("-rdc=true", out / "main.cu", out / "step.cu", "-o", out / "prog", cwd=out)
        assert proc.returncode == 0, proc.stderr
        sums.append(cass_run(out / "prog").stdout.strip())
    assert sums == ["sum 528", "sum 560"]


FUNCTION_POINTER = """
#include <cstdio>
__device__ unsigned twice(unsigned x) { return 2 * x; }
__device__ unsigned square(unsigned x) { return x * x; }
__device__ unsigned (*ops[2])(unsigned) = {twice, square};
__global__ void k(unsigned *out, int which) { out[threadIdx.x] = ops[(threadIdx.x + which) & 1](threadIdx.x); }
int main() {
  unsigned *d, h[8], s = 0;
  cudaMalloc(&d, sizeof h);
  k<<<1, 8>>>(d, 1);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++) s = s * 7 + h[i];
  printf("%u\\n", s);
  return 0;
}
"""


@pytest.mark.parametrize("mode", ["-rdc=true", "-rdc=false"])
def test_calls_through_function_pointers(build_root, mode):
    """A call through a function pointer is a switch over the functions it may reach. After a
    device link (CALL.ABS Rn) the pointers are the handles of the address-taken functions, which
    data (the `ops` table) holds; in a whole-program build (CALL.REL Rn `(kernel)`) they are the
    offsets of the functions inside the kernel's section."""
    out = build_root / f"fnptr{mode}"
    out.mkdir()
    (out / "k.cu").write_text(FUNCTION_POINTER)
    proc = cass_nvcc("--cass-route=binary", mode, out / "k.cu", "-o", out / "prog", cwd=out,
                     env={"CASS_REPORT_DIR": str(out)})
    assert proc.returncode == 0, proc.stderr
    assert all(k["tier"] == "lift" for r in reports(out) for k in r["kernels"])
    run = cass_run(out / "prog")
    expected = 0
    for i in range(8):
        expected = (expected * 7 + (i * i if (i + 1) & 1 else 2 * i)) & 0xFFFFFFFF
    assert run.returncode == 0 and run.stdout.strip() == str(expected), run.stdout + run.stderr


def test_call_through_a_pointer_from_the_host_is_refused(build_root):
    """A function pointer that only arrives as a kernel argument: no function of the cubin is
    known to be reachable from that call, so it is refused with the reason."""
    out = build_root / "fnptr-arg"
    out.mkdir()
    (out / "k.cu").write_text("typedef int (*fn)(int);\n"
                              "__global__ void k(fn f, int *o) { o[threadIdx.x] = f(threadIdx.x); }\n")
    proc = cass_nvcc("--cass-route=binary", "-rdc=true", "-c", out / "k.cu", "-o", out / "k.o", cwd=out)
    assert proc.returncode == 0, proc.stderr        # -rdc: translated at the link
    (out / "main.cu").write_text("int main() { return 0; }\n")
    proc = cass_nvcc("--cass-route=binary", "-rdc=true", out / "k.o", out / "main.cu", "-o", out / "prog", cwd=out)
    assert proc.returncode == 1 and "call through a function pointer" in proc.stderr
    assert "Traceback" not in proc.stderr and not (out / "prog").exists()


def test_device_link_as_a_step_of_its_own(rdc_objects):
    """The Makefile flow: `cass-nvcc -dlink` writes a_dlink.o (nvcc's name); the host linker
    takes it with the -rdc objects, either g++ naming libcassrt (found with
    --cass-print-runtime-dir) or cass-nvcc, which then runs no second device link."""
    from cass_cc.driver.nvidia_objects import file_code

    out = rdc_objects / "dlink-step"
    out.mkdir()
    objects = [rdc_objects / f"{s.stem}.o" for s in program_sources(MULTI)]
    proc = cass_nvcc("-dlink", *objects, cwd=out, env={"CASS_REPORT_DIR": str(out / "reports")})
    assert proc.returncode == 0, proc.stderr
    dlink = out / "a_dlink.o"
    [code] = file_code(str(dlink))
    assert not code.relocatable and code.device_link_product
    _all_lifted(out / "reports", {"_Z10scale_rowsPKfPfii", "_Z8hash_allPji"})

    proc = cass_nvcc("--cass-print-runtime-dir", cwd=out)
    runtime = proc.stdout.strip()
    assert proc.returncode == 0 and (Path(runtime) / "libcassrt.so").is_file(), proc.stdout + proc.stderr
    subprocess.run(["g++", "-o", str(out / "by_gxx"), *map(str, objects), str(dlink), f"-L{runtime}", "-lcassrt",
                    f"-Wl,-rpath,{runtime}"], check=True)
    _passes(out / "by_gxx", MULTI)

    proc = cass_nvcc(*objects, dlink, "-o", out / "by_cass_nvcc", "--cass-verbose", cwd=out)
    assert proc.returncode == 0, proc.stderr
    assert "-dlink" not in proc.stderr
    _passes(out / "by_cass_nvcc", MULTI)

    proc = cass_nvcc("-dlink", dlink, "-o", out / "again.o", cwd=out)
    assert proc.returncode == 1 and proc.stderr.startswith("cass-nvcc: error: -dlink: no input holds relocatable "
                                                           "device code"), proc.stderr
    assert not (out / "again.o").exists()


STEP = "__device__ unsigned step(unsigned x) { return 3 * x + 1; }\n"
API = """
#include <cstdio>
__device__ unsigned step(unsigned x);
__global__ void steps(unsigned *v) { v[threadIdx.x] = step(step(v[threadIdx.x])); }
extern "C" unsigned api_sum(void)
{
    unsigned h[32], *d, s = 0;
    for (int i = 0; i < 32; i++) h[i] = i;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    steps<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++) s += h[i];
    return s;
}
"""
HOST = """
#include <cstdio>
extern "C" unsigned api_sum(void);
int main() { unsigned s = api_sum(); printf("sum %u\\n", s); return s == 4592 ? 0 : 1; }
"""


def test_shared_library_of_rdc_code(build_root):
    """-shared -Xcompiler -fPIC with -rdc=true: the device link's host stub is position independent."""
    out = build_root / "rdc-shared"
    out.mkdir()
    for name, text in (("step.cu", STEP), ("api.cu", API), ("host.cpp", HOST)):
        (out / name).write_text(text)
    proc = cass_nvcc("-rdc=true", "-shared", "-Xcompiler", "-fPIC", out / "step.cu", out / "api.cu",
                     "-o", out / "libapi.so", cwd=out)
    assert proc.returncode == 0, proc.stderr
    subprocess.run(["g++", str(out / "host.cpp"), "-o", str(out / "host"), f"-L{out}", "-lapi",
                    "-Wl,-rpath,$ORIGIN"], check=True)
    proc = cass_run(out / "host")
    assert proc.returncode == 0 and proc.stdout.strip() == "sum 4592", proc.stdout + proc.stderr


REPORTER = """
#include <cstdio>
__device__ void report(int i, float x)
{
    int *slot = (int *)malloc(sizeof(int));
    *slot = i * 10;
    if (i < 3)
        printf("thread %d: %d %.2f %s\\n", i, *slot, x, i ? "more" : "first");
    free(slot);
}
"""
REPORTS = """
#include <cstdio>
__device__ void report(int i, float x);
__global__ void go() { report(threadIdx.x, threadIdx.x * 0.25f); }
int main() { go<<<1, 8>>>(); cudaDeviceSynchronize(); printf("done\\n"); return 0; }
"""


def test_printf_and_malloc_in_a_device_function_of_another_file(build_root):
    """After the device link, vprintf/malloc/free are CALL.ABS `(vprintf)` to symbols the cubin
    does not define, the format string a `32@lo($str)` immediate."""
    out = build_root / "rdc-printf"
    out.mkdir()
    (out / "reporter.cu").write_text(REPORTER)
    (out / "main.cu").write_text(REPORTS)
    proc = cass_nvcc("--cass-route=binary", "-rdc=true", out / "reporter.cu", out / "main.cu", "-o", out / "prog",
                     cwd=out)
    assert proc.returncode == 0, proc.stderr
    proc = cass_run(out / "prog")
    assert proc.returncode == 0, proc.stderr
    assert sorted(proc.stdout.splitlines()) == ["done", "thread 0: 0 0.00 first", "thread 1: 10 0.25 more",
                                                "thread 2: 20 0.50 more"]


def test_damaged_relocatable_device_code_is_a_clear_error(rdc_objects):
    from elftools.elf.elffile import ELFFile

    out = rdc_objects / "damaged"
    out.mkdir()
    data = bytearray((rdc_objects / "main.o").read_bytes())
    with open(rdc_objects / "main.o", "rb") as f:
        sec = ELFFile(f).get_section_by_name("__nv_relfatbin")
        start, size = sec["sh_offset"], sec["sh_size"]
    for i in range(start + 64, start + size - 64):
        data[i] ^= 0x5A
    (out / "main.o").write_bytes(data)
    proc = cass_nvcc(out / "main.o", rdc_objects / "lib.o", "-o", out / "prog", cwd=out)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"cass-nvcc: error: '{out / 'main.o'}': damaged device code: ")
    assert not (out / "prog").exists()


ASSERTS = """
#include <cassert>
__device__ int checked(int x) { assert(x < 5); return x * 2; }
"""
ASSERT_MAIN = """
#include <cstdio>
__device__ int checked(int x);
__global__ void k(int *o, int n) { if (threadIdx.x < n) o[threadIdx.x] = checked(threadIdx.x); }
int main() { int *d; cudaMalloc(&d, 64); k<<<1, 8>>>(d, 7); printf("status %d\\n", (int)cudaDeviceSynchronize()); return 0; }
"""


def test_assert_in_a_device_function_of_another_file(build_root):
    """ptxas names the function-name string `__unnamed_1`, as LLVM names ockl's anonymous
    functions: the code object keeps them apart, and CUDA's message names the function."""
    out = build_root / "rdc-assert"
    out.mkdir()
    (out / "checked.cu").write_text(ASSERTS)
    (out / "main.cu").write_text(ASSERT_MAIN)
    proc = cass_nvcc("--cass-route=binary", "-rdc=true", out / "checked.cu", out / "main.cu", "-o", out / "prog",
                     cwd=out)
    assert proc.returncode == 0, proc.stderr
    run = cass_run(out / "prog")
    assert "checked.cu:3: int checked(int): block: [0,0,0], thread: [5,0,0] Assertion `x < 5` failed." in run.stdout
    assert "status 710" in run.stdout and run.returncode == 0     # cudaErrorAssert, as on a GPU
