"""cass-run: run an AMD (gfx1100) program on a real AMD GPU when there is one, otherwise on
cass-cc's RDNA3 emulator through the emulated HIP runtime.

    cass-run [--emulate|--hip] [--emu-stats FILE] [--emu-budget N] [--emu-arch GFX] [--strict]
             [--check [--check-rtol R] [--check-atol A]] PROGRAM [ARGS...]

Stages: parse the command line -> check the program -> choose the device -> prepare the
environment (the emulated libamdhip64 first on the library path) -> run -> collect the
emulator's launch statistics. The exit status is the program's (128+N when signal N ends it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from .. import process_group, targets
from ..errors import CassError
from ..fsutil import atomic_write_text
from ..signals import Terminated, name as signal_name, terminating_signals_raise
from . import check_summary
from .device_target import DEVICE_ARCH_ENV, device_arch_for
from .environment import (STATS_FILE_ENV, cuda_environment, emulator_environment, math_library_environment,
                          real_gpu_available)

PROG = "cass-run"
EM_X86_64 = 62
BUDGET_ENV, STRICT_ENV = "CASS_EMU_MAX_INSTRUCTIONS", "CASS_EMU_STRICT"
CHECK_FILE_ENV, RTOL_ENV, ATOL_ENV = "CASS_CHECK_FILE", "CASS_CHECK_RTOL", "CASS_CHECK_ATOL"
ORDER_FREE_ENV, TOLERATE_ENV = "CASS_CHECK_ORDER_FREE", "CASS_CHECK_TOLERATE"
VALUE_OPTIONS = ("--emu-stats", "--emu-budget", "--emu-arch", "--check-rtol", "--check-atol", "--check-order-free",
                 "--check-tolerate")

DESCRIPTION = """\
Run an AMD GPU program (x86-64 host code plus gfx1100 code objects, as hipcc or cass-nvcc build
it), or a program built for NVIDIA GPUs by plain nvcc (or g++ -lcuda, NVRTC, or a Python
interpreter using cuda-python: `cass-run python main.py`). For every program cass-run puts
libcassrt first on the library path under NVIDIA's library names (libcuda.so.1,
libcudart.so.12/13): the program's CUDA calls reach HIP, and the NVIDIA device code it loads is
translated to AMD code (once; the image cache in CASS_CACHE_DIR serves later runs). With an AMD
GPU (/dev/kfd and ROCm's libamdhip64) the program runs on it unchanged; without one it runs on
cass-cc's RDNA3 emulator: cass-run puts an emulated libamdhip64 first on the library path, and
every kernel executes on the CPU. `cass-cc env` prints these variables for running without
cass-run.

The exit status is the program's own. A kernel that faults on the emulator (an access outside
every allocation's pages, a hang, the --emu-budget exceeded, an unimplemented instruction) stops
the program with a report on stderr (kernel, pc, instruction, lane, address) and exit status 134.
A kernel runs until it ends, as on a GPU: it is stopped as hung only when its waves make no more
progress (no store or atomic changes memory, no read reaches memory not read before, no wave
ends or leaves its loop) and either each is back in a state it was in before or each has run
CASS_EMU_HANG_INSTRUCTIONS instructions so.
Allocations occupy whole 4 KiB pages, as ROCm's do: an access past the end of one but inside
its last page works as on a GPU and is reported as a warning (once per kernel and instruction,
with a count at exit); --strict makes it a fault.

--check (differential execution, on the emulator): every launch of a kernel that cass-nvcc
translated from SASS runs twice from the same device memory, with the translated code and with
the reference that `cass-nvcc --cass-embed-reference` (or CASS_EMBED_REFERENCE=1) embedded:
hipcc's build of the same source. Everything either wrote (every allocation, host memory the
device reaches, __device__ variables) is compared; the first launch that differs is reported at
once (kernel, grid, block, buffer base and size, the first differing element and both values),
and the program goes on with the translated kernel's results, so later differences are
reported too. Integers and bytes compare exactly; float, double and half elements (known from
the kernel's pointer parameters) are equal within |a-b| <= atol + rtol*|b|, and any that differ
within it are counted in the summary; kernels named in --check-order-free are compared as
sorted values (results whose order depends on atomics), and those in --check-tolerate have
their differences reported but not counted as failures, both listed. At exit a summary lists
launches checked, differences, and kernels that ran unchecked (no reference). Exit status: 3
when a launch differed (or, with --check-require-reference, when a translated kernel ran
unchecked), else the program's.
"""
EPILOG = """\
environment:
  CASS_EMU_MAX_INSTRUCTIONS  what --emu-budget sets (unset: no budget)
  CASS_EMU_HANG_INSTRUCTIONS instructions each wave runs without progress before a hang (1048576)
  CASS_EMU_STRICT=1          what --strict sets
  CASS_CACHE_DIR             where the emulated runtime, libcassrt and the image cache live
                             (default ~/.cache/cass-cc)
  CASS_EMBED_REFERENCE=1     (for cass-nvcc) embed the reference that --check needs
  CASS_IMAGE_STATS_FILE      libcassrt appends a JSON line for each NVIDIA image a program loads
                             (kind, bytes, cached, result, seconds); `cass-cc bench --prebuilt`

exit status (--check): 3 when a launch differed (or ran unchecked with --check-require-reference)

examples:
  cass-run ./vector_add
  cass-run --emu-stats stats.json ./matmul 256
  cass-nvcc --cass-embed-reference -o saxpy saxpy.cu && cass-run --check ./saxpy
"""


def split_command(argv: list[str]) -> tuple[list[str], list[str]]:
    """(cass-run's own options, PROGRAM and its arguments): everything from the first
    non-option on belongs to the program, verbatim (a later '--' included)."""
    i = 0
    while i < len(argv):
        if argv[i] == "--":
            return argv[:i], argv[i + 1:]
        if not argv[i].startswith("-") or argv[i] == "-":
            break
        i += 2 if argv[i] in VALUE_OPTIONS else 1
    return argv[:i], argv[i:]


def parse_args(argv: list[str]) -> argparse.Namespace:
    own, command = split_command(argv)
    parser = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
                                     allow_abbrev=False,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    device = parser.add_mutually_exclusive_group()
    device.add_argument("--emulate", action="store_true",
                        help="run on the emulator even when an AMD GPU is present")
    device.add_argument("--hip", action="store_true",
                        help="run on a real AMD GPU with ROCm's libamdhip64; fail if there is none")
    parser.add_argument("--emu-stats", metavar="FILE",
                        help="write JSON statistics of every kernel launch (kernel, grid, block, "
                             "wave- and lane-instructions, per-opcode counts, seconds, the "
                             "longest stretch of every wave without progress); implies --emulate")
    parser.add_argument("--emu-budget", metavar="N", type=_budget, default=None,
                        help="stop any kernel launch after N wave-instructions (exit status 134), "
                             "even one that makes progress; without it a launch runs until it ends "
                             "or hangs; implies --emulate")
    parser.add_argument("--emu-arch", metavar="GFX", type=_emulated_arch, default=None,
                        help="the processor the emulated device is (default: gfx1100, or the first "
                             "emulated processor the program's own code objects are for): picks "
                             "the code object of a multi-target program, or the device for code "
                             "the program loads itself (hipModuleLoad); implies --emulate")
    parser.add_argument("--strict", action="store_true",
                        help="an access past the end of an allocation, inside its page (which a GPU "
                             "maps: a warning by default), is a fault (exit status 134); implies "
                             "--emulate")
    parser.add_argument("--check", action="store_true",
                        help="differential execution: run every launch of a translated kernel with "
                             "the translated code and with the embedded reference (hipcc's build, "
                             "cass-nvcc --cass-embed-reference), compare all memory they wrote, report "
                             "differences and a summary; exit status 3 when a launch differed; "
                             "implies --emulate")
    parser.add_argument("--check-rtol", metavar="R", type=_tolerance, default=None,
                        help="--check: relative tolerance for float/double/half elements "
                             "(default 1e-05)")
    parser.add_argument("--check-atol", metavar="A", type=_tolerance, default=None,
                        help="--check: absolute tolerance for float/double/half elements "
                             "(default 1e-08)")
    parser.add_argument("--check-order-free", metavar="KERNEL,...", default=None,
                        help="--check: compare what these kernels wrote as sorted values (the same "
                             "values in any order: results whose order depends on atomics), named "
                             "by symbol or C++ name; listed in the summary")
    parser.add_argument("--check-tolerate", metavar="KERNEL,...", default=None,
                        help="--check: these kernels' differences are reported in full but do not "
                             "fail the check (results that legitimately depend on the order blocks "
                             "ran in, like a ticket lock's); listed in the summary")
    parser.add_argument("--check-require-reference", action="store_true",
                        help="--check: a translated kernel that ran unchecked (no reference) fails "
                             "the check too (exit status 3)")
    parser.add_argument("program", metavar="PROGRAM", nargs="?",
                        help="the program to run (searched in PATH when it has no '/')")
    parser.add_argument("args", metavar="ARGS", nargs=argparse.REMAINDER,
                        help="arguments passed to PROGRAM unchanged")
    args = parser.parse_args(own + command[:1])
    if args.program is None:
        parser.error("no PROGRAM given")
    args.args = command[1:]
    if args.hip and args.emu_stats:
        parser.error("--emu-stats needs the emulator; it cannot be used with --hip")
    if args.hip and (args.emu_budget is not None or args.strict or args.emu_arch):
        parser.error("--emu-budget, --emu-arch and --strict need the emulator; they cannot be used with --hip")
    if args.hip and args.check:
        parser.error("--check needs the emulator; it cannot be used with --hip")
    if not args.check and (args.check_rtol is not None or args.check_atol is not None
                           or args.check_require_reference or args.check_order_free is not None
                           or args.check_tolerate is not None):
        parser.error("--check-rtol, --check-atol, --check-order-free, --check-tolerate and "
                     "--check-require-reference need --check")
    return args


def _tolerance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"'{text}' is not a finite number >= 0")
    return value


def _emulated_arch(text: str) -> str:
    found = targets.TARGETS.get(text)
    if found is None or not found.emulated:
        runs = ", ".join(t.name for t in targets.TARGETS.values() if t.emulated)
        raise argparse.ArgumentTypeError(f"'{text}' is not a processor the emulator runs ({runs})")
    return text


def _budget(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive number of instructions")
    return value


def emulator_options(env: dict[str, str], args: argparse.Namespace) -> None:
    """--emu-budget and --strict, as the emulator reads them (an inherited setting stays when
    the option is not given)."""
    if args.emu_budget is not None:
        env[BUDGET_ENV] = str(args.emu_budget)
    if args.strict:
        env[STRICT_ENV] = "1"


def resolve_program(name: str) -> str:
    """The program's path, checked to be an x86-64 ELF executable."""
    path = name if "/" in name else shutil.which(name)
    if not path:
        raise CassError(f"program '{name}' not found (not a path, and not in PATH)")
    if not os.path.exists(path):
        raise CassError(f"program '{name}' does not exist")
    if not os.path.isfile(path):
        raise CassError(f"'{name}' is not a file")
    if not os.access(path, os.X_OK):
        raise CassError(f"'{name}' is not executable")
    with open(path, "rb") as f:
        header = f.read(20)
    if header[:4] != b"\x7fELF":
        raise CassError(f"'{name}' is not an ELF program (build it with hipcc or cass-nvcc)")
    machine = int.from_bytes(header[18:20], "little")
    if header[4] != 2 or machine != EM_X86_64:
        raise CassError(f"'{name}' is not an x86-64 program (ELF machine {machine}); "
                        "cass-run runs x86-64 host programs")
    return path


def check_writable(path: str) -> None:
    """The statistics file can be written: found out before the program runs, not after."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise CassError(f"cannot write --emu-stats file '{path}': folder '{folder}' is missing "
                        "or not writable")
    if os.path.isdir(path):
        raise CassError(f"cannot write --emu-stats file '{path}': it is a folder")


def choose_emulation(args: argparse.Namespace) -> bool:
    if args.hip:
        if not real_gpu_available():
            raise CassError("--hip needs an AMD GPU (/dev/kfd) and ROCm's libamdhip64, and this "
                            "machine has none; run without --hip to use the emulator")
        return False
    return (args.emulate or bool(args.emu_stats) or args.emu_budget is not None or args.strict or bool(args.emu_arch)
            or args.check or not real_gpu_available())


def exit_status(returncode: int) -> int:
    """A shell's view of the child's end: its exit code, or 128+N for signal N."""
    return 128 - returncode if returncode < 0 else returncode


def run_program(path: str, args: list[str], env: dict[str, str] | None) -> int:
    try:
        proc = subprocess.Popen([path, *args], env=env)
    except OSError as e:
        raise CassError(f"cannot run '{path}': {e.strerror}") from None
    while True:
        try:
            return exit_status(proc.wait())
        except KeyboardInterrupt:  # the program got the same SIGINT; wait for it to end
            continue
        except Terminated as t:  # passed on, so the program does not outlive cass-run
            process_group.stop(proc, t.signum)
            raise


def write_stats(stats_path: str, lines_file: str, program: str, status: int) -> None:
    launches = []
    if os.path.exists(lines_file):
        with open(lines_file) as f:
            launches = [json.loads(line) for line in f if line.strip()]
    report = {
        "program": program, "exit_status": status, "launches": launches,
        "totals": {"launches": len(launches),
                   "wave_instructions": sum(l["wave_instructions"] for l in launches),
                   "lane_instructions": sum(l["lane_instructions"] for l in launches),
                   "seconds": sum(l["seconds"] for l in launches)},
    }
    atomic_write_text(stats_path, json.dumps(report, indent=1) + "\n")


def check_tolerances(args: argparse.Namespace) -> tuple[float, float]:
    """(rtol, atol) of --check: the options', else the defaults the emulated runtime states."""
    from .emulated.check import DEFAULT_ATOL, DEFAULT_RTOL
    return (DEFAULT_RTOL if args.check_rtol is None else args.check_rtol,
            DEFAULT_ATOL if args.check_atol is None else args.check_atol)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    with terminating_signals_raise():
        try:
            return _run(args)
        except Terminated as t:
            print(f"{PROG}: terminated by {signal_name(t.signum)}", file=sys.stderr)
            return 128 + t.signum


def _run(args: argparse.Namespace) -> int:
    try:
        path = resolve_program(args.program)
        if args.emu_stats:
            check_writable(args.emu_stats)
        env = dict(os.environ)
        if not choose_emulation(args):
            cuda_environment(env, path)
            math_library_environment(env, path)
            return run_program(path, args.args, env)
        private = tempfile.mkdtemp(prefix="cass-run-")
        try:
            lines_file = os.path.join(private, "launches.jsonl") if args.emu_stats else None
            emulator_environment(env, path)
            cuda_environment(env, path)
            math_library_environment(env, path)
            env[DEVICE_ARCH_ENV] = args.emu_arch or device_arch_for(path)
            if lines_file:
                env[STATS_FILE_ENV] = lines_file
            else:
                env.pop(STATS_FILE_ENV, None)
            emulator_options(env, args)
            if args.check:
                rtol, atol = check_tolerances(args)
                check_file = os.path.join(private, "check.jsonl")
                env.update({CHECK_FILE_ENV: check_file, RTOL_ENV: repr(rtol), ATOL_ENV: repr(atol),
                            ORDER_FREE_ENV: args.check_order_free or "", TOLERATE_ENV: args.check_tolerate or ""})
            else:
                for name in (CHECK_FILE_ENV, RTOL_ENV, ATOL_ENV, ORDER_FREE_ENV, TOLERATE_ENV):
                    env.pop(name, None)
            status = run_program(path, args.args, env)
            if args.emu_stats:
                write_stats(args.emu_stats, lines_file, path, status)
            if args.check:
                status = check_summary.finish(check_file, status, rtol, atol, args.check_require_reference)
            return status
        finally:
            shutil.rmtree(private, ignore_errors=True)
    except CassError as e:
        print(f"{PROG}: error: {e.message}", file=sys.stderr)
        return e.exit_code


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
