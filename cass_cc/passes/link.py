"""link: the kernel's object + its translation unit's globals object -> unit.code_object (ld.lld).

`link_translation_unit(units)` links all kernels of one translation unit into ONE code object
with ONE metadata note listing them all (loaders read the first note only), as the binary route
embeds it and `cass-cc translate` writes it."""

from __future__ import annotations

import functools
import hashlib
import shutil
import tempfile

from cass_cc.errors import CassError, ToolMissing, ToolVerdict
from cass_cc.rdna3 import metadata
from cass_cc.rdna3.code_object import CodeObject
from cass_cc.rdna3.globals import globals_module
from cass_cc.rdna3.notes import note_object, without_notes
from cass_cc.rdna3.target import emit_assembly
from cass_cc.rdna3.tools import assemble, link
from cass_cc.unit import KernelUnit

NAME = "link"


def globals_object(unit: KernelUnit) -> bytes | None:
    """The object defining the device variables of the unit's cubin (None when it has none)."""
    cubin = getattr(unit.kernel, "cubin", None)
    variables = list(cubin.globals) if cubin is not None else []
    if not variables:
        return None
    text = globals_module(variables)
    return _globals_object(hashlib.sha256(text.encode()).hexdigest(), text, unit.offload_arch)


@functools.lru_cache(maxsize=32)
def _globals_object(_digest: str, text: str, offload_arch: str) -> bytes:
    return assemble(emit_assembly(text, offload_arch), offload_arch)


def link_translation_unit(units: list[KernelUnit]) -> bytes:
    """One code object holding every unit that has an object, plus the globals of their cubins."""
    objects = [u.obj for u in units if u.obj]
    if not objects:
        raise CassError("no translated kernel to link")
    alone = [u for u in units if u.obj]
    if len(alone) == 1 and alone[0].code_object and globals_object(alone[0]) is None:
        # One kernel and no device variables: the kernel's own code object (the link pass's, one
        # metadata note) is what linking it again would make, less an ld.lld and an llvm-mc run.
        return alone[0].code_object
    for u in units:
        g = globals_object(u) if u.obj else None
        if g is not None and g not in objects:
            objects.append(g)
    work = tempfile.mkdtemp(prefix="cass-tu-link-")
    try:
        stripped, maps = [], []
        for n, obj in enumerate(objects):
            read = CodeObject(obj, "kernel object")
            maps += read.notes
            stripped.append(without_notes(obj, read.note_sections, work, n) if read.note_sections else obj)
        if not maps:
            raise CassError("the translated kernels carry no AMDGPU metadata")
        note = metadata.encode(metadata.merged(maps))
        return link(stripped + [note_object(note, units[0].offload_arch, objects[0])])
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(unit: KernelUnit) -> KernelUnit:
    objects = [unit.obj]
    g = globals_object(unit)
    if g is not None:
        objects.append(g)
    try:
        unit.code_object = link(objects)
    except ToolMissing:  # the install hint, never a refusal to fall back from
        raise
    except CassError as e:
        raise ToolVerdict(e.message) from None
    return unit
