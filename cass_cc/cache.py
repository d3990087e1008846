"""The translation cache: per kernel, the artifacts of a successful translation (those of the
kernel stages, cass_cc.unit.KERNEL_ARTIFACTS, under their extensions), in
$CASS_CACHE_DIR/translations, keyed by everything the translation reads (KernelFacts: the kernel's
SASS bytes, its .nv.info-derived layout, constant banks, device globals and callees), the
translator's version (the package version and a digest of the translator's own sources) and the
target; per translation unit, the code object its link made (`linked`).

Safe under `make -j`: entries are written to a temporary name and renamed; a reader sees a whole
entry or none, and no lock is held while a kernel is translated (two builds may both translate
the same kernel; the second rename wins with identical bytes)."""

from __future__ import annotations

import base64
import dataclasses
import functools
import hashlib
import json
import os
import time
from pathlib import Path

from . import __version__, toolchain
from .errors import deterministic_kind
from .fatbin.facts import KernelFacts
from .fsutil import atomic_write_bytes, atomic_write_text
from .unit import ARTIFACTS, KERNEL_ARTIFACTS, KernelUnit

# What an entry holds: a change of the table is a change of format, and older entries are misses.
_STORED = [a.extension for a in KERNEL_ARTIFACTS]
_PACKAGE = Path(__file__).resolve().parent


def _translator_sources() -> list[Path]:
    """The folders whose code decides a translation."""
    return [_PACKAGE / name for name in ("sass", "rdna3", "fatbin", "passes")]


@functools.lru_cache(maxsize=1)
def translator_version() -> str:
    """cass-cc's version plus a digest of the translator's sources, so an edited pass never
    serves entries that the previous code made."""
    h = hashlib.sha256(__version__.encode())
    for root in _translator_sources():
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".lark") and "__pycache__" not in path.parts:
                h.update(str(path.relative_to(root.parent)).encode())
                h.update(path.read_bytes())
    return f"{__version__}+{h.hexdigest()[:16]}"


def _feed(h, value) -> None:
    """Add `value` to the digest `h`, unambiguously and in an order that does not depend on the
    process: dataclasses by their type and every field (nested ones too), mappings and sets
    sorted, bytes as they are."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        h.update(b"D" + type(value).__name__.encode() + b"(")
        for f in dataclasses.fields(value):
            if f.compare:           # CubinKernel.cubin and the like: back references, not facts
                h.update(f.name.encode() + b"=")
                _feed(h, getattr(value, f.name))
        h.update(b")")
    elif isinstance(value, (bytes, bytearray)):
        h.update(b"B%d:" % len(value) + bytes(value))
    elif isinstance(value, str):
        data = value.encode()
        h.update(b"S%d:" % len(data) + data)
    elif isinstance(value, dict):
        _feed_items(h, b"M", ([k, v] for k, v in value.items()))
    elif isinstance(value, (set, frozenset)):
        _feed_items(h, b"E", ([v] for v in value))
    elif isinstance(value, (list, tuple)):
        h.update(b"L%d[" % len(value))
        for v in value:
            _feed(h, v)
        h.update(b"]")
    elif value is None or isinstance(value, (bool, int, float)):
        h.update(b"V" + repr(value).encode() + b";")
    else:
        raise TypeError(f"no cache key for a {type(value).__name__}: KernelFacts holds plain values and dataclasses")


def _feed_items(h, tag: bytes, items) -> None:
    parts = []
    for item in items:
        sub = hashlib.sha256()
        _feed(sub, item)
        parts.append(sub.digest())
    h.update(tag + b"%d{" % len(parts) + b"".join(sorted(parts)) + b"}")


def facts_key(facts: KernelFacts, offload_arch: str, version: str | None = None) -> str:
    """Digest of a translation's inputs: the translator's version, the target and the kernel's
    facts (its SASS bytes among them)."""
    h = hashlib.sha256()
    _feed(h, [version or translator_version(), offload_arch, facts])
    return h.hexdigest()


def kernel_key(unit: KernelUnit) -> str:
    """Digest of everything a translation of `unit` depends on: what the passes read of the
    kernel and its cubin (cass_cc.fatbin.facts.KernelFacts), the target and the translator."""
    return facts_key(KernelFacts.of(unit), unit.offload_arch)


def linked_key(units: list[KernelUnit]) -> str:
    """Digest of everything one translation unit's linked code object depends on: the kernels'
    objects and the device variables of their cubins (the globals object), for one target."""
    h = hashlib.sha256()
    h.update(translator_version().encode())
    for u in units:
        cubin = getattr(u.kernel, "cubin", None)
        variables = [(v.name, v.section, v.offset, v.size, v.data) for v in cubin.globals] if cubin else []
        h.update(repr((u.name, u.offload_arch, hashlib.sha256(u.obj).hexdigest(), variables)).encode())
    return h.hexdigest()


def deterministic_refusal(unit: KernelUnit) -> bool:
    """A refusal that only the kernel's facts and the translator's own code decide (its kind: an
    instruction the lifter does not know, an unsupported feature); a tool's verdict or a failed
    check may change with the tools."""
    return unit.status == "failed" and deterministic_kind(unit.refusal_kind)


class TranslationCache:
    def __init__(self, root: str | os.PathLike | None = None):
        self.root = Path(root) if root else toolchain.cache_root() / "translations"

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def load(self, unit: KernelUnit) -> bool:
        """Fill `unit` from the cache; False on a miss (or an unreadable entry)."""
        path = self._path(kernel_key(unit))
        try:
            entry = json.loads(path.read_text())
        except (OSError, ValueError):
            return False
        if entry.get("name") != unit.name or entry.get("artifacts") != _STORED:
            return False
        for a in KERNEL_ARTIFACTS:
            value = entry.get(a.extension, "")
            setattr(unit, a.field, base64.b64decode(value) if a.binary else value)
        unit.tier, unit.status = entry["tier"], entry["status"]
        unit.reasons = list(entry.get("reasons", [])) + ["cache: hit"]
        unit.refused_by = entry.get("refused_by", "")
        unit.refusal_kind = entry.get("refusal_kind", "")
        unit.sass_instructions = entry.get("sass_instructions", 0)
        unit.rdna3_instructions = entry.get("rdna3_instructions", 0)
        return True

    def holds(self, unit: KernelUnit) -> bool:
        """Whether an entry for `unit` is there (`load` may still refuse an unreadable one)."""
        return self._path(kernel_key(unit)).is_file()

    def lookup(self, unit: KernelUnit) -> bool:
        """`load`, timed into unit.seconds["cache"] on a hit."""
        start = time.perf_counter()
        if not self.load(unit):
            return False
        unit.seconds["cache"] = time.perf_counter() - start
        return True

    def store(self, unit: KernelUnit) -> None:
        """Keep a successful translation, or a refusal that only the SASS and the translator's code
        decide (an unsupported instruction); other failures (a tool missing, an internal error)
        are retried next time."""
        done = unit.status == "ok" and getattr(unit, KERNEL_ARTIFACTS[-1].field)  # what the TU link takes
        if not done and not deterministic_refusal(unit):
            return
        entry = {a.extension: base64.b64encode(getattr(unit, a.field)).decode() if a.binary else getattr(unit, a.field)
                 for a in KERNEL_ARTIFACTS}
        entry.update(artifacts=_STORED, name=unit.name, tier=unit.tier, status=unit.status, reasons=unit.reasons,
                     refused_by=unit.refused_by, refusal_kind=unit.refusal_kind,
                     sass_instructions=unit.sass_instructions, rdna3_instructions=unit.rdna3_instructions)
        path = self._path(kernel_key(unit))
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(str(path), json.dumps(entry))

    def _source_mark(self, key: str) -> Path:
        return self.root / "sources" / key[:2] / key

    def built_before(self, source_key: str) -> bool:
        """Whether a build of the input that `source_key` names (its path, its state and the
        compile's options) translated its kernels into this cache: a hint that they are here."""
        return self._source_mark(source_key).is_file()

    def remember_build(self, source_key: str) -> None:
        path = self._source_mark(source_key)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(str(path), "")

    def linked(self, units: list[KernelUnit], link) -> bytes:
        """`link(units)`, the translation unit's code object, from the cache when it holds it:
        on a warm build this spares the ld.lld run and the metadata rewriting (verify, after the
        link, checks it either way)."""
        key = linked_key(units)
        path = self.root / "linked" / key[:2] / f"{key}.{ARTIFACTS['link'].extension}"
        try:
            return path.read_bytes()
        except OSError:
            pass
        data = link(units)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(str(path), data)
        return data
