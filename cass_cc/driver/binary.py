"""The binary route: nvcc compiles each translation unit as usual (x86 host code plus SASS for
sm_80 and PTX), every kernel's SASS is translated to the offload arch (cass_cc.passes), the code
objects replace the device code in nvcc's object (binary_embed), and the link step links the
unmodified host code against libcassrt, the CUDA runtime implemented on HIP, instead of cudart.

Stages of a compile, each a job: nvcc -> translate kernels (+ hipify fallback) -> embed; the compile
step's jobs come from binary_compile.py (which starts the translation while nvcc runs).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..errors import CassError, ToolMissing
from ..fsutil import atomic_copy
from ..report import Report
from ..runtime import cassrt
from .binary_embed import BUNDLE_MAGIC, bundle, embed
from .binary_compile import (NO_FALLBACK_ROUTE, SASS_TARGET, EarlyTranslation,  # noqa: F401 -- the route's
                             compile_jobs, nvcc_command)                        # compile step, re-exported
from . import device_link, hip_fatbin, host
from .binary_kernels import TranslatedTU, code_for_tu
from .frontend import place_job
from .jobs import Job
from .plan import Link, TranslationUnit
from .settings import Settings

# Runtime libraries a CUDA build names; libcassrt takes their place.
CUDART_LIBRARIES = ("cudart", "cudart_static", "cudadevrt")


def _translate_object(host_obj: str, output: str, tu: TranslationUnit | None, settings: Settings, work: str,
                      no_fallback: str | None, product_dir: str | None = None,
                      early: EarlyTranslation | None = None) -> None:
    """Translate the kernels of nvcc's object `host_obj` (compiled from `tu`, None when unknown)
    and write it, with the AMD code in place of the NVIDIA code, to `output`; `early` holds the
    translation made while nvcc ran, used when it read the same cubins."""
    code = early.result(host_obj) if early else None
    if code is None:
        from cass_cc.passes import units_from_file  # the passes' front end: binary route only
        code = code_for_tu(tu, units_from_file(host_obj, settings.offload_arch), settings, work, no_fallback)
    report = Report(source=tu.source if tu else host_obj, route="binary",
                    offload_arch=",".join(settings.offload_archs), kernels=code.kernels,
                    diagnostics=code.diagnostics + [f"recorded: {r}" for r in settings.recorded],
                    nvidia_targets=settings.nvidia_targets)
    code_objects = code.code_objects
    if settings.embed_reference:
        from .reference import reference_code_objects
        references, notes = reference_code_objects(tu, code.code_objects, settings, work)
        code_objects, report.diagnostics = code_objects + references, report.diagnostics + notes
    embed(host_obj, bundle(code_objects), output)
    report.write(settings.report_path)
    if not settings.no_warnings:
        sys.stderr.write("".join(f"cass-nvcc: warning: {w}\n" for w in code.fallback_warnings()))
    if tu is not None:
        _save_temps(tu, host_obj, code, settings, product_dir or os.path.dirname(os.path.abspath(output)))


def _save_temps(tu: TranslationUnit, host_obj: str, code: TranslatedTU, settings: Settings, product_dir: str) -> None:
    """--cass-save-temps/--keep: nvcc's object and, per kernel, its SASS, LLVM IR, RDNA3 assembly
    and code object, with the TU's code objects and report, in <stem>.cass/."""
    folders = ([product_dir] if settings.save_temps else []) + ([settings.keep_dir] if settings.keep_dir else [])
    if not folders:
        return
    from cass_cc.translate import write_outputs  # click: only when there is something to keep
    for folder in folders:
        out = os.path.join(folder, f"{tu.stem}.cass")
        write_outputs(code.units, out, tu.source, settings.offload_arch,
                      [c.data for c in code.code_objects if c.offload_arch == settings.offload_arch],
                      code.diagnostics)
        atomic_copy(host_obj, os.path.join(out, f"{tu.stem}.nvcc.o"))


NO_FALLBACK_OBJECT = "the object was made by nvcc: without its source there is no hipify fallback"


def _is_cudart(path: str) -> bool:
    name = os.path.basename(path)
    return any(name.startswith(f"lib{lib}.") for lib in CUDART_LIBRARIES)


def implicit_link_args(runtime_dir: str | None = None) -> list[str]:
    """What every link of this route names after the user's objects and libraries: libcassrt in
    place of cudart, found at run time through an rpath to the cache where it is built, and what
    it needs. `-v` prints them as nvcc's LIBRARIES; CMake finds the link line by them and adds
    them when C++ targets link objects cass-nvcc compiled, so the link must name them as printed."""
    runtime_dir = runtime_dir or str(cassrt.library_dir())
    return [f"-L{runtime_dir}", "-lcassrt", f"-Wl,-rpath,{runtime_dir}", "-lpthread", "-ldl", "-lrt"]


def implicit_include_dirs() -> list[str]:
    """The runtime headers every compile sees: CUDA's, next to the nvcc that compiles (`-v` prints
    them as nvcc's INCLUDES)."""
    from ..runtime.cassrt.build import cuda_include_dir
    return [cuda_include_dir()]


def link_command(inputs: list[str], output: str, settings: Settings, shared: bool, runtime_dir: str) -> list[str]:
    """The host linker's command line: the user's objects and libraries, then the route's
    implicit_link_args."""
    cmd = [host.host_compiler(settings, "c++")]
    cmd += (["-shared"] if shared else []) + (["-pg"] if settings.profile else [])
    cmd += ["-o", output]
    cmd += [i for i in inputs if not _is_cudart(i)]
    cmd += [f"-L{d}" for d in settings.library_dirs]
    cmd += [f"-l{lib}" for lib in settings.libraries if lib not in CUDART_LIBRARIES]
    cmd += [f"-Wl,{opt}" for opt in settings.linker_options] + settings.link_flags
    cmd += implicit_link_args(runtime_dir)
    if settings.verbose:
        # The host linker's own command line too: CMake reads from it the libraries that C++
        # targets need to link objects cass-nvcc compiled (libcassrt), as it reads g++'s when it
        # links nvcc's objects with g++ itself.
        cmd.append("-v")
    return cmd


def holds_nvidia_code(path: str) -> bool:
    """An object made by nvcc itself (its `.nv_fatbin` holds a fatbin, not cass-nvcc's bundle)."""
    try:
        with open(path, "rb") as f:
            elf = ELFFile(f)
            sec = elf.get_section_by_name(".nv_fatbin")
            return sec is not None and not sec.data().startswith(BUNDLE_MAGIC)
    except (OSError, ELFError):
        return False  # not an ELF object: the linker says what it is


def _archive_members(archive: str, folder: str) -> list[str]:
    """The members of a static library, extracted into `folder` (one subfolder each, in order,
    so members with the same name stay apart)."""
    ar = shutil.which("ar")
    if not ar:
        raise ToolMissing("no archiver (ar) found: apt-get install binutils")
    proc = subprocess.run([ar, "t", archive], capture_output=True, text=True)
    if proc.returncode != 0:
        raise CassError(f"cannot read the library '{archive}': {proc.stderr.strip()}")
    names = proc.stdout.splitlines()
    members = []
    for n, name in enumerate(names):
        sub = os.path.join(folder, str(n))
        os.makedirs(sub)
        instance = names[:n + 1].count(name)  # `ar xN k` takes the k-th member of that name
        subprocess.run([ar, "xN", str(instance), os.path.abspath(archive), name], cwd=sub, check=True,
                       capture_output=True)
        members.append(os.path.join(sub, name))
    return members


def _translate_archive(archive: str, output: str, settings: Settings, work: str) -> None:
    """A copy of a static library whose nvcc-made members carry translated code."""
    folder = tempfile.mkdtemp(prefix="members-", dir=work)
    members = _archive_members(archive, folder)
    for member in members:
        if holds_nvidia_code(member) and not device_link.relocatable_archs(member):
            _translate_object(member, member, None, settings, work, NO_FALLBACK_OBJECT)
    subprocess.run([shutil.which("ar") or "ar", "rcs", output, *members], check=True, capture_output=True)


def _nvidia_inputs(path: str) -> bool:
    """A link input whose device code nvcc made (an object, or a static library holding one);
    relocatable device code is the device link's."""
    if path.endswith(".o"):
        return holds_nvidia_code(path) and not device_link.relocatable_archs(path)
    if not path.endswith(".a"):
        return False
    with tempfile.TemporaryDirectory() as folder:
        return any(holds_nvidia_code(m) for m in _archive_members(path, folder))


def link_jobs(action: Link, settings: Settings, temp_dir: str) -> list[Job]:
    """Jobs that link host objects (cass-nvcc's, nvcc's and any others) into a program or shared
    library. Objects and static libraries that nvcc made carry NVIDIA code: their kernels are
    translated first (there is no source for a fallback); relocatable device code (-rdc) goes
    through nvcc's device link first (device_link.py). hipcc's -fgpu-rdc objects (made on the
    source route) are linked by the source route."""
    if any(hip_fatbin.has_relocatable_device_code(i) for i in action.inputs):
        from . import source_route
        return source_route.link_jobs(action, settings, temp_dir)
    runtime_dir = str(cassrt.library_dir())
    work = tempfile.mkdtemp(prefix="link-", dir=temp_dir)
    tmp_out = os.path.join(work, os.path.basename(action.output))
    jobs, inputs = [], []
    relocatable, archs = device_link.device_link_inputs(action.inputs, settings)
    if relocatable:
        linked = os.path.join(work, "cass-dlink.o")
        jobs += device_link.device_link_jobs(relocatable, archs, linked, settings, work, action.output)
        inputs.append(linked)
    for n, path in enumerate(action.inputs):
        if _nvidia_inputs(path):
            translated = os.path.join(work, f"{n}-{os.path.basename(path)}")
            step = _translate_archive if path.endswith(".a") else \
                lambda p, t, s, w: _translate_object(p, t, None, s, w, NO_FALLBACK_OBJECT)
            jobs.append(Job(["cass-cc", "translate", path, "--embed-into", translated],
                            lambda p=path, t=translated, f=step: f(p, t, settings, work), label="translate"))
            path = translated
        inputs.append(path)
    cmd = link_command(inputs, tmp_out, settings, action.shared, runtime_dir)
    return jobs + [Job(cmd, label="link"), place_job(tmp_out, action.output)]
