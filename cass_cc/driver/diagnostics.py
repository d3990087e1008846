"""Compiler messages in nvcc's shape: clang's `file:line:col: error: msg` becomes
`file(line): error: msg`, with mirrored (hipified) paths mapped back to the user's files."""

from __future__ import annotations

import os
import re
from typing import Callable

CLANG_DIAG = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>fatal error|error|warning|note|remark): "
    r"(?P<msg>.*)$")
INCLUDED_FROM = re.compile(r"^(?P<lead>In file included from |\s+from )(?P<file>[^:\n]+):(?P<line>\d+)(?P<rest>.*)$")
GENERATED = re.compile(r"^\d+ (errors?|warnings?)( and \d+ (errors?|warnings?))? generated"
                       r"( when compiling for \S+)?\.$")


def display_path(path: str, spelled: dict[str, str]) -> str:
    """The name nvcc would print: as the user wrote it for inputs, relative below the cwd."""
    absolute = os.path.abspath(path)
    if absolute in spelled:
        return spelled[absolute]
    rel = os.path.relpath(absolute)
    return rel if not rel.startswith("..") else absolute


def nvcc_shape(text: str, to_original: Callable[[str], str], spelled: dict[str, str],
               source: str | None = None) -> str:
    """Rewrite a tool's messages; `source` adds nvcc's closing 'errors detected' line."""
    out = []
    errors = 0
    for line in text.splitlines():
        m = CLANG_DIAG.match(line)
        if m:
            where = display_path(to_original(m["file"]), spelled)
            sev = "error" if m["sev"] == "fatal error" else m["sev"]
            errors += sev == "error"
            out.append(f"{where}({m['line']}): {sev}: {m['msg']}")
            continue
        m = INCLUDED_FROM.match(line)
        if m:
            where = display_path(to_original(m["file"]), spelled)
            out.append(f"{m['lead']}{where}({m['line']}){m['rest']}")
            continue
        if GENERATED.match(line):
            continue
        out.append(_unmirror_words(line, to_original))
    if errors and source:
        noun = "error" if errors == 1 else "errors"
        out.append(f'{errors} {noun} detected in the compilation of "{source}".')
    return "\n".join(out) + ("\n" if out else "")


def _unmirror_words(line: str, to_original: Callable[[str], str]) -> str:
    return " ".join(to_original(w) if w.startswith(os.sep) else w for w in line.split(" "))
