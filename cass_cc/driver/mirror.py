"""The hipified copy of a translation unit and of the user's headers it reaches.

CUDA projects include their own headers with CUDA code (`#include "kernels.cuh"`); those need
hipify as much as the .cu. Every file reachable through #include from the translation unit that
lives in the user's tree (the source's folder and -I folders that are not system folders) is
translated into a private mirror folder at the same absolute path below the mirror root, so
relative includes resolve there exactly as they did in the original tree.

The mirror is all that the steps after hipify need (`cass-cc hipify` writes it, the compile,
`cass-cc unmirror`, `cass-cc save-temps` and `cass-cc report` read it): besides the mirrored
files, `cass-compat.h` (the compatibility headers hipify asked for, possibly none: the compiler
always gets `-include <mirror>/cass-compat.h`) and `cass-manifest.json` (the mirrored files,
hipify's diagnostics and its time).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field

from ..errors import CassError
from ..fsutil import atomic_write_bytes, atomic_write_text

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^">\n]+)[">]', re.M)
# Headers below these belong to the system, the compilers or the GPU toolkits, not to the user's
# project (a project may live anywhere else, /usr/src and /opt included).
SYSTEM_ROOTS = ("/usr/include", "/usr/local/include", "/usr/lib", "/usr/lib64", "/usr/share",
                "/lib", "/lib64", "/etc")
SYSTEM_PREFIXES = ("/usr/local/cuda", "/opt/rocm", "/opt/nvidia", "/opt/cuda")
COMPAT = "cass-compat.h"
MANIFEST = "cass-manifest.json"
# What the compatibility wrapper is called in preprocessed text (it was named on the command line).
COMPAT_SHOWN_AS = "<command line>"


@dataclass(frozen=True)
class Note:
    """One of hipify's diagnostics, about a file of the user's (absolute path)."""
    file: str
    line: int
    column: int
    severity: str
    message: str


@dataclass
class Mirror:
    root: str                                              # private folder
    files: dict[str, str] = field(default_factory=dict)   # original -> mirrored path
    diagnostics: list[Note] = field(default_factory=list)  # hipify diagnostics, all files
    compat_headers: list[str] = field(default_factory=list)
    source: str | None = None     # the translation unit, as the user wrote it
    seconds: float = 0.0          # how long hipify took
    entered_kernels: list[str] = field(default_factory=list)  # kernels given the kernel entry statement

    @property
    def compat_include(self) -> str:
        """The header the compiler gets with -include: it includes the compat headers."""
        return os.path.join(self.root, COMPAT)

    def save(self) -> None:
        """Write cass-compat.h and the manifest, after translate_tree."""
        os.makedirs(self.root, exist_ok=True)
        lines = "".join(f'#include "{h}"\n' for h in self.compat_headers)
        from ..hipify import COMPAT_HEADER, runtime_name_macros
        if COMPAT_HEADER in self.compat_headers:
            lines += "/* CUDA's runtime names that macros paste together */\n" + runtime_name_macros()
        atomic_write_text(self.compat_include, "/* compatibility headers hipify asked for */\n" + lines)
        manifest = {"source": self.source, "files": self.files, "compat_headers": self.compat_headers,
                    "diagnostics": [asdict(d) for d in self.diagnostics], "seconds": self.seconds,
                    "entered_kernels": self.entered_kernels}
        atomic_write_text(os.path.join(self.root, MANIFEST), json.dumps(manifest, indent=1) + "\n")

    @classmethod
    def load(cls, root: str) -> "Mirror":
        """The mirror `cass-cc hipify` wrote into `root`, or a one-line error."""
        path = os.path.join(root, MANIFEST)
        try:
            with open(path, encoding="utf-8") as f:
                m = json.load(f)
            return cls(root, dict(m["files"]), [Note(**d) for d in m["diagnostics"]],
                       list(m["compat_headers"]), m["source"], float(m["seconds"]), list(m["entered_kernels"]))
        except FileNotFoundError:
            raise CassError(f"'{root}' holds no hipified copy ({MANIFEST} is missing): "
                            "run cass-cc hipify first") from None
        except OSError as e:
            raise CassError(f"cannot read '{path}': {e.strerror}") from None
        except (ValueError, KeyError, TypeError) as e:
            raise CassError(f"'{path}' is not a manifest cass-cc hipify wrote ({e})") from None

    def path_for(self, original: str) -> str:
        return os.path.join(self.root, os.path.abspath(original).lstrip(os.sep))

    def include_dir(self, original_dir: str) -> str:
        return self.path_for(original_dir)

    def original(self, path: str) -> str:
        """Map a mirrored path back to the user's file (other paths unchanged)."""
        prefix = self.root.rstrip(os.sep)
        if path.startswith(prefix + os.sep):
            return path[len(prefix):]
        return path

    def unmirror_text(self, text: str) -> str:
        """Mirrored paths in generated text back to the user's: relative below the current
        folder (as the compiler saw relative inputs), else absolute. The compatibility wrapper
        is no file of the user's: dependency lists leave it out, preprocessed text names it as
        the command line."""
        wrapper = re.escape(self.compat_include)
        text = text.replace(f'"{self.compat_include}"', f'"{COMPAT_SHOWN_AS}"')
        text = re.sub(rf"(?m)^{wrapper}:[ \t]*\n(?:[ \t]*\n)?", "", text)  # -MP's target for it
        text = re.sub(rf"(?m)^[ \t]+{wrapper}[ \t]*\\\n", "", text)  # a dependency on a line of its own
        text = re.sub(rf"[ \t]+{wrapper}(?=\s|$)", "", text)         # a dependency among others
        here = self.path_for(os.curdir).rstrip(os.sep) + os.sep
        return text.replace(here, "").replace(self.root.rstrip(os.sep), "")

    def translate_tree(self, source: str, user_dirs: list[str], kernel_entry: str | None = None) -> str:
        """Hipify `source` and the user's headers it includes (`kernel_entry` first in every
        kernel body: hipify.translate); returns the mirrored source."""
        top = os.path.abspath(source)
        pending = [top]
        while pending:
            path = pending.pop()
            if path in self.files:
                continue
            text, encoding = read_source(source if path == top else path)
            self.files[path] = self.path_for(path)
            result = _translate(text, path, kernel_entry)
            self.entered_kernels += [k for k in result.entered_kernels if k not in self.entered_kernels]
            self.diagnostics += [Note(str(d.file), d.line, d.column, d.severity, d.message)
                                 for d in result.diagnostics]
            if result.compat_header and result.compat_header not in self.compat_headers:
                self.compat_headers.append(result.compat_header)
            os.makedirs(os.path.dirname(self.files[path]), exist_ok=True)
            atomic_write_bytes(self.files[path], result.text.encode(encoding))
            pending += [h for h in _user_includes(text, path, user_dirs) if h not in self.files]
        return self.files[os.path.abspath(source)]


def _translate(text: str, path: str, kernel_entry: str | None):
    try:
        from ..hipify import translate
    except ImportError as e:
        raise CassError(f"the CUDA->HIP translator (cass_cc.hipify) is not available: {e}") from None
    return translate(text, path, kernel_entry)


def read_source(path: str) -> tuple[str, str]:
    """A source file's text and encoding, or a one-line error for missing, unreadable, empty or
    binary input."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise CassError(f"cannot open input file '{path}': no such file") from None
    except IsADirectoryError:
        raise CassError(f"input '{path}' is a directory, not a source file") from None
    except OSError as e:
        raise CassError(f"cannot read input file '{path}': {e.strerror}") from None
    if not data.strip():
        raise CassError(f"input file '{path}' is empty: nothing to compile")
    nul = data.find(b"\0")
    if nul >= 0:
        raise CassError(f"input file '{path}' is binary data, not source code "
                        f"(NUL byte at offset {nul})")
    encoding = source_encoding(data)
    return data.decode(encoding), encoding


def source_encoding(data: bytes) -> str:
    """UTF-8, or Latin-1 for older sources (accents in comments): it maps every byte, so the
    mirrored file keeps the bytes the user wrote."""
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        return "latin-1"


def is_user_dir(path: str) -> bool:
    """Whether `path` is in the user's tree (its CUDA headers need hipify)."""
    absolute = os.path.abspath(path)
    if absolute.startswith(SYSTEM_PREFIXES):
        return False
    return not any(absolute == root or absolute.startswith(root + os.sep) for root in SYSTEM_ROOTS)


def user_file(path: str) -> bool:
    """A -include naming a file of the user's tree (else the compiler finds it on its paths)."""
    return os.path.isfile(path) and is_user_dir(path)


def _user_includes(text: str, including: str, user_dirs: list[str]) -> list[str]:
    """Headers in the user's tree that `text` includes (quoted: next to the includer first)."""
    found = []
    here = os.path.dirname(including)
    for kind, name in INCLUDE.findall(text):
        search = ([here] if kind == '"' else []) + user_dirs
        for d in search:
            cand = os.path.abspath(os.path.join(d, name))
            if os.path.isfile(cand) and is_user_dir(cand):
                found.append(cand)
                break
    return found
