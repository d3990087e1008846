"""Building cass-cc's libcurand.so.10 and libcublas.so.13 (LIBRARIES): each is a CUDA
source of this folder, compiled by cass-nvcc's binary route (its kernels lifted and verified like
any program's) against NVIDIA's header, so every implemented function has the header's signature,
and linked by cass-nvcc against libcassrt into the cache as `cudalibs-<hash>/<soname>`, with
`lib<name>.so` beside it for `-l<name>`.

Every function the header declares that the source does not define is generated here: it prints
its name once on stderr and returns the library's "not supported" status, so a program that calls
one fails loudly and one that only links against it still links."""

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
PACKAGE_ROOT = SOURCE_DIR.parents[2]
C_FLAGS = ["-std=gnu11", "-O2", "-fPIC", "-Wall", "-Wextra", "-Werror"]


@dataclass(frozen=True)
class Library:
    name: str               # what -l names: libcurand.so
    soname: str             # what NVIDIA's programs load
    source: str             # the CUDA source in this folder
    header: str             # NVIDIA's header declaring the API
    declaration: str        # a regex finding each API function's name in the preprocessed header
    unsupported: int        # the status a function that is not implemented returns
    link_aliases: tuple[str, ...]   # other -l names that mean this library (static forms)


LIBRARIES = (
    Library("curand", "libcurand.so.10", "curand.cu", "curand.h",
            r"\bcurandStatus_t\s+(curand\w+)\s*\(", 101,   # CURAND_STATUS_NOT_INITIALIZED (no NOT_SUPPORTED)
            ("curand_static",)),
    Library("cublas", "libcublas.so.13", "cublas.cu", "cublas_v2.h",
            r"\bcublasStatus_t\s+(cublas\w+)\s*\(", 15,    # CUBLAS_STATUS_NOT_SUPPORTED
            ("cublas_static",)),
)


def link_name(lib: str) -> Library | None:
    """The library that `-l<lib>` means, if it is one of these."""
    return next((l for l in LIBRARIES if lib == l.name or lib in l.link_aliases), None)


def header_dirs() -> list[str]:
    """Where a program's compile finds the libraries' headers (curand.h, cublas_v2.h) when the
    CUDA install has none (NVIDIA's wheels have them): a CUDA toolkit gives them to nvcc's
    programs, so cass-nvcc's programs see them too. None when they are not installed: a program
    that includes them then fails to compile as it would with nvcc."""
    dirs = []
    for lib in LIBRARIES:
        try:
            found = toolchain.cuda_library_include_dir(lib.header)
        except ToolMissing:
            continue
        if found not in dirs:
            dirs.append(found)
    return dirs


def _cass_nvcc() -> list[str]:
    """cass-nvcc of this installation (the package this module is part of)."""
    return [sys.executable, "-c", "import sys; from cass_cc.driver.main import main; sys.exit(main())"]


def _nvcc_environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def _build_key() -> str:
    from ...cache import translator_version
    from ..cassrt import library_dir as cassrt_dir
    h = hashlib.sha256()
    for src in sorted(SOURCE_DIR.iterdir()):
        if src.suffix in (".cu", ".py"):
            h.update(src.name.encode() + b"\0" + src.read_bytes())
    for lib in LIBRARIES:
        h.update(Path(toolchain.cuda_library_include_dir(lib.header), lib.header).read_bytes())
    for part in (translator_version(), str(cassrt_dir()), toolchain.path("cc"), sys.executable):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:16]


def library_dir() -> Path:
    """The folder holding the libraries, building them on first use."""
    target = toolchain.cache_root() / f"cudalibs-{_build_key()}"
    if all((target / lib.soname).is_file() for lib in LIBRARIES):
        return target
    work = Path(tempfile.mkdtemp(prefix="cudalibs-build-", dir=toolchain.cache_root()))
    try:
        out = work / "out"
        out.mkdir()
        for lib in LIBRARIES:
            _build(lib, work, out)
        try:
            os.rename(out, target)
        except OSError:
            if not all((target / lib.soname).is_file() for lib in LIBRARIES):
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def _build(lib: Library, work: Path, out: Path) -> None:
    include = toolchain.cuda_library_include_dir(lib.header)
    obj = work / f"{lib.name}.o"
    _run(_cass_nvcc() + ["-c", "-O2", "-Xcompiler", "-fPIC", "-I", include, str(SOURCE_DIR / lib.source),
                         "-o", str(obj)], lib, env=_nvcc_environment())
    stubs = work / f"{lib.name}_unsupported.c"
    stubs.write_text(unsupported_source(lib, header_functions(lib, include), _defined_functions(obj)))
    stubs_obj = work / f"{lib.name}_unsupported.o"
    _run([toolchain.path("cc"), *C_FLAGS, "-c", str(stubs), "-o", str(stubs_obj)], lib)
    # NVIDIA's programs ask for each function at the version node named as the library
    # (curandCreateGenerator@libcurand.so.10); the node holds exactly the API's functions.
    versions = work / f"{lib.name}.map"
    versions.write_text(f"{lib.soname} {{ global: {lib.name}*; local: *; }};\n")
    _run(_cass_nvcc() + ["-shared", "-o", str(out / lib.soname), str(obj), str(stubs_obj),
                         f"-Xlinker=-soname={lib.soname}", f"-Xlinker=--version-script={versions}"],
         lib, env=_nvcc_environment())
    os.symlink(lib.soname, out / f"lib{lib.name}.so")


def header_functions(lib: Library, include: str) -> list[str]:
    """Every function of the library's header, by the names its macros give them (cublas_v2.h
    maps cublasSgemm to cublasSgemm_v2: the name NVIDIA's library exports)."""
    proc = subprocess.run([toolchain.path("cc"), "-E", "-P", "-I", include, "-x", "c", "-"],
                          input=f"#include <{lib.header}>\n", capture_output=True, text=True)
    if proc.returncode != 0:
        raise CassError(f"building lib{lib.name} failed: preprocessing {lib.header}\n{proc.stderr.strip()}")
    return sorted(set(re.findall(lib.declaration, proc.stdout)))


def unsupported_source(lib: Library, declared: list[str], implemented: set[str]) -> str:
    """C definitions of the declared functions that are not implemented. They take no parameters:
    a C caller's arguments are ignored harmlessly."""
    lines = ["#include <stdio.h>", "",
             "static int unsupported(const char *name, int *said)", "{",
             "    if (!*said) {",
             "        *said = 1;",
             f'        fprintf(stderr, "cass-cc: lib{lib.name}: %s is not supported\\n", name);',
             "    }",
             f"    return {lib.unsupported};",
             "}", ""]
    for name in declared:
        if name not in implemented:
            lines.append(f'int {name}(void) {{ static int said; return unsupported("{name}", &said); }}')
    return "\n".join(lines) + "\n"


def _defined_functions(obj: Path) -> set[str]:
    with open(obj, "rb") as f:
        symtab = ELFFile(f).get_section_by_name(".symtab")
        return {s.name for s in symtab.iter_symbols()
                if s["st_info"]["type"] == "STT_FUNC" and s["st_shndx"] != "SHN_UNDEF"
                and s["st_info"]["bind"] == "STB_GLOBAL"}


def _run(cmd: list[str], lib: Library, env: dict[str, str] | None = None) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise CassError(f"building lib{lib.name} failed: {' '.join(cmd)}\n{(proc.stderr or proc.stdout).strip()}")
