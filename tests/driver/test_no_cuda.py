"""A machine without the CUDA toolkit (an AMD machine): cass-nvcc uses NVIDIA's nvcc wheels from
PyPI that `make` installs into the venv (setup.cfg's `nvcc` extra), and says so in `cass-cc doctor`.

The toolkit of this machine is hidden in a private mount namespace (an empty folder mounted over
it), so the build sees what a machine without CUDA has.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "examples" / "vector_add" / "vector_add.cu"


def _script(toolkit: str | None, empty: Path, work: Path) -> str:
    bin_dir = os.path.dirname(sys.executable)
    hide = f"mount --bind {empty} {toolkit} && " if toolkit else ""
    return (f"{hide}export PATH={bin_dir}:/usr/bin:/bin && unset CUDA_HOME CUDA_PATH && cd {work} && "
            f"! command -v nvcc >/dev/null && cass-cc doctor | grep -w nvcc && "
            f"cass-nvcc -O2 -o vector_add {SOURCE} && cass-run ./vector_add")


def test_build_and_run_with_nvcc_from_wheels(tmp_path: Path) -> None:
    system_nvcc = shutil.which("nvcc", path="/usr/local/bin:/usr/bin:/bin:/usr/local/cuda/bin")
    toolkit = str(Path(os.path.realpath(system_nvcc)).parent.parent) if system_nvcc else None
    assert toolkit is None or "site-packages" not in toolkit
    empty = tmp_path / "empty"
    empty.mkdir()
    env = dict(os.environ, CASS_CACHE_DIR=str(tmp_path / "cache"))  # libcassrt built afresh, from the wheels' headers
    proc = subprocess.run(["unshare", "--mount", "sh", "-c", _script(toolkit, empty, tmp_path)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert "NVIDIA's PyPI wheel" in proc.stdout and "/site-packages/nvidia/" in proc.stdout
    assert "PASS" in proc.stdout
