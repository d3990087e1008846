"""libcassrt: built by the package, exporting every function of CUDA's runtime library and of the
driver API cuda.h declares, with CUDA's error codes and strings and a named 'not supported' for
what it lacks."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

from cass_cc import toolchain
from cass_cc.runtime import cassrt
from cass_cc.runtime.cassrt.build import cuda_include_dir

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def libcassrt() -> Path:
    return cassrt.library_path()


def _dynamic(path: Path) -> tuple[set[str], list[str], str]:
    with open(path, "rb") as f:
        elf = ELFFile(f)
        names = {s.name for s in elf.get_section_by_name(".dynsym").iter_symbols()
                 if s["st_shndx"] != "SHN_UNDEF" and s["st_info"]["type"] == "STT_FUNC"}
        dyn = elf.get_section_by_name(".dynamic")
        needed = [t.needed for t in dyn.iter_tags() if t.entry.d_tag == "DT_NEEDED"]
        soname = next(t.soname for t in dyn.iter_tags() if t.entry.d_tag == "DT_SONAME")
    return names, needed, soname


def test_exports_exactly_cudas_runtime_and_driver_functions(libcassrt):
    names, needed, soname = _dynamic(libcassrt)
    driver = set(cassrt.driver_symbols())
    assert {"cuMemAlloc_v2", "cuMemcpyAsync_ptsz", "cuLaunchKernel"} <= driver
    assert names == set(cassrt.runtime_symbols()) | driver
    assert (libcassrt.parent / "libcuda.so").resolve() == libcassrt.resolve()
    assert soname == "libcassrt.so"
    assert any(n.startswith("libamdhip64.so") for n in needed)


def test_build_is_cached(libcassrt):
    assert cassrt.library_path() == libcassrt
    assert not [p for p in libcassrt.parent.parent.glob("cassrt-build-*")]


def test_registration_entry_points_of_nvcc_objects_are_implemented(libcassrt, tmp_path):
    """Every __cuda*/cuda* symbol an nvcc object needs is a real implementation, not a stub."""
    src = tmp_path / "k.cu"
    src.write_text("__device__ int v; __managed__ int m;\n"
                   "__global__ void k(int *p) { p[0] = v + m; }\n"
                   "int main() { int *p; cudaMalloc(&p, 4); k<<<1, 1>>>(p); m = 1;\n"
                   "  cudaMemcpyToSymbol(v, p, 4); return cudaDeviceSynchronize(); }\n")
    obj = tmp_path / "k.o"
    subprocess.run([toolchain.path("nvcc"), "-c", str(src), "-o", str(obj), "-arch=sm_80"], check=True)
    with open(obj, "rb") as f:
        undefined = {s.name for s in ELFFile(f).get_section_by_name(".symtab").iter_symbols()
                     if s["st_shndx"] == "SHN_UNDEF" and s.name.startswith(("cuda", "__cuda"))}
    stubs = _stub_names(libcassrt)
    assert undefined and not undefined & stubs, f"stubbed: {sorted(undefined & stubs)}"


def _stub_names(libcassrt: Path) -> set[str]:
    """Functions whose code is a stub: they print '<name> is not supported'."""
    data = libcassrt.read_bytes()
    return {n for n in cassrt.runtime_symbols() if f"{n} is not supported".encode() in data}


def test_host_program_sees_cuda_errors_and_unsupported_once(libcassrt, tmp_path):
    exe = tmp_path / "stub_check"
    subprocess.run([toolchain.path("cc"), "-I", cuda_include_dir(), str(HERE / "stub_check.c"), "-o", str(exe),
                    f"-L{libcassrt.parent}", "-lcassrt", f"-Wl,-rpath,{libcassrt.parent}"], check=True)
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "HIP_VISIBLE_DEVICES": ""})
    assert proc.stdout.strip() == "PASS", proc.stdout + proc.stderr
    assert proc.stderr.count("libcassrt: cudaIpcGetMemHandle is not supported") == 1
