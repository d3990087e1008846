"""Bad input: a clear one-line `cass-nvcc: error: ...` (or nvcc-shaped compiler messages), a
non-zero exit, no traceback, and no output file left behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import run, tool_env

KERNEL_WITH_ERROR = """\
#include <cuda_runtime.h>

__global__ void broken(int* out)
{
    out[threadIdx.x] = undefined_name;
}
"""


def cass_nvcc(*args: str, cwd: Path, route: str | None = None):
    return run(["cass-nvcc", *args], cwd=cwd, env=tool_env(**({"CASS_ROUTE": route} if route else {})))


def no_leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".o") or p.name.startswith(".cass-"))


@pytest.mark.parametrize("setup,args,message", [
    (None, ["-c", "missing.cu"], "cannot open input file 'missing.cu': no such file"),
    ("dir", ["-c", "folder.cu"], "input 'folder.cu' is a directory, not a source file"),
    ("empty", ["-c", "empty.cu"], "input file 'empty.cu' is empty: nothing to compile"),
    ("binary", ["-c", "binary.cu"], "input file 'binary.cu' is binary data, not source code (NUL byte at offset 1)"),
    ("ok", ["--no-such-option", "-c", "ok.cu"],
     "option '--no-such-option' is not supported yet: it is not an nvcc option (see cass-nvcc --help; "
     "-forward-unknown-to-host-compiler passes such options to the host compiler)"),
    ("ok", ["-dlink", "ok.cu"], "-dlink takes objects: compile 'ok.cu' with -dc first"),
    ("ok", ["-ptx", "ok.cu"], "option '-ptx' is not supported yet: it produces NVIDIA device code"),
    ("ok", ["-c", "ok.cu", "-x"], "option '-x' needs a value ({c|c++|cu})"),
    ("ok", ["-c", "ok.cu", "ok.cu", "-o", "two.o"],
     "a single input file is required for -c when an output file (-o) is given"),
    (None, [], "no input files (cass-nvcc --help lists the options)"),
    ("ok", ["ok.cu", "ok.cu", "--cass-report=r.json"], "--cass-report names one file, but there are "
     "several .cu inputs: use CASS_REPORT_DIR=<folder> for one report per input"),
    ("ok", ["kernel.ptx"], "cannot open input file 'kernel.ptx': no such file"),
])
def test_refused_before_compiling(tmp_path, setup, args, message):
    if setup == "dir":
        (tmp_path / "folder.cu").mkdir()
    elif setup == "empty":
        (tmp_path / "empty.cu").write_text("  \n")
    elif setup == "binary":
        (tmp_path / "binary.cu").write_bytes(b"\x7f\0ELF")
    elif setup == "ok":
        (tmp_path / "ok.cu").write_text("__global__ void k() {}\n")
    proc = cass_nvcc(*args, cwd=tmp_path)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith(f"cass-nvcc: error: {message}"), proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert no_leftovers(tmp_path) == []


def test_ptx_input_is_refused(tmp_path):
    (tmp_path / "kernel.ptx").write_text(".version 8.0\n")
    proc = cass_nvcc("kernel.ptx", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr == ("cass-nvcc: error: input 'kernel.ptx' is not supported yet: PTX input is "
                           "NVIDIA device code\n")


# The default route compiles with nvcc itself, whose messages these are; the source route
# compiles with hipcc (clang), whose messages it reshapes into nvcc's form, and names the files the
# user wrote, never its hipified copies.
UNDEFINED = {None: 'error: identifier "undefined_name" is undefined',
             "source": "error: use of undeclared identifier 'undefined_name'"}


@pytest.mark.parametrize("route", [None, "source"])
def test_compile_error_is_reported_like_nvcc(tmp_path, route):
    (tmp_path / "broken.cu").write_text(KERNEL_WITH_ERROR)
    proc = cass_nvcc("-c", "broken.cu", "-o", "broken.o", cwd=tmp_path, route=route)
    assert proc.returncode == 2, proc.stderr  # nvcc's exit status for errors in the code
    assert f"broken.cu(5): {UNDEFINED[route]}" in proc.stderr
    assert '1 error detected in the compilation of "broken.cu".' in proc.stderr
    assert "mirror" not in proc.stderr and "Traceback" not in proc.stderr
    assert no_leftovers(tmp_path) == []


@pytest.mark.parametrize("route", [None, "source"])
def test_error_in_an_included_header_names_the_header(tmp_path, route):
    (tmp_path / "kernels.cuh").write_text(KERNEL_WITH_ERROR)
    (tmp_path / "main.cu").write_text('#include "kernels.cuh"\nint main() { return 0; }\n')
    proc = cass_nvcc("main.cu", "-o", "prog", cwd=tmp_path, route=route)
    assert proc.returncode == 2
    if route == "source":  # clang says where the header was included; nvcc does not
        assert "In file included from main.cu(1):" in proc.stderr
    assert f"kernels.cuh(5): {UNDEFINED[route]}" in proc.stderr
    assert "mirror" not in proc.stderr
    assert not (tmp_path / "prog").exists()


def test_unwritable_output_path(tmp_path):
    (tmp_path / "ok.cu").write_text("__global__ void k(int* p) { p[0] = 1; }\n")
    target = tmp_path / "no" / "such" / "folder" / "ok.o"
    proc = cass_nvcc("-c", "ok.cu", "-o", str(target), cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr == f"cass-nvcc: error: cannot write '{target}': No such file or directory\n"
    assert no_leftovers(tmp_path) == []


def test_output_over_a_folder_is_refused(tmp_path):
    (tmp_path / "ok.cu").write_text("__global__ void k(int* p) { p[0] = 1; }\n")
    (tmp_path / "out.o").mkdir()
    proc = cass_nvcc("-c", "ok.cu", "-o", "out.o", cwd=tmp_path)
    assert proc.returncode == 1 and proc.stderr.startswith("cass-nvcc: error: cannot write 'out.o'")
    assert os.listdir(tmp_path / "out.o") == []
