"""cass-run's command line: help, bad programs, device choice, exit statuses."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import time

import pytest

from cass_cc.runtime import environment, run
from tests.conftest import BIN, run_tool


def test_help_lists_every_option():
    proc = run_tool("cass-run", "--help")
    assert proc.returncode == 0
    for option in ("--emulate", "--hip", "--emu-stats", "PROGRAM", "CASS_EMU_MAX_INSTRUCTIONS", "134"):
        assert option in proc.stdout


@pytest.mark.parametrize("make, message", [
    (lambda d: str(d / "missing"), "does not exist"),
    (lambda d: "no-such-program-cass-run-test", "not found"),
    (lambda d: str(d), "is not a file"),
])
def test_missing_program(tmp_path, make, message):
    proc = run_tool("cass-run", make(tmp_path))
    assert proc.returncode != 0
    assert proc.stderr.startswith("cass-run: error: ") and message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_not_executable(tmp_path):
    target = tmp_path / "prog"
    shutil.copy("/bin/true", target)
    os.chmod(target, 0o644)
    proc = run_tool("cass-run", str(target))
    assert proc.returncode == 1 and "is not executable" in proc.stderr


def test_script_is_not_an_elf_program(tmp_path):
    script = tmp_path / "prog.sh"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    proc = run_tool("cass-run", str(script))
    assert proc.returncode == 1 and "is not an ELF program" in proc.stderr


def test_foreign_architecture_is_refused(tmp_path):
    data = bytearray(open("/bin/true", "rb").read())
    data[18:20] = (183).to_bytes(2, "little")  # EM_AARCH64
    target = tmp_path / "arm_prog"
    target.write_bytes(bytes(data))
    target.chmod(0o755)
    proc = run_tool("cass-run", str(target))
    assert proc.returncode == 1 and "not an x86-64 program" in proc.stderr


def test_hip_without_a_gpu_is_a_clear_error():
    if environment.real_gpu_available():
        pytest.skip("this machine has an AMD GPU")
    proc = run_tool("cass-run", "--hip", "/bin/true")
    assert proc.returncode == 1
    assert "--hip needs an AMD GPU" in proc.stderr


def test_hip_and_emulate_exclude_each_other():
    proc = run_tool("cass-run", "--hip", "--emulate", "/bin/true")
    assert proc.returncode == 2 and "not allowed with" in proc.stderr


@pytest.mark.parametrize("arch", ["gfx9", "gfx1101", "nvptx"])
def test_emu_arch_must_be_a_processor_the_emulator_runs(arch):
    proc = run_tool("cass-run", "--emu-arch", arch, "/bin/true")
    assert proc.returncode == 2 and f"'{arch}' is not a processor the emulator runs" in proc.stderr
    assert "gfx90a" in proc.stderr and "Traceback" not in proc.stderr


def test_exit_status_and_arguments_are_the_programs():
    proc = run_tool("cass-run", "--emulate", "/bin/sh", "-c", 'echo "$1"; exit 7', "sh", "--hip")
    assert proc.returncode == 7
    assert proc.stdout == "--hip\n"


def test_signal_becomes_128_plus_n():
    proc = run_tool("cass-run", "--emulate", "/bin/sh", "-c", "kill -TERM $$")
    assert proc.returncode == 128 + 15


def test_emulator_environment_puts_the_runtime_first(tmp_path):
    env = {"LD_LIBRARY_PATH": "/elsewhere"}
    environment.emulator_environment(env)
    first = env["LD_LIBRARY_PATH"].split(os.pathsep)[0]
    assert os.path.isfile(os.path.join(first, "libamdhip64.so.5"))
    assert os.path.islink(os.path.join(first, "libamdhip64.so.6"))
    assert stat.S_ISREG(os.stat(os.path.join(first, "libamdhip64.so.6")).st_mode)
    paths = env[environment.SYSPATH_ENV].split(os.pathsep)
    assert any(os.path.isdir(os.path.join(p, "cass_cc")) for p in paths)
    assert any(os.path.isdir(os.path.join(p, "numpy")) for p in paths)


@pytest.mark.parametrize("argv, own, command", [
    (["./p", "--", "-x"], [], ["./p", "--", "-x"]),
    (["--emulate", "--", "./p", "--hip"], ["--emulate"], ["./p", "--hip"]),
    (["--emu-stats", "s.json", "./p", "a"], ["--emu-stats", "s.json"], ["./p", "a"]),
    (["--emu-stats=s.json", "./p"], ["--emu-stats=s.json"], ["./p"]),
])
def test_everything_after_program_is_the_programs(argv, own, command):
    assert run.split_command(argv) == (own, command)


def test_no_program_is_a_usage_error():
    proc = run_tool("cass-run", "--emulate")
    assert proc.returncode == 2 and "no PROGRAM given" in proc.stderr


def test_unwritable_stats_file_is_refused_before_running(tmp_path):
    marker = tmp_path / "ran"
    proc = run_tool("cass-run", "--emu-stats", str(tmp_path / "no" / "such" / "s.json"),
                    "/bin/touch", str(marker))
    assert proc.returncode == 1 and "cannot write --emu-stats file" in proc.stderr
    assert not marker.exists()


def test_unusable_cache_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    env = dict(os.environ, CASS_CACHE_DIR=str(blocker / "cache"))
    proc = run_tool("cass-run", "--emulate", "/bin/true", env=env)
    assert proc.returncode == 1
    assert "cannot build the emulated HIP runtime in the cache" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_cass_cc_env_prints_exports_for_eval(tmp_path):
    """`cass-cc env`: export lines for eval, the CUDA libraries and (no AMD GPU here) the emulated
    runtime first on LD_LIBRARY_PATH, what was there kept after them."""
    if environment.real_gpu_available():
        pytest.skip("this machine has an AMD GPU")
    env = {**os.environ, "LD_LIBRARY_PATH": "/kept/a:/kept/b"}
    proc = run_tool("cass-cc", "env", env=env)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert all(line.startswith("export ") for line in lines)
    shown = subprocess.run(["bash", "-c", proc.stdout + 'printf "%s\\n" "$LD_LIBRARY_PATH" "$CASS_EMUHIP_SYSPATH"'],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    folders = shown[0].split(":")
    assert folders[-2:] == ["/kept/a", "/kept/b"]
    assert any(os.path.exists(os.path.join(f, "libcuda.so.1")) and os.path.exists(os.path.join(f, "libcudart.so.13"))
               for f in folders[:2])
    assert any(os.path.exists(os.path.join(f, "libamdhip64.so.5")) for f in folders[:2])
    assert shown[1]


def test_cass_cc_env_help_and_hip_without_a_gpu():
    proc = run_tool("cass-cc", "env", "--help")
    assert proc.returncode == 0
    for word in ("eval", "LD_LIBRARY_PATH", "libcuda.so.1", "--emulate", "--hip", "CASS_EMUHIP_SYSPATH"):
        assert word in proc.stdout
    if not environment.real_gpu_available():
        proc = run_tool("cass-cc", "env", "--hip")
        assert proc.returncode == 1 and "--hip needs an AMD GPU" in proc.stderr


def test_sigterm_ends_the_program_and_removes_the_private_folder(tmp_path):
    """make -j and the bench's deadlines end cass-run with SIGTERM: the program it started goes too,
    and its private folder does not stay behind in TMPDIR."""
    temp, pid_file = tmp_path / "tmp", tmp_path / "pid"
    temp.mkdir()
    proc = subprocess.Popen([sys.executable, str(BIN / "cass-run"), "/bin/sh", "-c", f"echo $$ > {pid_file}; exec sleep 60"],
                            env={**os.environ, "TMPDIR": str(temp)}, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not pid_file.exists() or not pid_file.read_text().strip():
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    assert [p.name[:9] for p in temp.iterdir()] == ["cass-run-"]
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 128 + signal.SIGTERM
    assert "cass-run: terminated by SIGTERM" in proc.stderr.read()
    assert list(temp.iterdir()) == []
    assert _ends(int(pid_file.read_text()), within=10.0)


def _ends(pid: int, within: float) -> bool:
    """The process is gone, or dead and waiting to be reaped by whoever adopted it (a zombie):
    under load its new parent may take a moment."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False
