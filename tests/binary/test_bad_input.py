"""Bad input on the binary route: clear one-line errors, non-zero exits, no outputs left."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from binroute import cass_nvcc, cass_run

from cass_cc import toolchain
from cass_cc.driver.binary_embed import fatbin_section

HERE = Path(__file__).resolve().parent
SAXPY = HERE / "data" / "shared_lib" / "saxpy.cu"
HOST = HERE / "data" / "shared_lib" / "host.cpp"


@pytest.fixture(scope="module")
def nvcc_objects(tmp_path_factory) -> dict[str, Path]:
    """nvcc's own objects: saxpy for sm_80 and for sm_75, and the plain C++ host."""
    out = tmp_path_factory.mktemp("nvcc-objects")
    objs = {"sm_80": out / "saxpy80.o", "sm_75": out / "saxpy75.o", "host": out / "host.o"}
    for arch in ("sm_80", "sm_75"):
        subprocess.run([toolchain.path("nvcc"), "-c", f"-arch={arch}", str(SAXPY), "-o", str(objs[arch])], check=True)
    subprocess.run(["g++", "-c", str(HOST), "-o", str(objs["host"])], check=True)
    return objs


def _with_fatbin(obj: Path, content: bytes, out: Path) -> Path:
    blob = out.with_suffix(".bin")
    blob.write_bytes(content)
    subprocess.run([toolchain.path("llvm-objcopy"), f"--update-section=.nv_fatbin={blob}", str(obj), str(out)],
                   check=True)
    return out


def _fails_cleanly(proc: subprocess.CompletedProcess, output: Path, *words: str) -> None:
    assert proc.returncode != 0
    errors = [l for l in proc.stderr.splitlines() if l.startswith("cass-nvcc: error:")]
    assert errors and "Traceback" not in proc.stderr, proc.stderr
    assert all(w in errors[0] for w in words), errors[0]
    assert not output.exists()
    assert not list(output.parent.glob(".cass-*"))


@pytest.mark.parametrize("damage", ["corrupt", "truncated"])
def test_damaged_fatbin_in_an_object(nvcc_objects, tmp_path, damage):
    fatbin = fatbin_section(str(nvcc_objects["sm_80"]))
    if damage == "corrupt":
        content = fatbin[:16] + bytes(b ^ 0x5A for b in fatbin[16:64]) + fatbin[64:]
    else:
        content = fatbin[: len(fatbin) // 3]
    bad = _with_fatbin(nvcc_objects["sm_80"], content, tmp_path / f"{damage}.o")
    prog = tmp_path / "prog"
    proc = cass_nvcc("--cass-route=binary", bad, nvcc_objects["host"], "-o", prog, cwd=tmp_path)
    _fails_cleanly(proc, prog, str(bad.name))


def test_cubin_for_an_unsupported_architecture(nvcc_objects, tmp_path):
    prog = tmp_path / "prog"
    proc = cass_nvcc("--cass-route=binary", nvcc_objects["sm_75"], nvcc_objects["host"], "-o", prog, cwd=tmp_path)
    _fails_cleanly(proc, prog, "sm_75", "not supported")


def test_refused_kernel_without_fallback_leaves_no_object(tmp_path):
    obj = tmp_path / "saxpy.o"
    proc = cass_nvcc("--cass-route=binary", "--cass-translators=model", "-c", SAXPY, "-o", obj, cwd=tmp_path)
    _fails_cleanly(proc, obj, "saxpy(float, float const*, float*, int)", "model: no server at",
                   "no hipify fallback")


def test_program_without_code_for_the_device(tmp_path):
    """Built for another AMD processor: the launch fails with CUDA's 'no kernel image' error and
    libcassrt says which processor lacks code."""
    lib = tmp_path / "libsaxpy.so"
    proc = cass_nvcc("--cass-route=binary", "--cass-offload-arch=gfx1030", "-shared", "-Xcompiler", "-fPIC",
                     SAXPY, "-o", lib, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    subprocess.run(["g++", str(HOST), "-o", str(tmp_path / "host"), f"-L{tmp_path}", "-lsaxpy",
                    "-Wl,-rpath,$ORIGIN"], check=True)
    run = cass_run(tmp_path / "host")
    assert run.returncode == 1 and run.stdout.rstrip().endswith("FAIL")
    assert "libcassrt: no code object for gfx1100" in run.stderr



def test_wave64_source_route_refuses_legacy_warp_functions_with_the_reason(tmp_path):
    """gfx90a runs 64-lane waves: the source route builds CUDA's warp functions there (two warps
    in each wave), but HIP's legacy __shfl_down spans the whole wave, so a TU calling it is
    refused, naming the call (file:line), and nothing is written."""
    warp = tmp_path / "warp.cu"
    warp.write_text("__global__ void k(int *p) {\n  int v = p[threadIdx.x];\n"
                    "  p[threadIdx.x] = __shfl_down_sync(0xffffffffu, v, 1);\n"
                    "  asm volatile(\"bar.sync 0;\");\n  p[0] = warpSize;\n}\n")
    built_obj = tmp_path / "warp.o"
    built = cass_nvcc("--cass-route=source", "--cass-offload-arch=gfx1100,gfx90a", "-c", warp, "-o", built_obj,
                      cwd=tmp_path)
    assert built.returncode == 0 and built_obj.exists(), built.stderr
    legacy = tmp_path / "legacy.cu"
    legacy.write_text("__global__ void k(int *p) {\n  int v = p[threadIdx.x];\n"
                      "  p[threadIdx.x] = __shfl_down(v, 1);\n}\n")
    obj = tmp_path / "legacy.o"
    proc = cass_nvcc("--cass-route=source", "--cass-offload-arch=gfx1100,gfx90a", "-c", legacy, "-o", obj, cwd=tmp_path)
    _fails_cleanly(proc, obj, f"{legacy}:3: '__shfl_down' is a legacy warp function", "64-lane wave of gfx90a")