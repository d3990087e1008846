"""process_group.run: a deadline ends the whole process group, children of the child included."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from cass_cc import process_group


def _gone(pid: int) -> bool:
    """Ended: no such process, or a zombie waiting for whoever adopted it to reap it."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


def test_output_and_status():
    done = process_group.run([sys.executable, "-c", "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"], 60)
    assert (done.exit, done.stdout, done.stderr, done.timed_out) == (3, "out\n", "err\n", False)


def test_a_signal_reads_as_a_shell_reports_it():
    assert process_group.run(["/bin/sh", "-c", "kill -KILL $$"], 60).exit == 128 + 9


def test_a_deadline_ends_the_grandchildren(tmp_path):
    """cass-run starts the program as its child: a timeout must not leave that program running."""
    pid_file = tmp_path / "pid"
    done = process_group.run(["/bin/sh", "-c", f"sleep 60 & echo $! > {pid_file}; wait"], 2)
    assert done.timed_out and done.exit is None
    assert _gone(int(pid_file.read_text()))


def test_a_child_that_ignores_sigterm_is_killed(tmp_path):
    pid_file = tmp_path / "pid"
    done = process_group.run(["/bin/sh", "-c", f"trap '' TERM; sleep 60 & echo $! > {pid_file}; wait"], 1)
    assert done.timed_out
    assert _gone(int(pid_file.read_text()))


def test_a_missing_tool_is_the_shells_127():
    done = process_group.run(["/no/such/tool"], 60)
    assert done.exit == process_group.CANNOT_START and "cannot start /no/such/tool" in done.stderr


def test_timeout_gives_children_a_chance_to_clean_up(tmp_path):
    """SIGTERM first: a child that removes its folder on SIGTERM (cass-run, cass-nvcc) does so."""
    folder = tmp_path / "private"
    script = (f"import os, signal, sys, time\nos.mkdir({str(folder)!r})\n"
              f"signal.signal(signal.SIGTERM, lambda *a: (os.rmdir({str(folder)!r}), sys.exit(1)))\ntime.sleep(60)\n")
    done = process_group.run([sys.executable, "-c", script], 2)
    assert done.timed_out and not folder.exists()
