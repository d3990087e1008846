"""Building libcassrt: the C sources of this folder, compiled with the system C compiler against
CUDA's headers (cuda_*.c: the runtime API, driver_*.c: the driver API) and HIP's headers (hip_*.c),
linked against libamdhip64, into the cache as `cassrt-<hash>/libcassrt.so` (made in a private
folder, then renamed into place). The folder also holds `libcuda.so`, a link to libcassrt.so, so
a program linked with `-lcuda` gets the driver API from the same library as the runtime's and the
two share devices, memory, streams and arrays."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from elftools.elf.elffile import ELFFile

from ... import toolchain
from ...errors import CassError, ToolMissing

SOURCE_DIR = Path(__file__).resolve().parent
LIBRARY = "libcassrt.so"
SONAME = LIBRARY
DRIVER_LINK = "libcuda.so"      # what `-lcuda` finds in the folder on the link line
EXPORTS = "{ global: cuda*; __cuda*; cu[A-Z]*; local: *; };\n"
CUDA_SIDE = ("cuda_", "driver_")   # sources compiled against CUDA's headers
C_FLAGS = ["-std=gnu11", "-O2", "-fPIC", "-Wall", "-Wextra", "-Werror"]


def cuda_include_dir() -> str:
    """CUDA's include folder: the headers programs are compiled with, so cudaDeviceProp and the
    other structures libcassrt fills have their layout."""
    nvcc = os.path.realpath(toolchain.path("nvcc"))
    include = os.path.join(os.path.dirname(os.path.dirname(nvcc)), "include")
    if not os.path.isfile(os.path.join(include, "cuda_runtime_api.h")):
        raise ToolMissing(f"CUDA headers not found next to {nvcc}: install the CUDA toolkit's headers")
    return include


HEAP_LAYOUT = SOURCE_DIR.parent / "cass_device_heap.h"     # the device heap's layout: cuda_launch.c includes it


def _sources() -> list[Path]:
    return sorted(p for p in SOURCE_DIR.iterdir() if p.suffix in (".c", ".h", ".def", ".txt")) + [HEAP_LAYOUT]


def _build_key(cc: str, cuda_inc: str, hip_inc: str, amdhip: str) -> str:
    h = hashlib.sha256()
    for src in _sources():
        h.update(src.name.encode() + b"\0" + src.read_bytes())
    for part in (cc, cuda_inc, hip_inc, os.path.realpath(amdhip)):
        h.update(part.encode() + b"\0")
    for header in ("driver_types.h", "cuda_runtime_api.h", "cuda.h"):
        h.update(Path(cuda_inc, header).read_bytes())
    return h.hexdigest()[:16]


def library_dir() -> Path:
    """The folder holding libcassrt.so, building it on first use."""
    cc = toolchain.path("cc")
    cuda_inc, hip_inc, amdhip = cuda_include_dir(), toolchain.hip_include_dir(), toolchain.libamdhip64()
    target = toolchain.cache_root() / f"cassrt-{_build_key(cc, cuda_inc, hip_inc, amdhip)}"
    if (target / LIBRARY).is_file():
        return target
    work = Path(tempfile.mkdtemp(prefix="cassrt-build-", dir=toolchain.cache_root()))
    try:
        _build(work, cc, cuda_inc, hip_inc, amdhip)
        try:
            os.rename(work / "out", target)
        except OSError:
            if not (target / LIBRARY).is_file():  # not another build's finished copy
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def library_path() -> Path:
    return library_dir() / LIBRARY


def _build(work: Path, cc: str, cuda_inc: str, hip_inc: str, amdhip: str) -> None:
    objects = []
    for src in sorted(SOURCE_DIR.glob("*.c")):
        if src.name.startswith(CUDA_SIDE):
            includes = ["-I", cuda_inc]
        else:
            includes = ["-D__HIP_PLATFORM_AMD__", "-I", hip_inc]
        objects.append(_compile(cc, src, work, includes))
    stubs = work / "unsupported.c"
    stubs.write_text(_unsupported_source(_defined_functions(objects), driver_symbols()))
    objects.append(_compile(cc, stubs, work, []))
    (work / "exports.map").write_text(EXPORTS)
    out = work / "out"
    out.mkdir()
    _run([cc, "-shared", "-o", str(out / LIBRARY), *map(str, objects), f"-Wl,-soname,{SONAME}",
          f"-Wl,--version-script={work / 'exports.map'}", "-Wl,-z,defs", amdhip, "-lpthread", "-ldl"])
    os.symlink(LIBRARY, out / DRIVER_LINK)


def _compile(cc: str, src: Path, work: Path, includes: list[str]) -> Path:
    obj = work / (src.stem + ".o")
    _run([cc, *C_FLAGS, "-I", str(SOURCE_DIR), *includes, "-c", str(src), "-o", str(obj)])
    return obj


def _run(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CassError(f"building libcassrt failed: {' '.join(cmd)}\n{proc.stderr.strip()}")


def _defined_functions(objects: list[Path]) -> set[str]:
    names = set()
    for obj in objects:
        with open(obj, "rb") as f:
            symtab = ELFFile(f).get_section_by_name(".symtab")
            for sym in symtab.iter_symbols():
                if sym["st_info"]["type"] == "STT_FUNC" and sym["st_shndx"] != "SHN_UNDEF":
                    names.add(sym.name)
    return names


def runtime_symbols() -> list[str]:
    """Every function CUDA's runtime library exports (runtime_symbols.txt)."""
    lines = (SOURCE_DIR / "runtime_symbols.txt").read_text().splitlines()
    return [l.strip() for l in lines if l.strip() and not l.startswith("#")]


def driver_symbols() -> list[str]:
    """Every driver API function a program compiled against this CUDA's cuda.h can call: the
    names its declarations take after cuda.h's macros (cuMemAlloc_v2), with and without
    per-thread default streams (cuMemcpyAsync_ptsz). libcassrt defines each one, as for
    runtime_symbols."""
    cc, cuda_inc = toolchain.path("cc"), cuda_include_dir()
    names: set[str] = set()
    for defines in ([], ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"]):
        proc = subprocess.run([cc, "-E", "-P", *defines, "-I", cuda_inc, "-x", "c", "-"],
                              input="#include <cuda.h>\n", capture_output=True, text=True)
        if proc.returncode != 0:
            raise CassError(f"building libcassrt failed: preprocessing cuda.h\n{proc.stderr.strip()}")
        names.update(re.findall(r"\bCUresult\s+(cu\w+)\s*\(", proc.stdout))
    return sorted(names)


def _unsupported_source(implemented: set[str], driver: list[str]) -> str:
    """C stubs for the exported functions libcassrt does not implement. They take no parameters:
    a C caller's arguments are ignored harmlessly, and the result is cudaErrorNotSupported (the
    runtime's, recorded as its last error) or CUDA_ERROR_NOT_SUPPORTED (the driver's, which
    records nothing); both are 801."""
    lines = ['#include "cassrt.h"', "",
             "static int unsupported(const char *what)", "{",
             "    cassrt_note_once(what);",
             "    return cassrt_result(801); /* cudaErrorNotSupported */", "}", "",
             "static int driver_unsupported(const char *what)", "{",
             "    cassrt_note_once(what);",
             "    return 801; /* CUDA_ERROR_NOT_SUPPORTED */", "}", ""]
    for name in runtime_symbols():
        if name not in implemented:
            lines.append(f'int {name}(void) {{ return unsupported("{name} is not supported"); }}')
    for name in driver:
        if name not in implemented:
            lines.append(f'int {name}(void) {{ return driver_unsupported("{name} is not supported"); }}')
    return "\n".join(lines) + "\n"
