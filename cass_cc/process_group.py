"""A tool run with a deadline, in a process group of its own. At the deadline the whole group gets
SIGTERM, so cass-run stops the program it started and cass-nvcc its tools, and both remove their
private folders; whatever is left after a grace period is killed. subprocess.run's timeout kills
the direct child alone: a program that cass-run started ran on, holding a core, and the child's
private folder stayed in /tmp."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass

# How long a timed-out group may take to exit after SIGTERM before it is killed.
TERMINATE_GRACE_SECONDS = 5.0
# The status a shell gives a command it cannot start.
CANNOT_START = 127


@dataclass
class Finished:
    exit: int | None  # None: timed out; a signal as 128+N, as a shell reports it
    stdout: str
    stderr: str
    seconds: float

    @property
    def timed_out(self) -> bool:
        return self.exit is None


def run(argv: list[str], timeout: float, cwd: str | None = None,
        env: dict[str, str] | None = None) -> Finished:
    """Run argv to its end or to `timeout` seconds; its output is captured as text."""
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        return Finished(CANNOT_START, "", f"cannot start {argv[0]}: {e.strerror}", 0.0)
    try:
        out, err = proc.communicate(timeout=timeout)
        status: int | None = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    except subprocess.TimeoutExpired:
        out, err = _end_group(proc)
        status = None
    except BaseException:  # interrupted ourselves: the group must not outlive us
        _end_group(proc)
        raise
    return Finished(status, out.decode(errors="replace"), err.decode(errors="replace"),
                    time.perf_counter() - start)


def stop(proc: subprocess.Popen, signum: int = signal.SIGTERM) -> None:
    """End a child while we are being interrupted: `signum`, a grace period in which it removes
    its own temporaries, then SIGKILL."""
    proc.send_signal(signum)
    try:
        proc.wait(timeout=TERMINATE_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _end_group(proc: subprocess.Popen) -> tuple[bytes, bytes]:
    _signal_group(proc.pid, signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=TERMINATE_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        out, err = b"", b""
    _signal_group(proc.pid, signal.SIGKILL)  # members that ignored SIGTERM
    more_out, more_err = proc.communicate()
    return out + more_out, err + more_err


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:  # the group has ended already
        pass
