"""SIGTERM and SIGHUP as an exception, so `finally` blocks remove private folders: make -j sends
SIGTERM to every running compile when one fails or is interrupted, and a build step run on its
own (`cass-cc translate-object`) must clean up as cass-nvcc does."""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

TERMINATING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Terminated(BaseException):
    """A terminating signal arrived; `signum` says which."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def terminating_signals_raise() -> Iterator[None]:
    """Within the block, SIGTERM/SIGHUP raise Terminated (on the main thread, where signals are
    delivered; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _raise_terminated) for s in TERMINATING_SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def name(signum: int) -> str:
    return signal.Signals(signum).name
