"""Itanium C++ symbol names -> their C++ spelling ('_Z5scalePffi' -> 'scale(float*, float, int)'),
by llvm-cxxfilt (found through toolchain, like every LLVM tool cass-cc runs).

Names go to the tool in batches, one process for all the names a caller has at once, and every
answer is kept for the rest of the process (the emulated runtime asks again at every launch).
Without the tool, or when it fails, names stay as they are: a mangled name is still a correct
name, so demangling never stops a build or a run."""

from __future__ import annotations

import re
import subprocess
import threading
from typing import Iterable

from . import toolchain
from .errors import ToolMissing

_known: dict[str, str] = {}
_lock = threading.Lock()


def demangle_all(names: Iterable[str]) -> dict[str, str]:
    """Each of `names` -> its C++ spelling (itself when it is not a mangled name)."""
    names = list(dict.fromkeys(names))
    with _lock:
        asked = [n for n in names if n not in _known and n.startswith("_Z")]
        if asked:
            _known.update(zip(asked, _run_tool(asked)))
        return {n: _known.get(n, n) for n in names}


def demangle(name: str) -> str:
    """The C++ spelling of one name (itself when it is not a mangled name)."""
    return demangle_all([name])[name]


def base_name(demangled: str) -> str:
    """The function's own name in its C++ spelling, without scope, template arguments, parameters
    or return type (`void ns::k<64u>(int*)` -> `k`); '' when there is none."""
    words = re.sub(r"<.*", "", demangled.split("(", 1)[0]).split("::")[-1].split()
    return words[-1] if words else ""


def _run_tool(names: list[str]) -> list[str]:
    try:
        proc = subprocess.run([toolchain.path("llvm-cxxfilt")], input="\n".join(names) + "\n",
                              capture_output=True, text=True, timeout=60)
    except (ToolMissing, OSError, subprocess.TimeoutExpired):
        return names
    out = proc.stdout.splitlines()
    # one line out per line in; anything else (a name with a newline, a crash) leaves all unchanged
    return out if proc.returncode == 0 and len(out) == len(names) else names
