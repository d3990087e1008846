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

from .. import toolchain
from ..errors import CassError
from ..fatbin import SUPPORTED_ARCHS
from .frontend import place_job
from .jobs import Job
from .nvidia_objects import DeviceCode, file_code
from .settings import Settings
from .object_translation import translate_job

def static_library(name: str, settings: Settings) -> str | None:
    """Where `-l<name>` finds a static library in the -L folders (the device link reads only those)."""
    for folder in settings.library_dirs:
        path = os.path.join(folder, f"lib{name}.a")
        if os.path.isfile(path):
            return path
    return None


def device_link_inputs(inputs: list[str], settings: Settings,
                       known: dict[str, list[DeviceCode]]) -> tuple[list[str], set[str]]:
    """The link inputs (objects, static libraries, -l libraries found in -L folders) that hold
    relocatable device code, and their SASS architectures; nothing when an input is already a
    device-link product. `known` gives the device code of inputs by path (what this build's own
    compiles will make, and inputs already read); the others are read now and added to it."""
    found, archs = [], set()
    candidates = list(inputs) + [p for lib in settings.libraries if (p := static_library(lib, settings))]
    for path in candidates:
        if path not in known:
            known[path] = file_code(path)
        objects = known[path]
        if any(o.device_link_product for o in objects) and not path.endswith(".a"):
            return [], set()
        have = {a for o in objects for a in o.relocatable_archs}
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
    """The architecture whose cubins nvlink links (one per device link): sm_80, what cass-nvcc
    compiles for, first."""
    for arch in SUPPORTED_ARCHS:
        if arch in archs:
            return arch
    raise CassError(f"relocatable device code for {', '.join(sorted(archs))} only: the binary route "
                    f"translates SASS for {', '.join(SUPPORTED_ARCHS)} (rebuild with -arch=sm_80)")


def device_link_jobs(inputs: list[str], archs: set[str], output: str, settings: Settings, work: str,
                     program: str) -> list[Job]:
    """nvcc's device link of `inputs` into a host object, then its kernels translated and the
    object written to `output` with the AMD code in place of the linked cubin."""
    nvcc_out = os.path.join(work, f"{os.path.basename(program)}.dlink.o")
    dlink = Job(device_link_command(inputs, nvcc_out, pick_arch(archs), settings), label="nvcc-dlink")
    return [dlink, translate_job(nvcc_out, output, settings)]


def explicit_jobs(inputs: list[str], output: str, settings: Settings, temp_dir: str) -> list[Job]:
    """`cass-nvcc -dlink a.o b.o -o dlink.o`: the device link as a step of its own, its product a
    host object with the translated kernels that the program's link takes with a.o and b.o."""
    relocatable, archs = device_link_inputs(inputs, settings, {})
    if not relocatable:
        raise CassError("-dlink: no input holds relocatable device code (compile with -rdc=true or -dc)")
    work = tempfile.mkdtemp(prefix="dlink-", dir=temp_dir)
    tmp_out = os.path.join(work, os.path.basename(output))
    return device_link_jobs(relocatable, archs, tmp_out, settings, work, output) + [place_job(tmp_out, output)]
