"""extract: a file's kernels as KernelUnits (host objects, executables, shared libraries,
.fatbin and .cubin files), and the per-kernel check that its SASS architecture is supported."""

from __future__ import annotations

from cass_cc.demangle import demangle_all
from cass_cc.errors import CassError, UnsupportedFeature
from cass_cc.fatbin import SUPPORTED_ARCHS, Cubin, read_cubins, read_fatbins
from cass_cc.unit import KernelUnit

NAME = "extract"


def pick_cubins(cubins: list[Cubin], source: str) -> list[Cubin]:
    """The cubins of one architecture (the preferred one present); none for a file without device
    code; an error when the device code has no SASS we support."""
    archs = {c.arch for c in cubins}
    for arch in SUPPORTED_ARCHS:   # in order of preference
        if arch in archs:
            return [c for c in cubins if c.arch == arch]
    if not cubins:
        if not source.endswith(".cubin") and any(fb.ptx() for fb in read_fatbins(source)):
            raise CassError(f"'{source}': only PTX, no SASS (build with -arch=sm_80)")
        return []
    raise CassError(f"'{source}': SASS for {', '.join(sorted(archs))} is not supported "
                    f"(supported: {', '.join(SUPPORTED_ARCHS)}); rebuild with -arch=sm_80")


def units_from_file(path: str, offload_arch: str = "gfx1100") -> list[KernelUnit]:
    """Every kernel of `path`, one KernelUnit each (kernel = the CubinKernel, with .cubin)."""
    return units_from_cubins(pick_cubins(read_cubins(path), path), offload_arch)


def units_from_cubins(cubins: list[Cubin], offload_arch: str = "gfx1100") -> list[KernelUnit]:
    """Every kernel of `cubins` (parsed already: from a file, or an image in memory), one
    KernelUnit each, demangled."""
    units = []
    for cubin in cubins:
        for k in cubin.kernels:
            units.append(KernelUnit(name=k.name, sm_arch=cubin.arch, offload_arch=offload_arch, kernel=k))
    names = demangle_all(u.name for u in units)
    for u in units:
        u.demangled = names[u.name]
    return units


def run(unit: KernelUnit) -> KernelUnit:
    if unit.kernel is None:
        raise UnsupportedFeature("no kernel extracted for this unit")
    if unit.sm_arch not in SUPPORTED_ARCHS:
        raise UnsupportedFeature(f"SASS for {unit.sm_arch} is not supported (supported: {', '.join(SUPPORTED_ARCHS)})")
    if getattr(getattr(unit.kernel, "cubin", None), "relocatable", False):
        raise UnsupportedFeature("relocatable device code (-rdc): its kernels are translated after the device link "
                      "(nvcc -dlink, or cass-nvcc's link step)")
    return unit
