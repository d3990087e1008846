"""The device link of relocatable device code (-rdc=true, -dc) on the binary route.

`nvcc -rdc=true -c x.cu` leaves a *relocatable* cubin in x.o's `__nv_relfatbin`, and x.o's host code
registers through `__cudaRegisterLinkedBinary_<id>`, which only a device link defines. As nvcc's
own link step does, cass-nvcc runs the device link at the program's link: the real
`nvcc -dlink` links the cubins of every -rdc object (and of the static libraries' members) into
one executable cubin inside a new host object, dlink.o, whose host stub registers that one fatbin
with __cudaRegisterFatBinary and then runs every translation unit's registration. The linked
cubin's kernels (with the device functions they call, now in their own sections) are translated
like any nvcc object's, and dlink.o's `.nv_fatbin` becomes the bundle of their code objects; the
-rdc objects go to the host linker unchanged (nothing loads their own device code).

A device-link object made by an explicit `nvcc -dlink` step and given to the link stands for
that step: no second device link runs.
"""

from __future__ import annotations

import os
import tempfile

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from .. import toolchain
from ..errors import CassError
from ..report import Report
from .frontend import place_job
from .jobs import Job
from .plan import Compile
from .settings import Settings

REGISTER_LINKED = "__cudaRegisterLinkedBinary_"
RELOCATABLE_FATBIN = "__nv_relfatbin"
# nvlink links the cubins of one architecture; cass-nvcc compiles for sm_80 (binary.SASS_TARGET).
ARCH_PREFERENCE = ("sm_80", "sm_86", "sm_89", "sm_90")
DEFERRED = "relocatable device code: the kernels are translated at the device link, when the program is linked"
NO_FALLBACK = ("relocatable device code is translated after nvcc's device link, where no source "
               "is left for a hipify fallback (--cass-route=source builds it with hipcc)")


def relocatable_archs(path: str) -> set[str]:
    """SASS architectures of the relocatable cubins in an object nvcc compiled with -rdc=true
    (they sit in its `__nv_relfatbin` section); empty for any other file."""
    from ..fatbin import read_cubins

    try:
        with open(path, "rb") as f:
            if ELFFile(f).get_section_by_name(RELOCATABLE_FATBIN) is None:
                return set()
        return {c.arch for c in read_cubins(path) if c.relocatable}
    except (OSError, ELFError):
        return set()   # not an ELF object: the linker says what it is
    except CassError as e:
        raise CassError(f"'{path}': damaged relocatable device code: {e.message}") from None


def defines_linked_registration(path: str) -> bool:
    """Whether an object is a device-link product (it defines __cudaRegisterLinkedBinary_*)."""
    try:
        with open(path, "rb") as f:
            symtab = ELFFile(f).get_section_by_name(".symtab")
            return symtab is not None and any(
                s.name.startswith(REGISTER_LINKED) and s["st_shndx"] != "SHN_UNDEF" for s in symtab.iter_symbols())
    except (OSError, ELFError):
        return False


def static_library(name: str, settings: Settings) -> str | None:
    """Where `-l<name>` finds a static library in the -L folders (the device link reads only those)."""
    for folder in settings.library_dirs:
        path = os.path.join(folder, f"lib{name}.a")
        if os.path.isfile(path):
            return path
    return None


def archive_archs(path: str) -> set[str]:
    """relocatable_archs over the members of a static library."""
    from .binary import _archive_members

    with tempfile.TemporaryDirectory() as folder:
        return {a for m in _archive_members(path, folder) for a in relocatable_archs(m)}


def device_link_inputs(inputs: list[str], settings: Settings) -> tuple[list[str], set[str]]:
    """The link inputs (objects, static libraries, -l libraries found in -L folders) that hold
    relocatable device code, and their SASS architectures; nothing when an input is already a
    device-link product."""
    found, archs = [], set()
    candidates = list(inputs) + [p for lib in settings.libraries if (p := static_library(lib, settings))]
    for path in candidates:
        if path.endswith(".o") and defines_linked_registration(path):
            return [], set()
        have = archive_archs(path) if path.endswith(".a") else relocatable_archs(path) if path.endswith(".o") else set()
        if have:
            found.append(path)
            archs |= have
    return found, archs


def device_link_command(inputs: list[str], output: str, arch: str, settings: Settings) -> list[str]:
    """nvcc's device link; its host stub is compiled with the user's host options (-fPIC for a
    shared library) and host compiler, as nvcc's own link step does."""
    cmd = [toolchain.path("nvcc"), "-dlink", f"-arch={arch}", *inputs, "-o", output]
    if settings.host_options:
        cmd.append("-Xcompiler=" + ",".join(settings.host_options))
    if settings.ccbin:
        cmd.append(f"-ccbin={settings.ccbin}")
    return cmd


def pick_arch(archs: set[str]) -> str:
    for arch in ARCH_PREFERENCE:
        if arch in archs:
            return arch
    raise CassError(f"relocatable device code for {', '.join(sorted(archs))} only: the binary route "
                    f"translates SASS for {', '.join(ARCH_PREFERENCE)} (rebuild with -arch=sm_80)")


def device_link_jobs(inputs: list[str], archs: set[str], output: str, settings: Settings, work: str,
                     program: str) -> list[Job]:
    """nvcc's device link of `inputs` into a host object, then its kernels translated and the
    object written to `output` with the AMD code in place of the linked cubin; the report is
    named after `program`, the link's product."""
    from .binary import _translate_object as translate_object

    nvcc_out = os.path.join(work, f"{os.path.basename(program)}.dlink.o")
    arch = pick_arch(archs)
    dlink = Job(device_link_command(inputs, nvcc_out, arch, settings), label="nvcc-dlink")
    translate = Job(["cass-cc", "translate", nvcc_out, "--cass-offload-arch=" + ",".join(settings.offload_archs),
                     "--embed-into", output],
                    lambda: translate_object(nvcc_out, output, None, settings, work, NO_FALLBACK),
                    label="translate")
    return [dlink, translate]


def compile_jobs(action: Compile, settings: Settings, temp_dir: str) -> list[Job]:
    """-rdc=true/-dc on the binary route: nvcc's object as it is (its relocatable cubin waits for
    the device link); the report says so."""
    from .binary import nvcc_command

    work = tempfile.mkdtemp(prefix=f"binary-{action.tu.stem}-", dir=temp_dir)
    host_obj = os.path.join(work, "nvcc.o")
    nvcc = Job(nvcc_command(action.tu.source, action.tu.language, host_obj, settings, action.deps_file,
                            action.deps_targets), label="nvcc")
    jobs = [nvcc, place_job(host_obj, action.output)]
    if action.tu.language == "cu":
        report = Report(source=action.tu.source, route="binary", offload_arch=",".join(settings.offload_archs),
                        diagnostics=[DEFERRED] + [f"recorded: {r}" for r in settings.recorded],
                        nvidia_targets=settings.nvidia_targets)
        jobs.append(Job(["cass-cc", "report", action.tu.source], lambda: report.write(settings.report_path),
                        label="report"))
    return jobs


def explicit_jobs(inputs: list[str], output: str, settings: Settings, temp_dir: str) -> list[Job]:
    """`cass-nvcc -dlink a.o b.o -o dlink.o`: the device link as a step of its own, its product a
    host object with the translated kernels that the program's link takes with a.o and b.o."""
    relocatable, archs = device_link_inputs(inputs, settings)
    if not relocatable:
        raise CassError("-dlink: no input holds relocatable device code (compile with -rdc=true or -dc)")
    work = tempfile.mkdtemp(prefix="dlink-", dir=temp_dir)
    tmp_out = os.path.join(work, os.path.basename(output))
    return device_link_jobs(relocatable, archs, tmp_out, settings, work, output) + [place_job(tmp_out, output)]
