"""SIGTERM to `cass-cc dataset build` (make, CI timeouts, Ray's own `ray stop`) ends it at once:
the workers' running tools and the programs they run end too, and no private folder stays."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

SLOW = """#include <cstdio>
#include <unistd.h>
__global__ void touch(int *x) { x[threadIdx.x] = 1; }
int main() {
  printf("started\\n");
  fflush(stdout);
  sleep(300);
  return 0;
}
"""


def _running(marker: str) -> list[str]:
    """Command lines of the processes that name `marker`."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline and pid != str(os.getpid()):
            found.append(cmdline)
    return found


def test_sigterm_ends_workers_tools_and_programs(tmp_path):
    corpus, temp = tmp_path / "corpus", tmp_path / "tmp"
    corpus.mkdir()
    temp.mkdir()
    (corpus / "slow.cu").write_text(SLOW)
    env = {**os.environ, "TMPDIR": str(temp),
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    build = subprocess.Popen([sys.executable, "-m", "cass_cc", "dataset", "build", str(corpus),
                              "--out", str(tmp_path / "out"), "--workers", "2"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 400
        while not [c for c in _running(str(temp)) if "cuda.out" in c and "cass-run" not in c]:
            assert build.poll() is None, build.communicate()
            assert time.monotonic() < deadline, "the sample's program never started"
            time.sleep(0.5)
        build.send_signal(signal.SIGTERM)
        _, err = build.communicate(timeout=60)
    finally:
        build.kill()
    assert build.returncode == 128 + signal.SIGTERM and "terminated by SIGTERM" in err, err
    deadline = time.monotonic() + 30
    while _running(str(temp)) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert _running(str(temp)) == []
    assert list(temp.iterdir()) == []
