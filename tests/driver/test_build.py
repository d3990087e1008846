"""Building real projects with cass-nvcc (the default route; the source route where a test names
it): the examples through make, mixed inputs, libraries, dependency files, reports. Products are
checked by reading them: an x86-64 ELF whose offload bundles hold gfx1100 code objects with the
kernel (test_cmake.py builds the CMake example)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from cass_cc.rdna3.code_object import CodeObject

from .conftest import amd_code_objects, run, tool_env

HOST_FILE = """\
#include <cuda_runtime.h>
// Host code calling the CUDA runtime, in a .cpp as many projects have it.
int device_count_ok() { int n = 0; return cudaGetDeviceCount(&n) == cudaSuccess || n == 0; }
"""
KERNEL_HEADER = """\
#pragma once
template <typename T>
__global__ void scale(T* data, T factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}
"""
MAIN_FILE = """\
#include <cstdio>
#include "kernels/scale.cuh"
int device_count_ok();
extern "C" int c_helper(int);
int main()
{
    float* d = nullptr;
    cudaMalloc(&d, 64 * sizeof(float));
    scale<float><<<1, 64>>>(d, 2.0f, 64);
    cudaDeviceSynchronize();
    std::printf("%d %d\\n", device_count_ok(), c_helper(1));
    return 0;
}
"""
C_FILE = "int c_helper(int x) { return x + 1; }\n"


def assert_amd_program(path: Path, kernels: list[str], elf_type: str = "ET_DYN"):
    """An x86-64 ELF carrying gfx1100 code objects that define the named kernels (from the
    lifter, `hip-…`, or from hipcc, `hipv4-…`)."""
    with open(path, "rb") as f:
        assert ELFFile(f)["e_type"] == elf_type
    objects = amd_code_objects(path)
    assert objects, "no AMD code object"
    assert {co.id for co in objects} <= {"hip-amdgcn-amd-amdhsa--gfx1100", "hipv4-amdgcn-amd-amdhsa--gfx1100"}
    assert all(CodeObject(co.data).processor == "gfx1100" for co in objects)
    found = {name for co in objects for name in CodeObject(co.data).kernels}
    for kernel in kernels:
        assert kernel in found, found


def make_rule(text: str) -> str:
    """A make rule on one line (compilers wrap long ones with backslash-newline)."""
    return " ".join(text.replace("\\\n", " ").split())


def cass_nvcc(*args: str, cwd: Path, **env: str):
    proc = run(["cass-nvcc", *args], cwd=cwd, env=tool_env(**env))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc


def test_vector_add_with_make(vector_add_build):
    assert_amd_program(vector_add_build / "vector_add", ["_Z10vector_addPKfS0_Pfi"])
    assert_amd_program(vector_add_build / "vector_add.o", ["_Z10vector_addPKfS0_Pfi"], "ET_REL")


def test_vector_add_with_nvcc_from_the_environment(vector_add_build, tmp_path):
    """`NVCC=cass-nvcc make`: the Makefile's `NVCC ?= nvcc` takes it from the environment."""
    proc = run(["make", "clean", "all"], cwd=vector_add_build, env=tool_env(NVCC="cass-nvcc"))
    assert proc.returncode == 0, proc.stderr
    assert "cass-nvcc -O2" in proc.stdout
    assert_amd_program(vector_add_build / "vector_add", ["_Z10vector_addPKfS0_Pfi"])


@pytest.fixture(scope="module")
def mixed_project(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("mixed")
    (folder / "kernels").mkdir()
    (folder / "kernels" / "scale.cuh").write_text(KERNEL_HEADER)
    (folder / "main.cu").write_text(MAIN_FILE)
    (folder / "host.cpp").write_text(HOST_FILE)
    (folder / "helper.c").write_text(C_FILE)
    return folder


# What each route's compile of main.cu reports, and the temporaries --cass-save-temps keeps beside it.
MIXED_TIER = {None: ("binary", "lift"), "source": ("source", "hipify")}


@pytest.mark.parametrize("route", [None, "source"])
def test_mixed_inputs_library_and_link(mixed_project, route):
    """.cu + .cpp + .c in one command, a static library made with -lib, linked with -L/-l."""
    d = mixed_project
    env = {"CASS_ROUTE": route} if route else {}
    cass_nvcc("-lib", "host.cpp", "helper.c", "-o", "libhelpers.a", cwd=d, **env)
    proc = cass_nvcc("-O2", "-std=c++17", "-arch=sm_80", "main.cu", "-L.", "-lhelpers", "-o", "prog",
                     "--cass-report", "report.json", "--cass-save-temps", cwd=d, **env)
    assert_amd_program(d / "prog", ["_Z5scaleIfEvPT_S0_i"])
    report = json.loads((d / "report.json").read_text())
    name, tier = MIXED_TIER[route]
    assert report["route"] == name and report["offload_arch"] == "gfx1100"
    assert report["nvidia_targets"] == ["sm_80"]
    assert [(k["demangled"], k["tier"], k["status"]) for k in report["kernels"]] == \
        [("void scale<float>(float*, float, int)", tier, "ok")]
    if route == "source":  # the hipified translation unit and the user's header it includes
        hip = (d / "main.hip").read_text()
        assert "hipMalloc" in hip and "cudaMalloc" not in hip
        assert "__global__ void scale" in (d / "main.hip-scale.cuh").read_text()
    else:  # the kernel's SASS, LLVM IR and RDNA3 assembly
        kept = d / "main.cass"
        assert {p.suffix for p in kept.glob("_Z5scaleIfEvPT_S0_i.*")} >= {".sass", ".ll", ".s", ".o"}
    assert proc.stderr == ""


def test_dependency_files(mixed_project):
    d = mixed_project
    rule = make_rule(cass_nvcc("-M", "main.cu", cwd=d).stdout)
    assert rule.startswith("main.o: main.cu ")
    assert " kernels/scale.cuh" in rule and "mirror" not in rule
    cass_nvcc("-E", "main.cu", "-o", "main.ii", cwd=d)
    text = (d / "main.ii").read_text()
    assert "hipMalloc" in text and "__global__" not in text.split("scale")[0][-200:]


# The default route hands -isystem folders to nvcc as they are; the source route leaves out the
# host compiler's own folders (as -isystem they would break its #include_next).
@pytest.mark.parametrize("route,system_dir", [(None, "third_party"), ("source", "/usr/include")])
def test_compile_with_deps_like_cmake(mixed_project, route, system_dir):
    """The command CMake's Makefiles run: -MD -MT -MF, -x cu, -forward-unknown-to-host-compiler."""
    d = mixed_project
    (d / "third_party").mkdir(exist_ok=True)
    obj = d / f"obj-{route}"
    obj.mkdir()
    cass_nvcc("-forward-unknown-to-host-compiler", "-DNDEBUG", f"-isystem={system_dir}", "-O3",
              "--generate-code=arch=compute_80,code=[compute_80,sm_80]", "-Xcompiler=-fPIC",
              "-std=c++17", "-MD", "-MT", f"{obj.name}/main.cu.o", "-MF", f"{obj.name}/main.cu.o.d", "-x", "cu",
              "-c", "main.cu", "-o", f"{obj.name}/main.cu.o", cwd=d, **({"CASS_ROUTE": route} if route else {}))
    target, deps = make_rule((obj / "main.cu.o.d").read_text()).split(":", 1)  # nvcc writes `target :`
    assert target.strip() == f"{obj.name}/main.cu.o" and deps.startswith(" main.cu ")
    assert " kernels/scale.cuh" in deps
    assert_amd_program(obj / "main.cu.o", ["_Z5scaleIfEvPT_S0_i"], "ET_REL")


def test_compile_several_into_odir(mixed_project, tmp_path):
    """-c with several inputs and -odir; -include of a header found on the include path; the
    report of every compile in CASS_REPORT_DIR."""
    d = mixed_project
    reports = tmp_path / "reports"
    (d / "out").mkdir()  # like nvcc, -odir names an existing folder
    cass_nvcc("-c", "-odir", "out", "-include", "stdio.h", "main.cu", "helper.c", cwd=d,
              CASS_REPORT_DIR=str(reports))
    assert sorted(os.listdir(d / "out")) == ["helper.o", "main.o"]
    assert_amd_program(d / "out" / "main.o", ["_Z5scaleIfEvPT_S0_i"], "ET_REL")
    [report] = [json.loads(p.read_text()) for p in reports.iterdir()]
    assert report["source"] == "main.cu" and len(report["kernels"]) == 1


def test_relocatable_device_code(rdc_program):
    assert_amd_program(rdc_program, ["_Z7doubledPi"])


def test_shared_library(tmp_path):
    (tmp_path / "lib.cu").write_text('__global__ void fill(int* p) { p[threadIdx.x] = 7; }\n'
                                     'extern "C" void launch(int* p) { fill<<<1, 32>>>(p); }\n')
    cass_nvcc("-shared", "-Xcompiler", "-fPIC", "lib.cu", "-o", "libfill.so", cwd=tmp_path)
    assert_amd_program(tmp_path / "libfill.so", ["_Z4fillPi"])


OPENMP_PROGRAM = r"""
#include <cstdio>
#include <omp.h>
__global__ void iota(int *a) { a[threadIdx.x] = threadIdx.x; }
int main()
{
    int *d, h[64];
    cudaMalloc(&d, sizeof h);
    iota<<<1, 64>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < 64; i++)
        sum += h[i];
    std::printf("sum %ld, %s\n", sum, omp_get_max_threads() > 0 ? "openmp" : "no threads");
    return 0;
}
"""


def test_host_compiler_options_reach_the_link(tmp_path):
    """nvcc gives -Xcompiler options to the host compiler when it links too: -fopenmp there is
    what brings libgomp in (a program with OpenMP host loops, built and linked in one command and
    in two)."""
    (tmp_path / "omp.cu").write_text(OPENMP_PROGRAM)
    cass_nvcc("-O2", "-Xcompiler", "-fopenmp", "omp.cu", "-o", "omp", cwd=tmp_path)
    cass_nvcc("-O2", "-Xcompiler=-fopenmp", "-c", "omp.cu", "-o", "omp.o", cwd=tmp_path)
    cass_nvcc("-Xcompiler", "-fopenmp", "omp.o", "-o", "omp2", cwd=tmp_path)
    for program in ("omp", "omp2"):
        proc = run(["cass-run", f"./{program}"], cwd=tmp_path)
        assert proc.returncode == 0 and proc.stdout == "sum 2016, openmp\n", (proc.stdout, proc.stderr[-2000:])


def test_latin1_source_compiles_unchanged(tmp_path):
    """hipify's copy keeps the bytes of a Latin-1 source (nvcc, on the default route, reads the
    file itself): the source route, named."""
    (tmp_path / "old.cu").write_bytes(b"// r\xe9sum\xe9 (Latin-1)\n__global__ void k(int* p) { p[0] = 1; }\n")
    proc = cass_nvcc("--cass-route=source", "-c", "old.cu", "--keep", "--keep-dir", "kept",
                     "--cass-dump-after=hipify", cwd=tmp_path)
    assert (tmp_path / "kept" / "old.hip").read_bytes().startswith(b"// r\xe9sum\xe9")
    assert proc.stderr.startswith("*** old.cu after hipify ***\n// r")
    assert "__global__ void k(int* p)" in proc.stderr
    assert_amd_program(tmp_path / "old.o", ["_Z1kPi"], "ET_REL")


# The jobs each route's compile and link of one .cu print: (compile, link) fragments.
DRYRUN_JOBS = {None: (["nvcc -c a.cu", "cass-cc translate-object "], "-lcassrt"),
               "source": (["#$ cass-cc hipify a.cu --mirror ", "hipcc -x hip --offload-arch=gfx1100"], "-lamdhip64")}


@pytest.mark.parametrize("route", [None, "source"])
def test_dryrun_prints_the_jobs_and_builds_nothing(tmp_path, route):
    (tmp_path / "a.cu").write_text("__global__ void k() {}\n")
    proc = cass_nvcc("--dryrun", "a.cu", "-o", "a.out", cwd=tmp_path, **({"CASS_ROUTE": route} if route else {}))
    lines = proc.stderr.splitlines()
    compile_, link = DRYRUN_JOBS[route]
    for fragment in compile_:
        assert any(fragment in l for l in lines), (fragment, lines)
    assert any(link in l and " -o " in l and "-x hip" not in l for l in lines), lines  # the link
    assert sorted(os.listdir(tmp_path)) == ["a.cu"]


def test_report_of_a_program_whose_main_file_has_no_kernels(tmp_path):
    """A host-only main.cu has no code object to read kernels from: its report lists none, the
    file with the kernels lists them, and the build succeeds."""
    (tmp_path / "main.cu").write_text(
        "#include <cstdio>\nvoid launch(int *d);\nint main() { int *d; cudaMalloc(&d, 4); launch(d);"
        " cudaFree(d); puts(\"PASS\"); }\n")
    (tmp_path / "kern.cu").write_text(
        "__global__ void one(int *d) { *d = 1; }\nvoid launch(int *d) { one<<<1, 1>>>(d); }\n")
    reports = tmp_path / "reports"
    proc = cass_nvcc("main.cu", "kern.cu", "-o", "prog", cwd=tmp_path, CASS_REPORT_DIR=str(reports))
    assert proc.returncode == 0, proc.stderr
    kernels = {json.loads(p.read_text())["source"].rsplit("/", 1)[-1]: json.loads(p.read_text())["kernels"]
               for p in reports.iterdir()}
    assert kernels["main.cu"] == [] and [k["name"] for k in kernels["kern.cu"]] == ["_Z3onePi"]
