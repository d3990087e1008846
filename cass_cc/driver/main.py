"""cass-nvcc: the drop-in nvcc. Command line -> settings -> plan of actions -> jobs -> run.

Errors a user can act on come out as one line, `cass-nvcc: error: ...`, with nvcc's exit codes
(1 for the command line, 2 for errors in the compiled code); never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import sys
import tempfile
from typing import Iterator

from .. import toolchain
from ..errors import CassError, InternalError, ToolMissing
from ..signals import Terminated, terminating_signals_raise
from ..signals import name as signal_name
from . import routes
from .jobs import Job, Runner
from .parse import Arguments, UsageError, parse
from .plan import Action, Archive, Compile, Dependencies, DeviceLink, Link, Preprocess, make_plan
from .settings import Settings, settings_from

PROG = "cass-nvcc"
INTERNAL_ERROR_EXIT = 70  # EX_SOFTWARE


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    with terminating_signals_raise():
        return _main(argv)


def _main(argv: list[str]) -> int:
    try:
        return run(argv)
    except Terminated as t:
        sys.stderr.write(f"{PROG}: terminated by {signal_name(t.signum)}\n")
        return 128 + t.signum
    except CassError as e:
        if isinstance(e, InternalError) and os.environ.get("CASS_DEBUG"):
            sys.stderr.write(e.traceback_text())
        if e.message:
            sys.stderr.write(f"{PROG}: error: {e.message}\n")
        return e.exit_code
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except BrokenPipeError:
        return 1
    except Exception as e:  # a bug: one line for the user, the traceback on request
        if os.environ.get("CASS_DEBUG"):
            raise
        sys.stderr.write(f"{PROG}: internal error: {type(e).__name__}: {e} (set CASS_DEBUG=1 for "
                         "the traceback and please report it)\n")
        return INTERNAL_ERROR_EXIT


def run(argv: list[str]) -> int:
    args = parse(argv)
    from . import help as help_texts
    if args.flag("help"):
        sys.stdout.write(help_texts.help_text())
        return 0
    if args.flag("version"):
        sys.stdout.write(help_texts.version_text())
        return 0
    if args.flag("list-gpu-arch") or args.flag("list-gpu-code"):
        sys.stdout.write(help_texts.gpu_list("arch" if args.flag("list-gpu-arch") else "code"))
        return 0
    if args.flag("cass-print-runtime-dir"):
        from ..runtime import cassrt
        sys.stdout.write(f"{cassrt.library_dir()}\n")
        return 0
    settings = settings_from(args)
    runner = Runner(settings.verbose, settings.dryrun, settings.time_passes)
    if not settings.no_warnings:
        sys.stderr.write("".join(f"{PROG}: warning: {w}\n" for w in settings.warnings))
    if settings.verbose or settings.dryrun:
        sys.stderr.write("".join(f"#$ {line}\n" for line in environment_lines(settings)))
    temp = tempfile.mkdtemp(prefix="cass-nvcc-")
    try:
        with temporaries_inside(os.path.join(temp, "tmp")):
            _run_plan(args, settings, runner, temp)
    finally:
        _remove_build_folder(temp)
    return 0


def _remove_build_folder(temp: str) -> None:
    # A translation thread may still be writing when a signal ends the build; once the folder is
    # gone nothing can be created in it again (the thread's temporaries point into it).
    for _ in range(100):
        shutil.rmtree(temp, ignore_errors=True)
        if not os.path.exists(temp):
            return


@contextlib.contextmanager
def temporaries_inside(folder: str) -> Iterator[None]:
    """Every temporary file of this build, ours and the tools' (nvcc leaves tmpxft_* files behind
    when it is terminated), goes into `folder`, so removing the build's folder removes them all."""
    os.mkdir(folder)
    saved_env, saved_tempdir = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"], tempfile.tempdir = folder, folder
    terminated = False
    try:
        yield
    except Terminated:
        # The process is ending, but the early translation's thread may still run: its next
        # temporary must fail inside the removed folder, not appear in the user's TMPDIR.
        terminated = True
        raise
    finally:
        if not terminated:
            tempfile.tempdir = saved_tempdir
            if saved_env is None:
                del os.environ["TMPDIR"]
            else:
                os.environ["TMPDIR"] = saved_env


def _run_plan(args: Arguments, settings: Settings, runner: Runner, temp: str) -> None:
    actions = make_plan(args, temp)
    cuda_units = [a for a in actions if isinstance(a, Compile) and a.tu.language == "cu"]
    if settings.report_path and len(cuda_units) > 1:
        raise UsageError("--cass-report names one file, but there are several .cu inputs: "
                         "use CASS_REPORT_DIR=<folder> for one report per input")
    for n, action in enumerate(actions):
        work = os.path.join(temp, f"step{n}")
        os.mkdir(work)
        runner.run(jobs_for(action, settings, work))


def jobs_for(action: Action, settings: Settings, work: str) -> list[Job]:
    route = routes.route_for(settings)
    if isinstance(action, Compile):
        return route.compile_jobs(action, settings, work)
    if isinstance(action, Link):
        return route.link_jobs(action, settings, work)
    if isinstance(action, DeviceLink):
        if route.name != "binary":
            raise UsageError("-dlink runs on the binary route; on the source route link the -dc "
                             "objects with cass-nvcc, which links their device code with hipcc")
        from . import device_link
        return device_link.explicit_jobs(action.inputs, action.output, settings, work)
    if isinstance(action, Archive):
        return archive_jobs(action, settings, work)
    from . import host, source_route  # imported when needed: a compile's nvcc starts sooner

    # The preprocessor is the same whatever the route: hipcc's (for .cu) or the host compiler's.
    front = source_route if action.tu.language == "cu" else host
    if isinstance(action, Preprocess):
        return front.preprocess(action.tu, settings, action.output, work)
    if isinstance(action, Dependencies):
        return front.dependencies(action.tu, settings, action.output, action.targets, work)
    raise CassError(f"internal error: no jobs for {action!r}")


def archive_jobs(action: Archive, settings: Settings, work: str) -> list[Job]:
    """-lib: add the objects to the library (nvcc adds to an existing one, like `ar r`)."""
    from .frontend import place_job

    ar = settings.arbin or shutil.which("ar")
    if not ar:
        raise ToolMissing("no archiver (ar) found: apt-get install binutils, or give -arbin")
    tmp = os.path.join(work, os.path.basename(action.output))
    start = [Job(["cp", action.output, tmp], label="archive")] if os.path.isfile(action.output) else []
    return start + [Job([ar, *settings.archive_options, "rcs", tmp, *action.inputs], label="ar"),
                    place_job(tmp, action.output)]


def environment_lines(settings: Settings) -> list[str]:
    """The variable lines `nvcc -v` starts with; CMake's CUDA support reads TOP, PATH,
    NVVMIR_LIBRARY_DIR, INCLUDES, LIBRARIES and the `-arch compute_NN` of the default target.
    INCLUDES and LIBRARIES are those of the route the build takes: CMake takes the link line to
    be the one that contains LIBRARIES' text, as nvcc's does."""
    top = toolkit_root()
    targets = [t for t in settings.nvidia_targets if t.startswith(("sm_", "compute_"))]
    arch = targets[0].split("_", 1)[1] if targets else "75"
    lines = [f"TOP={top}", f"NVVMIR_LIBRARY_DIR={os.path.join(top, 'nvvm', 'libdevice')}",
             f"PATH={os.environ.get('PATH', '')}"]
    route = routes.route_for(settings)
    try:
        lines.append("INCLUDES=" + shlex.join(f"-I{d}" for d in route.implicit_include_dirs()))
        lines.append("LIBRARIES=" + shlex.join(route.implicit_link_args()))  # as Job.text prints the link
    except ToolMissing:
        pass
    # one variable a line, as nvcc prints them: sccache replays each `#$ NAME=value` line as one
    lines += [f"CASS_ROUTE={route.name}", f"CASS_OFFLOAD_ARCH={','.join(settings.offload_archs)}",
              f"NVIDIA_TARGETS=-arch compute_{arch} (recorded: {','.join(settings.nvidia_targets)})"]
    return lines


def toolkit_root() -> str:
    """The CUDA toolkit (of the nvcc found), else a stand-in folder with nvvm/libdevice, so
    build systems that look for the toolkit next to the compiler find one."""
    try:
        return os.path.dirname(os.path.dirname(os.path.realpath(toolchain.find("nvcc").path)))
    except ToolMissing:
        stand_in = toolchain.cache_root() / "cuda-stand-in"
        (stand_in / "nvvm" / "libdevice").mkdir(parents=True, exist_ok=True)
        return str(stand_in)
