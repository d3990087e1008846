"""Writing outputs so an interrupted build leaves no half file: a private temporary name, then
rename into place."""

from __future__ import annotations

import os
import tempfile

from .errors import CassError


def atomic_write_bytes(path: str, data: bytes, mode: int | None = None) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".cass-", dir=directory)
    except OSError as e:
        raise CassError(f"cannot write '{path}': {e.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):  # a folder in the way, a full disk: the user's to fix
            raise CassError(f"cannot write '{path}': {e.strerror}") from None
        raise


def atomic_write_text(path: str, text: str, mode: int | None = None) -> None:
    atomic_write_bytes(path, text.encode(), mode)


def atomic_save_png(fig, path: str) -> None:
    """A matplotlib figure written to `path` whole or not at all (a temporary file renamed)."""
    tmp = os.path.join(os.path.dirname(os.path.abspath(path)), f".cass-{os.getpid()}-{os.path.basename(path)}")
    try:
        fig.savefig(tmp, dpi=110, format="png")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def atomic_copy(src: str, dst: str) -> None:
    """Copy src to dst via a temporary name next to dst, keeping src's permission bits."""
    with open(src, "rb") as f:
        data = f.read()
    atomic_write_bytes(dst, data, os.stat(src).st_mode & 0o777)
