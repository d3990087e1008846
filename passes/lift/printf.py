"""CALL.ABS.NOINC to vprintf (device printf): not lifted yet; refused with the reason."""

from __future__ import annotations

from .core import Lifter, unsupported


def call_abs(ctx: Lifter, ins) -> None:
    raise unsupported(ins, "absolute calls (device printf) are not lifted yet")
