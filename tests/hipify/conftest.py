"""Shared fixtures for the hipify tests: the identifiers the installed HIP and CUDA headers
declare, and a hipcc compile of translated sources for gfx1100."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cass_cc import toolchain
from cass_cc.errors import ToolMissing
from cass_cc.hipify import translate

_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def header_identifiers(root: Path, skip: tuple[str, ...] = ()) -> set[str]:
    names: set[str] = set()
    for path in root.rglob("*"):
        if any(part in skip for part in path.relative_to(root).parts):
            continue
        if path.is_file() and path.suffix in (".h", ".hpp", ".cuh", ""):
            names |= set(_IDENT.findall(_COMMENT.sub(" ", path.read_text(errors="replace"))))
    return names


@pytest.fixture(scope="session")
def hip_identifiers() -> set[str]:
    try:
        root = Path(toolchain.hip_include_dir()) / "hip"
    except ToolMissing as e:
        pytest.skip(str(e))
    # The NVIDIA-platform headers declare CUDA's names; only the AMD platform's count.
    return header_identifiers(root, skip=("nvidia_detail", "nvcc_detail"))


@pytest.fixture(scope="session")
def cuda_identifiers() -> set[str]:
    try:
        nvcc = Path(os.path.realpath(toolchain.path("nvcc")))
    except ToolMissing as e:
        pytest.skip(str(e))
    root = nvcc.parent.parent / "include"
    if not (root / "cuda_runtime_api.h").is_file():
        pytest.skip(f"no CUDA headers next to {nvcc}")
    return header_identifiers(root)


class HipCompiler:
    """hipcc -c for gfx1100 on translated CUDA sources, in one private folder per session."""

    def __init__(self) -> None:
        self.hipcc = toolchain.path("hipcc")
        self.device_libs = toolchain.rocm_device_lib_path("gfx1100")
        self.folder = Path(tempfile.mkdtemp(prefix="cass-hipify-"))

    def compile_cuda(self, name: str, cuda_text: str, link: bool = False):
        """Translate and compile (and link, into a program); returns (HipifyResult,
        CompletedProcess)."""
        result = translate(cuda_text, f"{name}.cu")
        source = self.folder / f"{name}.hip"
        source.write_text(result.text)
        cmd = [self.hipcc, "--offload-arch=gfx1100", f"--rocm-device-lib-path={self.device_libs}",
               *([] if link else ["-c"]), str(source),
               "-o", str(self.folder / (name if link else f"{name}.o"))]
        if result.compat_header:
            cmd[1:1] = ["-include", result.compat_header]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=toolchain.hip_environment(),
                              timeout=300)
        return result, proc


@pytest.fixture(scope="session")
def hip_compiler():
    try:
        compiler = HipCompiler()
    except ToolMissing as e:
        pytest.skip(str(e))
    yield compiler
    shutil.rmtree(compiler.folder, ignore_errors=True)
