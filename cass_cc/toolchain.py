"""Finding the external tools: nvcc, ptxas, nvdisasm, cuobjdump, LLVM (llvm-mc, ld.lld, llvm-objdump,
llvm-objcopy), hipcc and the ROCm device libraries.

The ground floor: the driver, the passes, the runtime and the bench use this module, and it
uses none of them.
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

from .errors import CassError, ToolMissing

LLVM_VERSIONS = (22, 21, 20)
DEBIAN_PACKAGES = "llvm-22 lld-22 clang-22 hipcc libamdhip64-dev rocm-device-libs"


@dataclass(frozen=True)
class Tool:
    name: str
    path: str
    how_to_get: str

    def version(self) -> str:
        """First line of the tool's own version text."""
        flag = "-version" if self.name == "nvdisasm-legacy" else "--version"
        try:
            out = subprocess.run([self.path, flag], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            return f"unknown ({e})"
        lines = [l.strip() for l in (out.stdout + out.stderr).splitlines() if l.strip()]
        for line in lines:
            if any(w in line.lower() for w in ("version", "release", "hip")):
                return line
        return lines[0] if lines else "unknown"


def from_wheel(path: str) -> bool:
    """Whether a tool comes from NVIDIA's PyPI wheels rather than a CUDA toolkit install."""
    return f"{os.sep}site-packages{os.sep}nvidia{os.sep}" in os.path.realpath(path)


HOW_TO_GET = {
    "nvcc": "install the CUDA toolkit (nvcc 12 or 13) and put its bin/ on PATH or set CUDA_HOME, or "
            "install NVIDIA's nvcc wheels from PyPI into cass-cc's environment: pip install 'cass-cc[nvcc]'",
    "ptxas": "install the CUDA toolkit (its bin/ptxas) or NVIDIA's nvcc wheels: pip install 'cass-cc[nvcc]'",
    "nvdisasm": "pip install nvidia-cuda-nvdisasm (or the CUDA toolkit's nvdisasm)",
    "cuobjdump": "pip install nvidia-cuda-cuobjdump (or the CUDA toolkit's cuobjdump)",
    "llvm-mc": "apt-get install llvm-22 (any LLVM >= 17 with the AMDGPU target), or set ROCM_PATH",
    "llvm-objdump": "apt-get install llvm-22, or set ROCM_PATH",
    "llvm-objcopy": "apt-get install llvm-22, or set ROCM_PATH",
    "llvm-as": "apt-get install llvm-22, or set ROCM_PATH",
    "ld.lld": "apt-get install lld-22, or set ROCM_PATH",
    "hipcc": "apt-get install hipcc libamdhip64-dev rocm-device-libs, or set ROCM_PATH",
    "clang++-22": "apt-get install clang-22 (builds HIP for the targets hipcc's clang lacks: gfx12, gfx942)",
    "clang-offload-bundler": "apt-get install hipcc (ROCm's clang ships it), or set ROCM_PATH",
    "cc": "apt-get install gcc",
}


def _rocm_path() -> str | None:
    return os.environ.get("ROCM_PATH") or None


def _cuda_home() -> str | None:
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            return os.environ[var]
    nvcc = shutil.which("nvcc")
    if nvcc and os.path.isdir(os.path.join(Path(os.path.realpath(nvcc)).parent.parent, "include", "crt")):
        return str(Path(os.path.realpath(nvcc)).parent.parent)
    return "/usr/local/cuda" if os.path.isdir("/usr/local/cuda") else None


def _candidates(name: str) -> list[str]:
    """Paths and PATH names to try for a tool, best first."""
    rocm = _rocm_path()
    cuda = _cuda_home()
    if name in ("nvcc", "ptxas", "cuobjdump", "nvdisasm"):
        found = [os.path.join(cuda, "bin", name)] if cuda else []
        found.append(name)
        # NVIDIA's PyPI wheels: nvidia-cuda-nvdisasm/-cuobjdump of CUDA 12 (nvidia/cuda_*/bin), and
        # CUDA 13's wheels (nvcc among them), which share one toolkit tree, nvidia/cu13.
        wheel_dir = {"nvdisasm": "cuda_nvdisasm", "cuobjdump": "cuda_cuobjdump"}.get(name)
        for entry in sys.path:
            if wheel_dir:
                found.extend(sorted(glob.glob(os.path.join(entry, "nvidia", wheel_dir, "bin", name))))
            found.extend(sorted(glob.glob(os.path.join(entry, "nvidia", "cu*", "bin", name)), reverse=True))
        return found
    if name == "hipcc":
        return ([os.path.join(rocm, "bin", "hipcc")] if rocm else []) + ["hipcc"]
    if name == "clang-offload-bundler":
        # hipcc's own clang's bundler first: it reads the bundles hipcc writes, which LLVM 22's
        # rejects ("invalid bundle id": clang 15 names the host "host-x86_64-unknown-linux")
        found = [os.path.join(rocm, "llvm", "bin", name)] if rocm else []
        clang = _hipcc_clang()
        if clang:
            found.append(os.path.join(os.path.dirname(clang), name))
        found += sorted(glob.glob("/usr/lib/llvm-*/bin/clang-offload-bundler"), reverse=True)
        return found + [name]
    if name == "cc":
        return [os.environ.get("CC", "cc"), "gcc", "clang"]
    if name == "clang++-22":  # Debian's clang-22, as a HIP compiler for targets hipcc's clang lacks
        return ["/usr/lib/llvm-22/bin/clang++", "clang++-22"]
    # LLVM tools: ROCm's own, then versioned Debian names (llvm-mc-22 rejects nothing LLVM 22 emits).
    found = [os.path.join(rocm, "llvm", "bin", name)] if rocm else []
    for v in LLVM_VERSIONS:
        found.append(f"/usr/lib/llvm-{v}/bin/{name}")
        found.append(f"{name}-{v}")
    return found


@functools.lru_cache(maxsize=None)
def find(name: str) -> Tool:
    """The tool called `name`, or ToolMissing saying how to get it."""
    for cand in _candidates(name):
        path = cand if os.path.isabs(cand) else shutil.which(cand)
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return Tool(name, path, HOW_TO_GET.get(name, ""))
    raise ToolMissing(f"{name} not found: {HOW_TO_GET.get(name, 'install it and put it on PATH')}")


def path(name: str) -> str:
    return find(name).path


# --- ROCm ------------------------------------------------------------------------------------

def rocm_bitcode_dirs() -> list[str]:
    """Folders that hold ROCm's device-library bitcode (ocml.bc, ockl.bc, oclc_*.bc)."""
    dirs = []
    rocm = _rocm_path()
    if rocm:
        dirs += [os.path.join(rocm, "amdgcn", "bitcode"), os.path.join(rocm, "lib", "amdgcn", "bitcode")]
    dirs += ["/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode",
             "/usr/lib/amdgcn/bitcode"]
    return [d for d in dirs if os.path.isfile(os.path.join(d, "ockl.bc"))]


def cache_root() -> Path:
    """$CASS_CACHE_DIR, or ~/.cache/cass-cc."""
    root = os.environ.get("CASS_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "cass-cc")
    path_ = Path(root)
    path_.mkdir(parents=True, exist_ok=True)
    return path_


def isa_version(offload_arch: str) -> int:
    """gfx1100 -> 11000, gfx90a -> 9010: the value of __oclc_ISA_version."""
    digits = offload_arch.removeprefix("gfx")
    major = int(digits[:-2])
    minor = int(digits[-2], 16)
    stepping = int(digits[-1], 16)
    return major * 1000 + minor * 100 + stepping


def rocm_device_lib_path(*offload_archs: str) -> str:
    """A folder with ROCm's device libraries that also has oclc_isa_version_<N>.bc for each arch.

    Debian's ROCm 5.2 lacks the gfx11 files; each is one constant, so the missing ones are
    generated into the cache next to links to the installed libraries.
    """
    dirs = rocm_bitcode_dirs()
    if not dirs:
        raise ToolMissing("ROCm device libraries (ockl.bc) not found: apt-get install rocm-device-libs, "
                          "or set ROCM_PATH")
    installed = dirs[0]
    wanted = {f"oclc_isa_version_{_isa_file_suffix(a)}.bc": isa_version(a) for a in sorted(set(offload_archs))}
    missing = {name: isa for name, isa in wanted.items() if not os.path.isfile(os.path.join(installed, name))}
    if not missing:
        return installed
    stem = "-".join(sorted(n.removeprefix("oclc_isa_version_").removesuffix(".bc") for n in missing))
    target = cache_root() / "device-libs" / f"{stem}-{zlib.crc32(installed.encode()):08x}"
    if all((target / name).is_file() for name in missing):
        return str(target)
    tmp = Path(str(target) + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for bc in os.listdir(installed):
        os.symlink(os.path.join(installed, bc), tmp / bc)
    for name, isa in missing.items():
        (tmp / "isa.ll").write_text(_isa_version_ir(installed, isa))
        proc = subprocess.run([_rocm_llvm_tool("llvm-as"), str(tmp / "isa.ll"), "-o", str(tmp / name)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise CassError(f"could not generate {name}: {proc.stderr.strip()}")
        (tmp / "isa.ll").unlink()
    try:
        os.rename(tmp, target)
    except OSError:  # another build made it first
        shutil.rmtree(tmp, ignore_errors=True)
    return str(target)


def _isa_file_suffix(offload_arch: str) -> str:
    """gfx1100 -> '1100', gfx90a -> '90a': the device libraries name the file after the
    processor (oclc_isa_version_90a.bc holds 9010), and clang looks it up by that name."""
    return offload_arch.removeprefix("gfx")


def _isa_version_ir(installed: str, isa: int) -> str:
    """IR for oclc_isa_version_<isa>: an installed sibling with its constant replaced, so the data
    layout and linkage are those the installed clang expects."""
    siblings = sorted(glob.glob(os.path.join(installed, "oclc_isa_version_*.bc")))
    if not siblings:
        raise ToolMissing(f"no oclc_isa_version_*.bc in {installed}: reinstall rocm-device-libs")
    proc = subprocess.run([_rocm_llvm_tool("llvm-dis"), siblings[-1], "-o", "-"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise CassError(f"could not read {siblings[-1]}: {proc.stderr.strip()}")
    lines = []
    for line in proc.stdout.splitlines():
        if line.startswith("@__oclc_ISA_version"):
            line = line.rsplit("i32", 1)[0] + f"i32 {isa}, align 4"
        lines.append(line)
    return "\n".join(lines) + "\n"


def _rocm_llvm_tool(name: str) -> str:
    """An LLVM tool of the clang that hipcc drives, so bitcode it writes is readable by that clang."""
    hipcc_clang = _hipcc_clang()
    if hipcc_clang:
        cand = os.path.join(os.path.dirname(hipcc_clang), name)
        if os.path.isfile(cand):
            return cand
    return path(name)


def hipcc_clang() -> str | None:
    """The clang that hipcc drives (None when there is none)."""
    return _hipcc_clang()


@functools.lru_cache(maxsize=None)
def _hipcc_clang() -> str | None:
    rocm = _rocm_path()
    cands = ([os.path.join(rocm, "llvm", "bin", "clang")] if rocm else [])
    cands += ["/usr/lib/llvm-15/bin/clang", "/usr/lib/llvm-17/bin/clang"]
    for c in cands:
        if os.path.isfile(c):
            return c
    return None


def libamdhip64() -> str:
    """Path of ROCm's libamdhip64.so (the real one)."""
    rocm = _rocm_path()
    cands = ([os.path.join(rocm, "lib", "libamdhip64.so")] if rocm else []) + [
        "/usr/lib/x86_64-linux-gnu/libamdhip64.so", "/opt/rocm/lib/libamdhip64.so"]
    for c in cands:
        if os.path.exists(c):
            return c
    raise ToolMissing("libamdhip64.so not found: apt-get install libamdhip64-dev, or set ROCM_PATH")


def rocm_root() -> str:
    """The install prefix whose include/hip holds the HIP headers (/usr on Debian): clang's
    --rocm-path, from which it reads the HIP version and finds the headers."""
    return os.path.dirname(hip_include_dir())


def hip_include_dir() -> str:
    """Folder holding hip/hip_runtime_api.h."""
    rocm = _rocm_path()
    cands = ([os.path.join(rocm, "include")] if rocm else []) + ["/usr/include", "/opt/rocm/include"]
    for c in cands:
        if os.path.isfile(os.path.join(c, "hip", "hip_runtime_api.h")):
            return c
    raise ToolMissing("HIP headers not found: apt-get install libamdhip64-dev, or set ROCM_PATH")


def cuda_library_include_dir(header: str) -> str:
    """The folder holding the header of one of CUDA's math libraries (curand.h, cublas_v2.h): the
    CUDA install's include folder, else NVIDIA's wheels (nvidia-cublas, nvidia-curand: nvidia/cu13/
    include, the toolkit tree CUDA 13's wheels share)."""
    cuda = _cuda_home()
    cands = [os.path.join(cuda, "include")] if cuda else []
    for entry in sys.path:
        cands.extend(sorted(glob.glob(os.path.join(entry, "nvidia", "cu*", "include")), reverse=True))
    for c in cands:
        if os.path.isfile(os.path.join(c, header)):
            return c
    raise ToolMissing(f"{header} not found: install the CUDA toolkit's library headers, or "
                      "pip install nvidia-cublas==13.0.* nvidia-curand (cass-cc's nvcc extra)")


def hip_environment(temp_dir: str | None = None) -> dict[str, str]:
    """Environment for hipcc: Debian's hipcc picks the NVIDIA platform when nvcc is on PATH.
    A caller that removes a private folder of its own passes it as `temp_dir`, the compiler's
    TMPDIR: clang 15 (ROCm 5.2's hipcc) leaves an empty folder per offload arch in TMPDIR after
    a `--cuda-device-only` build."""
    env = dict(os.environ)
    if temp_dir is not None:
        env["TMPDIR"] = temp_dir
    env["HIP_PLATFORM"] = "amd"
    env.setdefault("HIP_COMPILER", "clang")
    env.setdefault("HIP_RUNTIME", "rocclr")
    return env
