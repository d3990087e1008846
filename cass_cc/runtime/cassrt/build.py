"""Building libcassrt: the C sources of this folder, compiled with the system C compiler against
CUDA's headers (cuda_*.c: the runtime API, driver_*.c: the driver API) and HIP's headers (hip_*.c),
linked against libamdhip64, into the cache as `cassrt-<hash>/libcassrt.so` (made in a private
folder, then renamed into place). The folder also holds links to libcassrt.so under the names
NVIDIA's libraries have: `libcuda.so` (what `-lcuda` finds on a cass-nvcc link line), and in
`nvidia/`, the folder cass-run puts first on the library path, `libcuda.so.1`, `libcudart.so.12`
and `libcudart.so.13` (what a program built by plain nvcc loads), so the driver API and the
runtime API come from one library and share devices, memory, streams and arrays. `nvidia/` holds
nothing else: a program that cass-nvcc linked against libcassrt.so keeps the one it names.
`stubs/libcuda.so` is a library to link driver-API programs against where no NVIDIA driver is
installed, as CUDA's own lib64/stubs is.

Device code that NVIDIA's tools made reaches the library at run time (cuModuleLoadData,
cuLibraryLoadData, a -cudart shared program's fatbins); it is translated by this Python
installation (`cass-cc translate-image`), so the interpreter, the package's folder and the
translator's version are built into the library (and into its key)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from elftools.elf.elffile import ELFFile

from ... import toolchain
from ...errors import CassError, ToolMissing

SOURCE_DIR = Path(__file__).resolve().parent
LIBRARY = "libcassrt.so"
SONAME = LIBRARY
DRIVER_LINK = "libcuda.so"      # what `-lcuda` finds in the folder on the link line
NVIDIA_DIR = "nvidia"
NVIDIA_NAMES = ("libcuda.so.1", "libcudart.so.12", "libcudart.so.13")   # what nvcc's programs load
STUB_DIR, STUB_SONAME = "stubs", "libcuda.so.1"
# The version nodes NVIDIA's libcudart.so.N defines (one, named as the library); a -cudart shared
# program asks for each runtime function at it (cudaMalloc@libcudart.so.13).
VERSION_NODES = ("libcudart.so.12", "libcudart.so.13")
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
    """What the library is made of, and how (this file): its build key's inputs."""
    return sorted(p for p in SOURCE_DIR.iterdir() if p.suffix in (".c", ".h", ".def", ".txt")) + \
        [HEAP_LAYOUT, Path(__file__).resolve()]


def _translator_defines() -> list[str]:
    """What the library needs to run the translator (image_translation.c): this interpreter, the
    folder cass_cc is imported from, and the translator's version, part of every image's key."""
    from ...cache import translator_version
    package_root = Path(__file__).resolve().parents[3]
    values = {"CASS_PYTHON": sys.executable, "CASS_PACKAGE_ROOT": str(package_root),
              "CASS_TRANSLATOR_VERSION": translator_version()}
    return [f"-D{name}={_c_string(value)}" for name, value in values.items()]


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _build_key(cc: str, cuda_inc: str, hip_inc: str, amdhip: str) -> str:
    h = hashlib.sha256()
    for src in _sources():
        h.update(src.name.encode() + b"\0" + src.read_bytes())
    for part in (cc, cuda_inc, hip_inc, os.path.realpath(amdhip), *_translator_defines()):
        h.update(part.encode() + b"\0")
    for header in ("driver_types.h", "cuda_runtime_api.h", "cuda.h", "cudaTypedefs.h"):
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


def nvidia_library_dir() -> Path:
    """The folder of libcassrt under NVIDIA's library names (NVIDIA_NAMES), building it on first
    use: first on a program's library path, it stands in for NVIDIA's driver and runtime."""
    return library_dir() / NVIDIA_DIR


def _build(work: Path, cc: str, cuda_inc: str, hip_inc: str, amdhip: str) -> None:
    objects = []
    for src in sorted(SOURCE_DIR.glob("*.c")):
        if src.name.startswith(CUDA_SIDE):
            includes = ["-I", cuda_inc]
        else:
            includes = ["-D__HIP_PLATFORM_AMD__", "-I", hip_inc, *_translator_defines()]
        objects.append(_compile(cc, src, work, includes))
    driver, implemented = driver_symbols(), _defined_functions(objects)
    stubs = work / "unsupported.c"
    stubs.write_text(_unsupported_source(implemented, driver))
    objects.append(_compile(cc, stubs, work, []))
    procs = work / "procs.c"
    procs.write_text(_proc_table_source(_proc_entries(cc, cuda_inc, set(driver), implemented)))
    objects.append(_compile(cc, procs, work, []))
    out = work / "out"
    out.mkdir()
    _link(work, out / LIBRARY, cc, objects, driver, amdhip)
    os.symlink(LIBRARY, out / DRIVER_LINK)
    (out / NVIDIA_DIR).mkdir()
    for name in NVIDIA_NAMES:
        os.symlink(os.path.join(os.pardir, LIBRARY), out / NVIDIA_DIR / name)
    _build_stub(work, out / STUB_DIR, cc, driver)


def _link(work: Path, library: Path, cc: str, objects: list[Path], driver: list[str], amdhip: str) -> None:
    """The shared library, exporting exactly the CUDA functions (the driver's and the runtime's)
    and defining the version nodes of VERSION_NODES.

    The exported functions carry no version: an unversioned definition in a library that has
    version nodes answers a reference of any version, so one library serves a program that asks
    for cudaMalloc@libcudart.so.12, one that asks for cudaMalloc@libcudart.so.13, and the unversioned
    references of cass-nvcc's programs and of the driver API's (NVIDIA's libcuda.so.1 has no
    versions). The loader checks that the library named in the program defines the version node
    the program needs; without it, it warns ("no version information available"), or fails where
    the library's own name is the program's. A version script cannot make unversioned exports
    beside named nodes, so the objects are linked into one first, everything but the CUDA
    functions is made local there, and the script only names the nodes (empty: no symbol is in them).

    -Bsymbolic-functions: loaded as libcuda.so.1 into a program that links NVIDIA's runtime in,
    the library's calls to its own cuda* functions must not reach the program's copies."""
    merged = work / "cassrt.o"
    _run([cc, "-r", "-nostdlib", "-o", str(merged), *map(str, objects)])
    exports = work / "exports.txt"
    exports.write_text("\n".join(sorted({*driver, *runtime_symbols()})) + "\n")
    _run([toolchain.path("llvm-objcopy"), f"--keep-global-symbols={exports}", str(merged)])
    versions = work / "versions.map"
    versions.write_text("".join(f"{node} {{ }};\n" for node in VERSION_NODES))
    _run([cc, "-shared", "-o", str(library), str(merged), f"-Wl,-soname,{SONAME}",
          f"-Wl,--version-script={versions}", "-Wl,-z,defs", "-Wl,-Bsymbolic-functions", amdhip,
          "-lpthread", "-ldl"])


def _build_stub(work: Path, folder: Path, cc: str, driver: list[str]) -> None:
    """stubs/libcuda.so (soname libcuda.so.1): every driver function, each failing with
    CUDA_ERROR_STUB_LIBRARY, to link against only; at run time the program loads libcuda.so.1,
    which is libcassrt."""
    source = work / "stub.c"
    source.write_text("".join(f"int {name}(void) {{ return 34; /* CUDA_ERROR_STUB_LIBRARY */ }}\n"
                              for name in driver))
    folder.mkdir()
    _run([cc, *C_FLAGS, "-shared", "-o", str(folder / DRIVER_LINK), str(source),
          f"-Wl,-soname,{STUB_SONAME}"])


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


# cudaTypedefs.h names each ABI of a driver function PFN_<name>_v<CUDA version it appeared in>
# (with _ptds/_ptsz for its per-thread default stream form), with its parameters.
_PFN = re.compile(r"\bPFN_(cu\w+?)_v(\d+)(_pt(?:ds|sz))?\)\s*\(([^;]*)\)\s*;")


@dataclass(frozen=True)
class Proc:
    """What cuGetProcAddress answers for one name. A request for CUDA version V gets `symbol`
    when V >= current_from (every ABI from that version on has today's parameters), the
    stub of an older ABI when first <= V < current_from, and VERSION_NOT_SUFFICIENT below."""
    name: str
    first: int
    current_from: int
    symbol: str
    per_thread: str     # the per-thread-stream form, "" when there is none


def _proc_entries(cc: str, cuda_inc: str, exported: set[str], implemented: set[str]) -> list[Proc]:
    """The table, sorted by name. The symbols are what cuda.h's macros make of the name, without
    and with CUDA_API_PER_THREAD_DEFAULT_STREAM; names whose symbol the library does not export
    are left out (SYMBOL_NOT_FOUND). A per-thread form that is not implemented is answered with
    the legacy-stream one: it synchronises with more work than the per-thread stream would,
    which is one of the orders CUDA allows."""
    abis: dict[str, dict[int, str]] = {}
    for name, version, per_thread, params in _PFN.findall(Path(cuda_inc, "cudaTypedefs.h").read_text()):
        if not per_thread:
            abis.setdefault(name, {})[int(version)] = " ".join(params.split())
    names = sorted(abis)
    probe = "#include <cuda.h>\n" + "".join(f'"{n}" {n}\n' for n in names)
    expanded = []
    for defines in ([], ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"]):
        proc = subprocess.run([cc, "-E", "-P", *defines, "-I", cuda_inc, "-x", "c", "-"],
                              input=probe, capture_output=True, text=True)
        if proc.returncode != 0:
            raise CassError(f"building libcassrt failed: preprocessing cuda.h\n{proc.stderr.strip()}")
        expanded.append(dict(re.findall(r'^"(cu\w+)"\s+(\w+)\s*$', proc.stdout, re.M)))
    entries = []
    for name in names:
        symbol, per_thread = expanded[0].get(name, ""), expanded[1].get(name, "")
        if symbol not in exported:
            continue
        versions = sorted(abis[name])
        current_from = versions[-1]
        for v in reversed(versions):
            if abis[name][v] != abis[name][versions[-1]]:
                break
            current_from = v
        per_thread = per_thread if per_thread != symbol and per_thread in implemented else ""
        entries.append(Proc(name, versions[0], current_from, symbol, per_thread))
    return entries


def _proc_table_source(entries: list[Proc]) -> str:
    symbols = sorted({s for e in entries for s in (e.symbol, e.per_thread) if s})
    lines = ['#include "cassrt.h"', ""] + [f"int {s}(void);" for s in symbols] + [""]
    for e in entries:
        if e.first < e.current_from:
            lines += [f"static int old_{e.name}(void)", "{",
                      f'    cassrt_note_once("{e.name} of a CUDA version before {e.current_from} '
                      f'(an older ABI than cuda.h\'s) is not supported");',
                      "    return 801; /* CUDA_ERROR_NOT_SUPPORTED */", "}"]
    lines += ["", "const struct cassrt_proc cassrt_procs[] = {"]
    for e in entries:
        pt = f"(void *){e.per_thread}" if e.per_thread else "0"
        old = f"(void *)old_{e.name}" if e.first < e.current_from else "0"
        lines.append(f'    {{"{e.name}", {e.first}, {e.current_from}, (void *){e.symbol}, {pt}, {old}}},')
    lines += ["};", f"const size_t cassrt_proc_count = {len(entries)};"]
    return "\n".join(lines) + "\n"


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
