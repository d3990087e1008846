"""Compiling CUDA sources once per test session (nvcc is slow; the machine has 2 cores)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KERNELS = Path(__file__).resolve().parent / "kernels"
ARCHS = ("sm_80", "sm_86", "sm_89", "sm_90")

_dir = tempfile.mkdtemp(prefix="cass-test-nvcc-")
_lock = threading.Lock()
_done: dict[str, Path] = {}


def gencode(archs=ARCHS) -> list[str]:
    """-gencode options for `archs`; the Ampere/Ada ones share one compute_80 front-end run."""
    ampere = [a for a in archs if a in ("sm_80", "sm_86", "sm_89")]
    out = ["-gencode", f"arch=compute_80,code=[{','.join(ampere)}]"] if ampere else []
    for a in archs:
        if a not in ampere:
            n = a.split("_")[1]
            out += ["-gencode", f"arch=compute_{n},code=sm_{n}"]
    return out


def compile_cu(source: str | os.PathLike, *flags: str, output: str = "-c") -> Path:
    """`nvcc <output> flags source` once per session; returns the product's path."""
    source = Path(source)
    extra = _program_flags(source)
    key = hashlib.sha256(f"{source}|{output}|{flags}|{extra}".encode()).hexdigest()[:16]
    with _lock:
        if key in _done:
            return _done[key]
    suffix = {"-c": ".o", "-cubin": ".cubin", "-fatbin": ".fatbin"}.get(output, "")
    out = Path(_dir) / f"{source.stem}-{key}{suffix}"
    includes = [f"-I{d}" for d in (source.parent, source.parent.parent / "include") if d.is_dir()]
    cmd = ["nvcc", output, *flags, *extra, *includes, str(source), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    with _lock:
        _done[key] = out
    return out


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
