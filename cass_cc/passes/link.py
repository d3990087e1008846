"""link: the translation unit's stage that makes the code object (ld.lld): every kernel's object and
the globals object of their cubins (their device variables) linked into ONE code object with ONE
metadata note listing every kernel (loaders read the first note only). It is what the binary
route embeds and `cass-cc translate` writes; verify, after it, checks each kernel in it.

A translation-unit pass (cass_cc.pipeline): run_units(units) -> the code object they share. Each
kernel is linked once, here; a unit run through a pipeline alone is a translation unit of one."""

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
    """One code object holding every unit's object, plus the globals of their cubins."""
    objects = [u.obj for u in units if u.obj]
    if not objects:
        raise CassError("no translated kernel to link")
    for u in units:
        g = globals_object(u) if u.obj else None
        if g is not None and g not in objects:
            objects.append(g)
    if len(objects) == 1:
        # One kernel and no device variables: its object's metadata note already lists the
        # translation unit's one kernel, nothing to merge.
        return link(objects)
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


def run_units(units: list[KernelUnit]) -> bytes:
    try:
        return link_translation_unit(units)
    except ToolMissing:  # the install hint, never a refusal to fall back from
        raise
    except CassError as e:
        raise ToolVerdict(e.message) from None
