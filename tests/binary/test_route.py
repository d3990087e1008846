"""The binary route end to end: CUDA programs built by cass-nvcc --cass-route=binary run under
cass-run and pass, with every kernel translated from SASS (tier lift)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from binroute import (ROOT, cass_nvcc, cass_run, checksum, cuda_programs, program_args, program_flags,
                       program_sources, reports)

from cass_cc import toolchain

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.slow  # builds and emulates whole programs


def _build(folder: Path, out: Path, route: str, *extra: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    exe = out / "prog"
    proc = cass_nvcc(f"--cass-route={route}", *program_flags(folder), *extra, *program_sources(folder),
                     "-o", exe, cwd=out, env={"CASS_REPORT_DIR": str(out)})
    assert proc.returncode == 0, proc.stderr
    return exe


def _passes(exe: Path, folder: Path) -> str:
    proc = cass_run(exe, *program_args(folder))
    assert proc.returncode == 0 and proc.stdout.rstrip().endswith("PASS"), proc.stdout + proc.stderr
    reference = folder / "reference.txt"
    if reference.is_file():
        assert checksum(proc.stdout) == checksum(reference.read_text())
    return proc.stdout


@pytest.mark.parametrize("folder", cuda_programs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_program_passes_with_every_kernel_lifted(folder, build_root):
    out = build_root / "lift" / folder.relative_to(ROOT)
    exe = _build(folder, out, "binary")
    _passes(exe, folder)
    kernels = [k for r in reports(out) for k in r["kernels"]]
    assert kernels and all(k["tier"] == "lift" and k["status"] == "ok" for k in kernels), kernels


def test_refused_kernels_take_the_hipify_fallback(build_root):
    """The model translator, with no model server to ask, refuses every kernel; route auto falls back per kernel and
    says so in the report, and the program still passes."""
    folder = ROOT / "tests" / "programs" / "binary" / "runtime_features"
    out = build_root / "fallback"
    out.mkdir()
    exe = out / "prog"
    proc = cass_nvcc("--cass-route=binary", "--cass-translators=model", *program_sources(folder), "-o", exe,
                     cwd=out)
    assert proc.returncode != 0 and "model: no server at" in proc.stderr and not exe.exists()
    proc = cass_nvcc("--cass-route=auto", "--cass-translators=model", *program_sources(folder), "-o", exe,
                     cwd=out, env={"CASS_ROUTE": "", "CASS_REPORT_DIR": str(out)})
    assert proc.returncode == 0, proc.stderr
    _passes(exe, folder)
    kernels = [k for r in reports(out) for k in r["kernels"]]
    assert {k["tier"] for k in kernels} == {"hipify"}
    assert all(k["status"] == "fallback" and "model: no server at" in k["reasons"][0] for k in kernels)


def test_several_files_and_a_static_library(build_root):
    folder = ROOT / "tests" / "programs" / "binary" / "multi_file"
    out = build_root / "static"
    out.mkdir()
    for name in ("scale", "reduce", "main"):
        proc = cass_nvcc("--cass-route=binary", "-c", folder / f"{name}.cu", "-o", out / f"{name}.o", cwd=out)
        assert proc.returncode == 0, proc.stderr
    proc = cass_nvcc("-lib", out / "scale.o", out / "reduce.o", "-o", out / "libparts.a", cwd=out)
    assert proc.returncode == 0, proc.stderr
    proc = cass_nvcc("--cass-route=binary", out / "main.o", f"-L{out}", "-lparts", "-lcudart", "-o", out / "prog",
                     cwd=out)
    assert proc.returncode == 0, proc.stderr
    _passes(out / "prog", folder)


def test_shared_library_loaded_by_a_host_program(build_root):
    data = HERE / "data" / "shared_lib"
    out = build_root / "shared"
    out.mkdir()
    proc = cass_nvcc("--cass-route=binary", "-shared", "-Xcompiler", "-fPIC", data / "saxpy.cu",
                     "-o", out / "libsaxpy.so", cwd=out)
    assert proc.returncode == 0, proc.stderr
    subprocess.run(["g++", str(data / "host.cpp"), "-o", str(out / "host"), f"-L{out}", "-lsaxpy",
                    "-Wl,-rpath,$ORIGIN"], check=True)
    _passes(out / "host", data)
    subprocess.run(["g++", str(data / "host_dlopen.cpp"), "-o", str(out / "host_dlopen"), "-ldl"], check=True)
    _passes(out / "host_dlopen", data)


def test_object_from_plain_nvcc_is_translated_at_link(build_root):
    """cass-nvcc links objects nvcc made itself: their kernels are translated during the link."""
    data = HERE / "data" / "shared_lib"
    out = build_root / "foreign"
    out.mkdir()
    subprocess.run([toolchain.path("nvcc"), "-c", "-arch=sm_80", "-Xcompiler", "-fPIC", str(data / "saxpy.cu"),
                    "-o", str(out / "saxpy.o")], check=True)
    subprocess.run(["g++", "-c", str(data / "host.cpp"), "-o", str(out / "host.o")], check=True)
    proc = cass_nvcc("--cass-route=binary", out / "saxpy.o", out / "host.o", "-o", out / "prog", cwd=out)
    assert proc.returncode == 0, proc.stderr
    _passes(out / "prog", data)


def test_static_library_from_plain_nvcc_is_translated_at_link(build_root):
    folder = ROOT / "tests" / "programs" / "binary" / "multi_file"
    out = build_root / "foreign-archive"
    out.mkdir()
    for name in ("scale", "reduce", "main"):
        subprocess.run([toolchain.path("nvcc"), "-c", "-arch=sm_80", str(folder / f"{name}.cu"), "-o",
                        str(out / f"{name}.o")], check=True)
    subprocess.run(["ar", "rcs", str(out / "libparts.a"), str(out / "scale.o"), str(out / "reduce.o")], check=True)
    proc = cass_nvcc("--cass-route=binary", out / "main.o", out / "libparts.a", "-o", out / "prog", cwd=out)
    assert proc.returncode == 0, proc.stderr
    _passes(out / "prog", folder)


def test_save_temps_keeps_each_stage(tmp_path):
    src = ROOT / "examples" / "vector_add" / "vector_add.cu"
    proc = cass_nvcc("--cass-route=binary", "--cass-save-temps", "-c", src, "-o", tmp_path / "v.o", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    kept = tmp_path / "vector_add.cass"
    stem = "_Z10vector_addPKfS0_Pfi"
    assert {p.name for p in kept.iterdir()} >= {f"{stem}.sass", f"{stem}.ll", f"{stem}.s", f"{stem}.o",
                                                "vector_add.hsaco", "vector_add.nvcc.o",
                                                "vector_add.cass-report.json"}
    assert "global_load" in (kept / f"{stem}.s").read_text()


@pytest.mark.parametrize("route,archs", [("binary", "gfx1030,gfx1201,gfx1100"), ("source", "gfx1030,gfx1201,gfx1100")])
def test_several_offload_archs_in_one_program(build_root, route, archs):
    """One code object per target in the offload bundle (the emulated gfx1100 device picks its
    own, which need not be the first)."""
    data = HERE / "data" / "shared_lib"
    out = build_root / f"archs-{route}"
    out.mkdir()
    proc = cass_nvcc(f"--cass-route={route}", f"--cass-offload-arch={archs}", data / "saxpy.cu",
                     data / "host.cpp", "-o", out / "prog", cwd=out)
    assert proc.returncode == 0, proc.stderr
    _passes(out / "prog", data)
    listing = subprocess.run([toolchain.path("llvm-objdump"), "--offloading", str(out / "prog")], cwd=out,
                             capture_output=True, text=True, check=True).stdout
    assert sorted(re.findall(r"amdgcn-amd-amdhsa--(gfx\w+)", listing)) == sorted(archs.split(","))


@pytest.mark.parametrize("name", ["examples/vector_add", "tests/programs/hip/reduce_lds",
                                  "tests/programs/hip/warp_shuffle", "tests/programs/realworld/matmul_tiled"])
def test_gfx12_program_prints_what_the_gfx1100_one_prints(name, build_root):
    """Built for gfx1201 only (default route), cass-run emulates a gfx1201 device for it, and the
    program's output is the gfx1100 build's."""
    folder = ROOT / name
    outputs = {}
    for arch in ("gfx1100", "gfx1201"):
        exe = _build(folder, build_root / f"target-{arch}" / name, "auto", f"--cass-offload-arch={arch}")
        outputs[arch] = _passes(exe, folder)
    assert outputs["gfx1201"] == outputs["gfx1100"]
