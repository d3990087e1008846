"""Building real projects with cass-nvcc (source route): the examples through make and CMake,
mixed inputs, libraries, dependency files, reports. Products are checked by reading them: an
x86-64 ELF whose .hip_fatbin offload bundle holds a gfx1100 code object with the kernel."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from cass_cc.driver import hip_fatbin

from .conftest import run, tool_env

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
    """An x86-64 ELF carrying gfx1100 code objects that define the named kernels."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        assert elf["e_machine"] == "EM_X86_64"
        assert elf["e_type"] == elf_type
    objects = hip_fatbin.code_objects(str(path))
    assert objects, "no AMD code object"
    assert {co.id for co in objects} == {"hipv4-amdgcn-amd-amdhsa--gfx1100"}
    assert all(hip_fatbin.code_object_target(co.data) == "gfx1100" for co in objects)
    found = {name for co in objects for name in hip_fatbin.kernel_symbols(co.data)}
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


def test_cmake_project(cmake_build):
    assert_amd_program(cmake_build / "saxpy_demo", ["_Z12saxpy_kernelifPKfPf"])  # linked as C++
    assert_amd_program(cmake_build / "saxpy_selftest", ["_Z12saxpy_kernelifPKfPf"])  # as CUDA
    cache = (cmake_build / "CMakeCache.txt").read_text()
    assert "cass-nvcc" in cache
    compiler = (cmake_build / "CMakeFiles").glob("*/CMakeCUDACompiler.cmake")
    assert 'set(CMAKE_CUDA_COMPILER_ID "NVIDIA")' in next(compiler).read_text()


@pytest.fixture(scope="module")
def mixed_project(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("mixed")
    (folder / "kernels").mkdir()
    (folder / "kernels" / "scale.cuh").write_text(KERNEL_HEADER)
    (folder / "main.cu").write_text(MAIN_FILE)
    (folder / "host.cpp").write_text(HOST_FILE)
    (folder / "helper.c").write_text(C_FILE)
    return folder


def test_mixed_inputs_library_and_link(mixed_project):
    """.cu + .cpp + .c in one command, a static library made with -lib, linked with -L/-l."""
    d = mixed_project
    cass_nvcc("-lib", "host.cpp", "helper.c", "-o", "libhelpers.a", cwd=d)
    proc = cass_nvcc("-O2", "-std=c++17", "-arch=sm_80", "main.cu", "-L.", "-lhelpers", "-o", "prog",
                     "--cass-report", "report.json", "--cass-save-temps", cwd=d)
    assert_amd_program(d / "prog", ["_Z5scaleIfEvPT_S0_i"])
    report = json.loads((d / "report.json").read_text())
    assert report["route"] == "source" and report["offload_arch"] == "gfx1100"
    assert report["nvidia_targets"] == ["sm_80"]
    assert [(k["demangled"], k["tier"], k["status"]) for k in report["kernels"]] == \
        [("void scale<float>(float*, float, int)", "hipify", "ok")]
    hip = (d / "main.hip").read_text()
    assert "hipMalloc" in hip and "cudaMalloc" not in hip
    assert "__global__ void scale" in (d / "main.hip-scale.cuh").read_text()
    assert proc.stderr == ""


def test_dependency_files(mixed_project):
    d = mixed_project
    rule = make_rule(cass_nvcc("-M", "main.cu", cwd=d).stdout)
    assert rule.startswith("main.o: main.cu ")
    assert " kernels/scale.cuh" in rule and "mirror" not in rule
    cass_nvcc("-E", "main.cu", "-o", "main.ii", cwd=d)
    text = (d / "main.ii").read_text()
    assert "hipMalloc" in text and "__global__" not in text.split("scale")[0][-200:]


def test_compile_with_deps_like_cmake(mixed_project):
    """The command CMake's Makefiles run: -MD -MT -MF, -x cu, -forward-unknown-to-host-compiler."""
    d = mixed_project
    (d / "obj").mkdir()
    cass_nvcc("-forward-unknown-to-host-compiler", "-DNDEBUG", "-isystem=/usr/include", "-O3",
              "--generate-code=arch=compute_80,code=[compute_80,sm_80]", "-Xcompiler=-fPIC",
              "-std=c++17", "-MD", "-MT", "obj/main.cu.o", "-MF", "obj/main.cu.o.d", "-x", "cu",
              "-c", "main.cu", "-o", "obj/main.cu.o", cwd=d)
    rule = make_rule((d / "obj" / "main.cu.o.d").read_text())
    assert rule.startswith("obj/main.cu.o: main.cu ")
    assert " kernels/scale.cuh" in rule
    assert_amd_program(d / "obj" / "main.cu.o", ["_Z5scaleIfEvPT_S0_i"], "ET_REL")


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


def test_latin1_source_compiles_unchanged(tmp_path):
    (tmp_path / "old.cu").write_bytes(b"// r\xe9sum\xe9 (Latin-1)\n__global__ void k(int* p) { p[0] = 1; }\n")
    proc = cass_nvcc("-c", "old.cu", "--keep", "--keep-dir", "kept", "--cass-dump-after=hipify",
                     cwd=tmp_path)
    assert (tmp_path / "kept" / "old.hip").read_bytes().startswith(b"// r\xe9sum\xe9")
    assert proc.stderr.startswith("*** old.cu after hipify ***\n// r")
    assert "__global__ void k(int* p)" in proc.stderr
    assert_amd_program(tmp_path / "old.o", ["_Z1kPi"], "ET_REL")


def test_dryrun_prints_the_jobs_and_builds_nothing(tmp_path):
    (tmp_path / "a.cu").write_text("__global__ void k() {}\n")
    proc = cass_nvcc("--dryrun", "a.cu", "-o", "a.out", cwd=tmp_path)
    lines = proc.stderr.splitlines()
    assert any(l.startswith("#$ cass-hipify a.cu") for l in lines)
    assert any("hipcc -x hip --offload-arch=gfx1100" in l for l in lines)
    assert any("hipcc --offload-arch=gfx1100" in l and " -o " in l and "-x hip" not in l
               for l in lines)  # the link
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
