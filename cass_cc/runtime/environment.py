"""The environment a program runs in under cass-run, and `cass-cc env`, which prints it for
running programs without cass-run.

Two things go first on the library path. On the emulator (no AMD GPU, or asked for), the
emulated libamdhip64, with what its embedded Python needs to import cass_cc and numpy. Always,
libcassrt under NVIDIA's library names (libcuda.so.1, libcudart.so.12/13): whatever runs under
cass-run is meant to run on the AMD side, and a program may reach CUDA without naming it in its
ELF file (an interpreter that dlopens libcuda.so.1, like cuda-python; a plugin), so the CUDA
libraries are there for every program, as ZLUDA's are for every program started with its
LD_LIBRARY_PATH. A program that cass-nvcc linked against libcassrt.so is not affected: the folder
holds only NVIDIA's names. A program that names NVIDIA's cuBLAS or cuRAND (libcublas.so.13,
libcurand.so.10) gets cass-cc's (runtime/cudalibs), built on first use, first too.
"""

from __future__ import annotations

import os
import shlex
import sys

import click

from .. import toolchain
from ..errors import CassError
from . import shim

SYSPATH_ENV = "CASS_EMUHIP_SYSPATH"
PYTHONHOME_ENV = "CASS_EMUHIP_PYTHONHOME"
STATS_FILE_ENV = "CASS_EMU_STATS_FILE"
LIBRARY_PATH = "LD_LIBRARY_PATH"
NVIDIA_LIBRARIES = ("libcuda.so", "libcudart.so")   # prefixes of what nvcc's programs load
NVIDIA_FATBIN_MAGIC = b"\x50\xed\x55\xba"


def real_gpu_available() -> bool:
    if not os.path.exists("/dev/kfd"):
        return False
    try:
        toolchain.libamdhip64()
    except CassError:
        return False
    return True


def check_emulator_imports() -> None:
    """The program's embedded Python imports what this one does; fail here, once, clearly,
    rather than in every HIP call of the program."""
    try:
        import cass_cc.emu  # noqa: F401
        import cass_cc.runtime.emulated.api  # noqa: F401
    except ImportError as e:
        raise CassError(f"the emulator cannot be imported by {sys.executable}: {e} "
                        "(install cass-cc with its dependencies: pip install -e .)") from None


def has_dt_rpath(path: str) -> bool:
    """Whether the program has an old-style DT_RPATH, which the loader searches before
    LD_LIBRARY_PATH (DT_RUNPATH, what hipcc writes, comes after it)."""
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
    try:
        with open(path, "rb") as f:
            dynamic = ELFFile(f).get_section_by_name(".dynamic")
            return dynamic is not None and any(t.entry.d_tag == "DT_RPATH" for t in dynamic.iter_tags())
    except ELFError:
        return False


def built_by_nvidia(path: str) -> bool:
    """Whether the program needs NVIDIA's CUDA libraries: it names libcuda or libcudart, or it
    carries NVIDIA device code (a `.nv_fatbin` that cass-nvcc did not replace), which the CUDA
    runtime linked into it (nvcc's default) hands to libcuda.so.1."""
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
    try:
        with open(path, "rb") as f:
            elf = ELFFile(f)
            dynamic = elf.get_section_by_name(".dynamic")
            needed = [t.needed for t in dynamic.iter_tags() if t.entry.d_tag == "DT_NEEDED"] if dynamic else []
            if any(n.startswith(NVIDIA_LIBRARIES) for n in needed):
                return True
            fatbin = elf.get_section_by_name(".nv_fatbin")
            return fatbin is not None and fatbin["sh_type"] != "SHT_NOBITS" and fatbin.data()[:4] == NVIDIA_FATBIN_MAGIC
    except ELFError:
        return False


def _needed(path: str) -> list[str]:
    """The program's DT_NEEDED entries ([] for a file that is not ELF)."""
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
    try:
        with open(path, "rb") as f:
            dynamic = ELFFile(f).get_section_by_name(".dynamic")
            return [t.needed for t in dynamic.iter_tags() if t.entry.d_tag == "DT_NEEDED"] if dynamic else []
    except ELFError:
        return []


def math_library_environment(env: dict[str, str], program: str) -> None:
    """cass-cc's cuBLAS/cuRAND first on env's library path when the program loads NVIDIA's."""
    from .cudalibs import LIBRARIES, library_dir
    sonames = {lib.soname for lib in LIBRARIES}
    if any(n in sonames for n in _needed(program)):
        _prepend(env, str(library_dir()))


def _prepend(env: dict[str, str], folder: str) -> None:
    env[LIBRARY_PATH] = os.pathsep.join(
        [folder] + [p for p in env.get(LIBRARY_PATH, "").split(os.pathsep) if p and p != folder])


def emulator_environment(env: dict[str, str], program: str | None = None) -> None:
    """The emulated libamdhip64 first on env's library path, and what its embedded Python needs to
    import cass_cc and numpy."""
    check_emulator_imports()
    runtime_dir = str(shim.build())
    _prepend(env, runtime_dir)
    if program and has_dt_rpath(program):
        # A DT_RPATH naming ROCm's folder would win over LD_LIBRARY_PATH; a preloaded library
        # with the soname libamdhip64.so.5 satisfies the program's NEEDED entry instead.
        preload = os.path.join(runtime_dir, shim.SONAMES[0])
        env["LD_PRELOAD"] = " ".join([preload] + env.get("LD_PRELOAD", "").split())
    paths = [os.path.abspath(p) if p else os.getcwd() for p in sys.path]
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env[SYSPATH_ENV] = os.pathsep.join(dict.fromkeys([package_root] + paths))
    env[PYTHONHOME_ENV] = sys.base_prefix


def cuda_environment(env: dict[str, str], program: str | None = None) -> None:
    """libcassrt's NVIDIA-named libraries first on env's library path. Where libcassrt cannot be
    built (no CUDA headers, no C compiler), a program that needs NVIDIA's libraries, or no
    particular program (`cass-cc env`), is an error; any other program runs without them."""
    from .cassrt import nvidia_library_dir
    try:
        folder = nvidia_library_dir()
    except CassError as e:
        if program is None or built_by_nvidia(program):
            what = f"'{program}' needs CUDA's libraries" if program else "CUDA programs need CUDA's libraries"
            raise CassError(f"{what}, which cass-cc supplies as libcassrt, and libcassrt cannot be "
                            f"built: {e.message}") from None
        return
    _prepend(env, str(folder))


def shell_lines(env: dict[str, str], names: list[str]) -> str:
    """`export NAME=VALUE` lines (values quoted for any POSIX shell) for the variables `names`."""
    return "".join(f"export {name}={shlex.quote(env[name])}\n" for name in names)


ENV_HELP = """Print the shell variables that run CUDA programs without cass-run, as `export NAME=VALUE`
lines for eval in any POSIX shell:

\b
    eval "$(cass-cc env)"
    ./saxpy            # a program plain nvcc built (or python using cuda-python)

They are what cass-run sets for every program: libcassrt first on LD_LIBRARY_PATH under NVIDIA's
library names (libcuda.so.1, libcudart.so.12, libcudart.so.13), so the program's CUDA calls reach
HIP and the NVIDIA device code it loads is translated (once: the image cache in CASS_CACHE_DIR
serves later runs); and, without an AMD GPU (or with --emulate), the emulated libamdhip64 first
too, with CASS_EMUHIP_SYSPATH and CASS_EMUHIP_PYTHONHOME, which its embedded Python reads, so
kernels run on cass-cc's RDNA3 emulator. The current LD_LIBRARY_PATH is kept after them.

What only cass-run does: its options (--emu-stats, --check; --strict and --emu-budget have the
variables CASS_EMU_STRICT=1 and CASS_EMU_MAX_INSTRUCTIONS), and preloading the emulated runtime
into a program whose DT_RPATH names ROCm's folder, which the loader searches before
LD_LIBRARY_PATH."""


@click.command("env", help=ENV_HELP)
@click.option("--emulate", is_flag=True, help="Include the emulator's variables even when an AMD GPU is present.")
@click.option("--hip", is_flag=True,
              help="Only libcassrt's libraries: for a real AMD GPU with ROCm's libamdhip64 (an error without one).")
def env_command(emulate: bool, hip: bool) -> None:
    if emulate and hip:
        raise click.UsageError("--emulate and --hip exclude each other")
    if hip and not real_gpu_available():
        raise CassError("--hip needs an AMD GPU (/dev/kfd) and ROCm's libamdhip64, and this machine "
                        "has none; leave it out to get the emulator's variables")
    env = dict(os.environ)
    names = [LIBRARY_PATH]
    if emulate or (not hip and not real_gpu_available()):
        emulator_environment(env)
        names += [SYSPATH_ENV, PYTHONHOME_ENV]
    cuda_environment(env)
    click.echo(shell_lines(env, names), nl=False)
