"""The corpus: CUDA sources named on the command line (files, or folders searched for .cu files),
normalised so that formatting differences do not make two samples."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import CassError

SUFFIXES = (".cu",)
_LINE_COMMENT = re.compile(r"//[^\n]*")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_BLANK_RUN = re.compile(r"\n{3,}")


@dataclass(frozen=True)
class Source:
    path: str      # as found, relative to the corpus root it came from when one was a folder
    file: str      # absolute path to read and compile
    text: str      # normalised text: the sample's CUDA source
    digest: str    # sha256 of `text`: the sample's identity (exact duplicates share it)


def normalise(text: str) -> str:
    """Line endings, trailing blanks and runs of blank lines unified; comments are kept (they are
    part of what a model learns from) except that text equal up to them stays distinct on purpose:
    near-duplicate detection, not normalisation, catches those."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    return _BLANK_RUN.sub("\n\n", "\n".join(lines)).strip("\n") + "\n"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def find_sources(paths: list[str]) -> list[Source]:
    """Every .cu file under `paths`, sorted by path (the order every later step keeps)."""
    found: dict[str, Path] = {}
    for given in paths:
        root = Path(given)
        if root.is_dir():
            for file in root.rglob("*"):
                if file.suffix in SUFFIXES and file.is_file():
                    found[str(Path(root.name) / file.relative_to(root))] = file
        elif root.is_file():
            found[root.name if root.suffix in SUFFIXES else str(root)] = root
        else:
            raise CassError(f"'{given}': no such file or folder")
    sources = []
    for name in sorted(found):
        file = found[name]
        if file.suffix not in SUFFIXES:
            raise CassError(f"'{name}': not a CUDA source (expected {', '.join(SUFFIXES)})")
        try:
            text = normalise(file.read_text())
        except (OSError, UnicodeDecodeError) as e:
            raise CassError(f"cannot read '{file}': {e}") from None
        sources.append(Source(name, str(file.resolve()), text, digest(text)))
    return sources


def tokens(text: str) -> list[str]:
    """Identifiers, numbers and punctuation, comments left out: what near-duplicates share."""
    text = _LINE_COMMENT.sub(" ", _BLOCK_COMMENT.sub(" ", text))
    return re.findall(r"[A-Za-z_]\w*|\d[\w.]*|\S", text)
