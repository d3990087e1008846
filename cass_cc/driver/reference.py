"""`--cass-embed-reference`: an independently built code object of the translation unit, the
reference that `cass-run --check` runs next to every launch of a translated kernel.

Independent means another compiler from the same source: the TU hipified and compiled by hipcc,
as the source route (and the hipify fallback) build it. The reference travels in the TU's
offload bundle as an entry of kind REFERENCE_KIND (binary_embed.py), which libcassrt never loads
as code; it hands the entry to the emulated runtime only (cass_cc/runtime/emulated/check.py).
"""

from __future__ import annotations

import sys

from ..errors import CassError
from . import source_route
from .binary_embed import REFERENCE_KIND, BundledCode
from .hip_compilers import missing_reason
from .plan import TranslationUnit
from .settings import Settings

PROG = "cass-nvcc"


def reference_code_objects(tu: TranslationUnit | None, code_objects: list[BundledCode], settings: Settings,
                           work: str) -> tuple[list[BundledCode], list[str]]:
    """(the reference entries for the bundle, diagnostics). A TU whose hipify fallback already
    ran reuses that code object (the same compile); a reference that cannot be built is a
    warning, printed now, and its kernels are reported 'unchecked: no reference' by cass-run."""
    if tu is None:
        note = ("no reference for cass-run --check: an object nvcc compiled has no source to build one "
                "from; its kernels will run unchecked")
        sys.stderr.write(f"{PROG}: warning: {note}\n")
        return [], [note]
    from .binary_kernels import hipify_code_object  # hipify and hipcc: only when asked for
    refs, notes = [], []
    for arch in settings.offload_archs:
        fallback = next((c for c in code_objects if c.offload_arch == arch and c.kind == "hipv4"), None)
        if fallback is not None:
            refs.append(BundledCode(REFERENCE_KIND, arch, fallback.data))
            continue
        try:
            source_route.warp_check(tu, [arch])
        except CassError as e:     # HIP's legacy warp functions span a wave64: no warp-exact reference
            built, why = None, e.message.splitlines()[0]
        else:
            why = missing_reason(arch)
            built = None if why else hipify_code_object(tu, settings, work, arch)
        if built is not None and built.code_object:
            refs.append(BundledCode(REFERENCE_KIND, arch, built.code_object))
            continue
        if built is not None:
            why = f"hipify + hipcc failed: {built.error}"
        note = (f"{tu.source}: no reference for cass-run --check ({arch}): {why}; its kernels will run unchecked")
        notes.append(note)
        sys.stderr.write(f"{PROG}: warning: {note}\n")
    return refs, notes
