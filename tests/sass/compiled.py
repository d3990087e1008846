"""Compiling CUDA sources for the tests, each once (nvcc is slow; the machine has 2 cores).

Products are kept in $CASS_TEST_NVCC_CACHE (default ~/.cache/cass-cc-tests/nvcc) under a key of
the nvcc version, the flags and the contents of every file in the source's folder, so a test run
after a change recompiles only what the change touched."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KERNELS = Path(__file__).resolve().parent / "kernels"
ARCHS = ("sm_80", "sm_86", "sm_89", "sm_90")

_dir = Path(os.environ.get("CASS_TEST_NVCC_CACHE") or Path.home() / ".cache" / "cass-cc-tests" / "nvcc")
_lock = threading.Lock()
_done: dict[str, Path] = {}


def gencode(archs=ARCHS) -> list[str]:
    """-gencode options for SASS of `archs` from one compute_80 front-end run (ptxas makes each
    architecture's SASS; the PTX is what cass-nvcc's sm_80 builds have)."""
    return ["-gencode", f"arch=compute_80,code=[{','.join(archs)}]"]


def compile_cu(source: str | os.PathLike, *flags: str, output: str = "-c") -> Path:
    """`nvcc <output> flags source` once per session; returns the product's path."""
    source = Path(source)
    extra = _program_flags(source)
    key = _key(source, output, flags, extra)
    with _lock:
        if key in _done:
            return _done[key]
    suffix = {"-c": ".o", "-cubin": ".cubin", "-fatbin": ".fatbin"}.get(output, "")
    out = _dir / f"{source.stem}-{key}{suffix}"
    if out.is_file():
        with _lock:
            _done[key] = out
        return out
    _dir.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.{threading.get_ident()}{suffix}")
    includes = [f"-I{d}" for d in (source.parent, source.parent.parent / "include") if d.is_dir()]
    cmd = ["nvcc", output, *flags, *extra, *includes, str(source), "-o", str(tmp)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    os.replace(tmp, out)
    with _lock:
        _done[key] = out
    return out


def _nvcc_version() -> str:
    global _NVCC_VERSION
    if _NVCC_VERSION is None:
        _NVCC_VERSION = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout
    return _NVCC_VERSION


_NVCC_VERSION: str | None = None


def _key(source: Path, output: str, flags: tuple, extra: list[str]) -> str:
    """nvcc version, flags, and every file next to the source (headers included)."""
    h = hashlib.sha256(f"{_nvcc_version()}|{source.name}|{output}|{flags}|{extra}".encode())
    for folder in (source.parent, source.parent.parent / "include"):
        if folder.is_dir():
            for f in sorted(folder.iterdir()):
                if f.is_file() and f.suffix in (".cu", ".cuh", ".h", ".hpp", ".inc", ".txt"):
                    h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:20]


def _program_flags(source: Path) -> list[str]:
    """Extra nvcc flags from the program convention's flags.txt (device-relevant ones)."""
    f = source.parent / "flags.txt"
    if not f.is_file():
        return []
    keep = []
    for word in f.read_text().split():
        if word.startswith(("-D", "-I", "-std", "--std", "-rdc", "--expt", "-expt", "--extended-lambda")):
            keep.append(word)
    return keep


def corpus_sources() -> list[Path]:
    """Every *.cu of examples/, tests/programs/ and tests/sass/kernels/."""
    found = []
    for d in (ROOT / "examples", ROOT / "tests" / "programs", KERNELS):
        if d.is_dir():
            found += sorted(p for p in d.rglob("*.cu") if ".cass" not in p.parts)
    return found


def compile_all(sources: list[Path], *flags: str, output: str = "-fatbin") -> dict[Path, Path | Exception]:
    """Compile many sources two at a time; failures come back as exceptions."""
    def one(src):
        try:
            return compile_cu(src, *flags, output=output)
        except Exception as e:  # reported by the caller per source
            return e
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(sources, pool.map(one, sources)))


def disassembled(cubin: bytes) -> dict[str, str]:
    """cass_cc.sass.disasm.disassemble, kept next to the nvcc products (nvdisasm starts slowly and
    the corpus has hundreds of cubins)."""
    from cass_cc import toolchain
    from cass_cc.sass.disasm import disassemble
    global _NVDISASM
    if _NVDISASM is None:
        _NVDISASM = hashlib.sha256(Path(toolchain.path("nvdisasm")).read_bytes()).hexdigest()[:12]
    path = _dir / "disasm" / f"{hashlib.sha256(cubin).hexdigest()[:24]}-{_NVDISASM}.json"
    if path.is_file():
        return json.loads(path.read_text())
    sections = disassemble(cubin)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    tmp.write_text(json.dumps(sections))
    os.replace(tmp, path)
    return sections


_NVDISASM: str | None = None
