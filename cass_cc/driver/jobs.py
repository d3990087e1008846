"""Jobs: the commands a build runs, each a value that can be printed (-v, --dryrun, like
`nvcc -v` and `clang -###`) or run.

A job is a tool invocation (an argument list) or an in-process step. An in-process step runs
the command it prints, from that same argument list (as clang's driver runs `clang -cc1`
in-process): `cass-cc translate-object ...` pasted into a shell does what the build did. `mv`
is done by a rename.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable

from .. import process_group
from ..errors import CassError

# nvcc exits with 2 when the compiled code has errors.
COMPILE_ERROR_EXIT = 2


class JobFailed(CassError):
    """A tool reported errors (already printed); only the exit code is left to give."""

    def __init__(self, message: str = "", exit_code: int = COMPILE_ERROR_EXIT):
        super().__init__(message, exit_code)


@dataclass
class Job:
    argv: list[str]
    action: Callable[[], None] | None = None     # an in-process step; argv describes it
    env: dict[str, str] | None = None
    rewrite: Callable[[str], str] | None = None  # turns the tool's messages into nvcc's shape
    label: str = ""                              # name for --cass-time-passes

    def text(self) -> str:
        """`#$ <command>`, after a `#$ NAME=value` line for each variable the job's tool gets
        beyond the build's environment (hipcc's HIP_PLATFORM=amd), as nvcc prints its own:
        sccache sets them for the commands that follow."""
        extra = {k: v for k, v in (self.env or {}).items() if os.environ.get(k) != v}
        return "".join(f"#$ {k}={v}\n" for k, v in sorted(extra.items())) + "#$ " + shlex.join(self.argv)


@dataclass
class Runner:
    verbose: bool = False
    dryrun: bool = False
    time_passes: bool = False
    times: list[tuple[str, float]] = field(default_factory=list)

    def run(self, jobs: list[Job]) -> None:
        for job in jobs:
            if self.verbose or self.dryrun:
                sys.stderr.write(job.text() + "\n")
                sys.stderr.flush()
            if self.dryrun:
                continue
            start = time.perf_counter()
            if job.action is not None:
                job.action()
            else:
                run_tool(job)
            spent = time.perf_counter() - start
            self.times.append((job.label or os.path.basename(job.argv[0]), spent))
            if self.time_passes:
                sys.stderr.write(f"cass-nvcc: time: {job.label or job.argv[0]}: {spent:.3f} s\n")


# How often a tool that is being watched (run_tool's while_running) is looked at.
POLL_SECONDS = 0.01


def run_tool(job: Job, while_running: Callable[[], None] | None = None) -> None:
    """Run the job's tool, its messages through job.rewrite; `while_running` is called every few
    milliseconds until the tool exits (so a later step can start on an intermediate file)."""
    with tempfile.TemporaryFile() as messages_file:  # read once the tool is done: nothing to poll
        try:
            proc = subprocess.Popen(job.argv, env=job.env, stderr=messages_file)
        except FileNotFoundError:
            raise CassError(f"cannot run '{job.argv[0]}': not found (see cass-cc doctor)") from None
        except OSError as e:
            raise CassError(f"cannot run '{job.argv[0]}': {e.strerror}") from None
        _wait(proc, while_running)
        messages_file.seek(0)
        stderr = messages_file.read().decode(errors="replace")
    messages = job.rewrite(stderr) if job.rewrite else stderr
    if messages:
        sys.stderr.write(messages if messages.endswith("\n") else messages + "\n")
    if proc.returncode != 0:
        raise JobFailed(exit_code=COMPILE_ERROR_EXIT if proc.returncode > 0 else 1)


def _wait(proc: subprocess.Popen, while_running: Callable[[], None] | None) -> None:
    try:
        while while_running is not None and proc.poll() is None:
            while_running()
            time.sleep(POLL_SECONDS)
        proc.wait()
    except BaseException:  # interrupted: the tool goes too, given a moment to remove its own temporaries
        process_group.stop(proc)
        raise
