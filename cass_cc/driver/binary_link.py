"""The binary route's link step: objects cass-nvcc compiled (their AMD code inside), objects and
static libraries that nvcc made (their kernels translated first: `cass-cc translate-object`),
relocatable device code through nvcc's device link first (device_link.py), all linked by the host
linker against libcassrt, the CUDA runtime implemented on HIP, in place of cudart.
"""

from __future__ import annotations

import os
import re
import tempfile

from ..runtime import cassrt, cudalibs
from . import hip_fatbin, host
from .device_link import device_link_inputs, device_link_jobs
from .frontend import place_job
from .jobs import Job
from .nvidia_objects import DeviceCode, file_code
from .plan import Link
from .settings import Settings
from .object_translation import translate_job

# Runtime libraries a CUDA build names; libcassrt takes their place.
CUDART_LIBRARIES = ("cudart", "cudart_static", "cudadevrt")
# The device code of the objects a build's own compile makes on this route.
BUILT = DeviceCode()
BUILT_RELOCATABLE = DeviceCode(relocatable_archs=frozenset({"sm_80"}))   # nvcc_command.SASS_TARGET


def _is_cudart(path: str) -> bool:
    name = os.path.basename(path)
    return any(name.startswith(f"lib{lib}.") for lib in CUDART_LIBRARIES)


def _library_args(lib: str) -> list[str]:
    """What `-l<lib>` becomes: cuBLAS and cuRAND (shared or static) are cass-cc's own libraries,
    found at run time through an rpath to the cache where they are built; NVIDIA's would not run."""
    found = cudalibs.link_name(lib)
    if found is None:
        return [f"-l{lib}"]
    folder = str(cudalibs.library_dir())
    return [f"-L{folder}", f"-l{found.name}", f"-Wl,-rpath,{folder}"]


def _input_args(path: str) -> list[str]:
    """An input as linked: NVIDIA's cuBLAS or cuRAND named by path (CMake's CUDA::cublas names the
    toolkit's file) is replaced by cass-cc's, as -l<name> is."""
    match = re.fullmatch(r"lib(\w+?)\.(?:so(?:\.[\d.]+)?|a)", os.path.basename(path))
    if match and cudalibs.link_name(match.group(1)):
        return _library_args(match.group(1))
    return [path]


def implicit_link_args(runtime_dir: str | None = None) -> list[str]:
    """What every link of this route names after the user's objects and libraries: libcassrt in
    place of cudart, found at run time through an rpath to the cache where it is built, and what
    it needs. `-v` prints them as nvcc's LIBRARIES; CMake finds the link line by them and adds
    them when C++ targets link objects cass-nvcc compiled, so the link must name them as printed."""
    runtime_dir = runtime_dir or str(cassrt.library_dir())
    return [f"-L{runtime_dir}", "-lcassrt", f"-Wl,-rpath,{runtime_dir}", "-lpthread", "-ldl", "-lrt"]


def implicit_include_dirs() -> list[str]:
    """The runtime headers every compile sees: CUDA's, next to the nvcc that compiles, and cuBLAS's
    and cuRAND's (`-v` prints them as nvcc's INCLUDES)."""
    from ..runtime.cassrt.build import cuda_include_dir
    return list(dict.fromkeys([cuda_include_dir(), *cudalibs.header_dirs()]))


def link_command(inputs: list[str], output: str, settings: Settings, shared: bool, runtime_dir: str) -> list[str]:
    """The host linker's command line: the user's objects and libraries, then the route's
    implicit_link_args."""
    cmd = [host.host_compiler(settings, "c++")]
    cmd += (["-shared"] if shared else []) + (["-pg"] if settings.profile else [])
    cmd += settings.host_link_options + ["-o", output]
    cmd += [a for i in inputs if not _is_cudart(i) for a in _input_args(i)]
    cmd += [f"-L{d}" for d in settings.library_dirs]
    cmd += [a for lib in settings.libraries if lib not in CUDART_LIBRARIES for a in _library_args(lib)]
    cmd += [f"-Wl,{opt}" for opt in settings.linker_options] + settings.link_flags
    cmd += implicit_link_args(runtime_dir)
    if settings.verbose:
        # The host linker's own command line too: CMake reads from it the libraries that C++
        # targets need to link objects cass-nvcc compiled (libcassrt), as it reads g++'s when it
        # links nvcc's objects with g++ itself.
        cmd.append("-v")
    return cmd


def link_jobs(action: Link, settings: Settings, temp_dir: str) -> list[Job]:
    """Jobs that link host objects (cass-nvcc's, nvcc's and any others) into a program or shared
    library. What each input holds is known from the build (its own compiles) or read once from
    the file: nvcc's objects and static libraries get their kernels translated first (there is no
    source for a fallback); relocatable device code (-rdc) goes through nvcc's device link first.
    hipcc's -fgpu-rdc objects (made on the source route) are linked by the source route."""
    if any(hip_fatbin.has_relocatable_device_code(i) for i in action.inputs if i not in action.built):
        from . import source_route
        return source_route.link_jobs(action, settings, temp_dir)
    known = {path: [BUILT_RELOCATABLE if settings.rdc else BUILT] for path in action.built}
    for path in action.inputs:
        if path not in known:
            known[path] = file_code(path)
    work = tempfile.mkdtemp(prefix="link-", dir=temp_dir)
    tmp_out = os.path.join(work, os.path.basename(action.output))
    jobs, inputs = [], []
    relocatable, archs = device_link_inputs(action.inputs, settings, known)
    if relocatable:
        linked = os.path.join(work, "cass-dlink.o")
        jobs += device_link_jobs(relocatable, archs, linked, settings, work, action.output)
        inputs.append(linked)
    for n, path in enumerate(action.inputs):
        if any(o.nvidia for o in known.get(path, [])):
            translated = os.path.join(work, f"{n}-{os.path.basename(path)}")
            jobs.append(translate_job(path, translated, settings))
            path = translated
        inputs.append(path)
    cmd = link_command(inputs, tmp_out, settings, action.shared, str(cassrt.library_dir()))
    return jobs + [Job(cmd, label="link"), place_job(tmp_out, action.output)]
