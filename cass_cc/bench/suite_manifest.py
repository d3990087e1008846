"""A third-party suite's manifest (tests/suites/<suite>.toml, format in docs/third_party.md):
reading, checking every key and type, and resolving where the sources are. Standard library only,
so the runner works on a machine that has nothing but nvcc, Python and click."""

from __future__ import annotations

import fnmatch
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..errors import CassError

DEFAULT_TIMEOUT_S = 300
DEFAULT_BUILD_TIMEOUT_S = 900
DEFAULT_RTOL = 1e-5
_NAME = re.compile(r"^[A-Za-z0-9_.+-]+$")

_SUITE_KEYS = {"name": str, "repository": str, "commit": str, "license": str, "files": list,
               "sources": str, "timeout": (int, float), "rtol": (int, float), "atol": (int, float)}
_PROGRAM_KEYS = {"name": str, "dir": str, "sources": list, "flags": list, "args": list, "files": list,
                 "binary": str, "pass": str, "fail": str, "compare": list, "rtol": (int, float),
                 "atol": (int, float), "outputs": list, "timeout": (int, float),
                 "build_timeout": (int, float), "expect": str, "reason": str, "exit": int}


@dataclass(frozen=True)
class SuiteProgram:
    name: str
    dir: str
    sources: tuple[str, ...]
    flags: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    files: tuple[str, ...] = ()  # the suite's files and the program's own, relative to the source root
    binary: str = ""
    pass_re: str | None = None
    fail_re: str | None = None
    compare: tuple[str, ...] = ()
    rtol: float = DEFAULT_RTOL
    atol: float = 0.0
    outputs: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT_S
    build_timeout: float = DEFAULT_BUILD_TIMEOUT_S
    expect: str = "pass"
    reason: str = ""
    exit: int = 0  # the exit status of a normal end (some programs end non-zero on success)

    @property
    def needs_reference(self) -> bool:
        """Whether a pass needs the H200's output (else the program's own checks decide)."""
        return bool(self.compare or self.outputs)

    def built_with(self) -> dict:
        """What a reference must have been recorded with to apply to this program."""
        return {"sources": list(self.sources), "flags": list(self.flags), "args": list(self.args)}


@dataclass(frozen=True)
class Suite:
    name: str
    manifest: Path
    repository: str = ""
    commit: str = ""
    license: str = ""
    sources: str | None = None  # relative to the manifest, for suites kept in the repository
    programs: tuple[SuiteProgram, ...] = field(default_factory=tuple)

    @property
    def reference_path(self) -> Path:
        return self.manifest.with_name(self.manifest.stem + ".ref.json")

    def source_root(self, override: str | None) -> Path:
        """--sources, else [suite] sources (beside the manifest), else .thirdparty/<name> here."""
        if override:
            root = Path(override)
        elif self.sources is not None:
            root = self.manifest.parent / self.sources
        else:
            root = Path(".thirdparty") / self.name
        if not root.is_dir():
            raise CassError(f"{self.manifest}: the sources of suite '{self.name}' are not at '{root}': "
                            f"fetch {self.repository or 'them'} (docs/third_party.md) or give --sources DIR")
        return root.resolve()

    def select(self, only: list[str] | None) -> list[SuiteProgram]:
        if not only:
            return list(self.programs)
        return [p for p in self.programs if any(fnmatch.fnmatchcase(p.name, g) for g in only)]


def _where(path: Path, table: str) -> str:
    return f"{path}: {table}"


def _check_keys(path: Path, where: str, table: dict, allowed: dict) -> None:
    for key, value in table.items():
        if key not in allowed:
            raise CassError(f"{_where(path, where)}: unknown key '{key}' (known: {', '.join(sorted(allowed))})")
        want = allowed[key]
        if isinstance(value, bool) or not isinstance(value, want):
            kind = ("a list" if want is list else "a number" if want == (int, float) else "an integer" if want is int
                    else "a string")
            raise CassError(f"{_where(path, where)}: '{key}' must be {kind}")
        if want is list and not all(isinstance(v, str) for v in value):
            raise CassError(f"{_where(path, where)}: '{key}' must be a list of strings")


def _relative(path: Path, where: str, key: str, value: str) -> str:
    """A path inside the source root: relative, no '..' out of it."""
    pure = PurePosixPath(value)
    if pure.is_absolute() or not value or ".." in pure.parts:
        raise CassError(f"{_where(path, where)}: '{key}' = '{value}' must be a relative path inside the "
                        f"source root (no '..', not absolute)")
    return str(pure)


def _regex(path: Path, where: str, key: str, value: str) -> str:
    try:
        re.compile(value, re.MULTILINE)
    except re.error as e:
        raise CassError(f"{_where(path, where)}: '{key}' is not a valid regular expression: {e}") from None
    return value


def _program(path: Path, index: int, table: dict, defaults: dict, suite_files: tuple[str, ...]) -> SuiteProgram:
    where = f"[[program]] #{index + 1}"
    if not isinstance(table, dict):
        raise CassError(f"{_where(path, where)}: must be a table")
    _check_keys(path, where, table, _PROGRAM_KEYS)
    for key in ("name", "dir", "sources"):
        if key not in table:
            raise CassError(f"{_where(path, where)}: '{key}' is required")
    name = table["name"]
    where = f"program '{name}'"
    if not _NAME.match(name):
        raise CassError(f"{_where(path, where)}: the name may hold only letters, digits and _ . + -")
    if not table["sources"]:
        raise CassError(f"{_where(path, where)}: 'sources' is empty")
    expect = table.get("expect", "pass")
    if expect not in ("pass", "refused"):
        raise CassError(f"{_where(path, where)}: 'expect' must be \"pass\" or \"refused\", not '{expect}'")
    if expect == "refused" and not table.get("reason"):
        raise CassError(f"{_where(path, where)}: expect = \"refused\" needs a 'reason'")
    for key in ("timeout", "build_timeout", "rtol", "atol"):
        if key in table and table[key] < 0 or key in ("timeout", "build_timeout") and table.get(key) == 0:
            raise CassError(f"{_where(path, where)}: '{key}' must be positive")
    if not 0 <= table.get("exit", 0) <= 255:
        raise CassError(f"{_where(path, where)}: 'exit' must be an exit status, 0 to 255")
    binary = table.get("binary", name)
    if "/" in binary or not binary:
        raise CassError(f"{_where(path, where)}: 'binary' must be a plain file name")
    return SuiteProgram(
        name=name,
        dir=_relative(path, where, "dir", table["dir"]),
        sources=tuple(table["sources"]),
        flags=tuple(table.get("flags", ())),
        args=tuple(table.get("args", ())),
        files=suite_files + tuple(_relative(path, where, "files", f) for f in table.get("files", ())),
        binary=binary,
        pass_re=_regex(path, where, "pass", table["pass"]) if "pass" in table else None,
        fail_re=_regex(path, where, "fail", table["fail"]) if "fail" in table else None,
        compare=tuple(_regex(path, where, "compare", c) for c in table.get("compare", ())),
        rtol=float(table.get("rtol", defaults["rtol"])),
        atol=float(table.get("atol", defaults["atol"])),
        outputs=tuple(_relative(path, where, "outputs", o) for o in table.get("outputs", ())),
        timeout=float(table.get("timeout", defaults["timeout"])),
        build_timeout=float(table.get("build_timeout", DEFAULT_BUILD_TIMEOUT_S)),
        expect=expect,
        reason=table.get("reason", ""),
        exit=table.get("exit", 0),
    )


def load(manifest: str | os.PathLike) -> Suite:
    """The suite described by one manifest; CassError (one line, file and key) for anything wrong."""
    path = Path(manifest)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise CassError(f"{path}: no such manifest") from None
    except OSError as e:
        raise CassError(f"{path}: cannot read the manifest: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise CassError(f"{path}: not valid TOML: {e}") from None
    unknown = set(data) - {"suite", "program"}
    if unknown:
        raise CassError(f"{path}: unknown top-level key(s) {', '.join(sorted(unknown))} (a manifest has "
                        f"[suite] and [[program]] tables)")
    suite = data.get("suite")
    if not isinstance(suite, dict) or "name" not in suite:
        raise CassError(f"{path}: [suite] with a 'name' is required")
    _check_keys(path, "[suite]", suite, _SUITE_KEYS)
    if not _NAME.match(suite["name"]):
        raise CassError(f"{path}: [suite]: the name may hold only letters, digits and _ . + -")
    defaults = {"timeout": suite.get("timeout", DEFAULT_TIMEOUT_S), "rtol": suite.get("rtol", DEFAULT_RTOL),
                "atol": suite.get("atol", 0.0)}
    suite_files = tuple(_relative(path, "[suite]", "files", f) for f in suite.get("files", ()))
    tables = data.get("program", [])
    if not isinstance(tables, list) or not tables:
        raise CassError(f"{path}: no [[program]] tables")
    programs = [_program(path, i, t, defaults, suite_files) for i, t in enumerate(tables)]
    seen: set[str] = set()
    for p in programs:
        if p.name in seen:
            raise CassError(f"{path}: program '{p.name}' is listed twice")
        seen.add(p.name)
    return Suite(name=suite["name"], manifest=path.resolve(), repository=suite.get("repository", ""),
                 commit=suite.get("commit", ""), license=suite.get("license", ""),
                 sources=suite.get("sources"), programs=tuple(programs))
