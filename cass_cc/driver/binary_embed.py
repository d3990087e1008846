"""Putting AMD code into nvcc's host objects: the code objects of a translation unit become a
clang offload bundle, and the bundle replaces the content of the object's `.nv_fatbin` section.

The fatbin wrapper that nvcc's host code hands __cudaRegisterFatBinary points at the start of
`.nv_fatbin` (one relocation, offset 0), so after the swap libcassrt finds the bundle there and
loads the code objects for the device's processor.

Entries, in order: the (empty) host entry; "hip" (code object v5: the translated kernels);
"hipv4" (hipcc's code object v4: the hipify fallback, when a kernel needed it); and, with
--cass-embed-reference, REFERENCE_KIND ("cassref"): hipcc's build of the whole translation unit,
which libcassrt never runs as the program's code; it hands it to the emulated runtime, whose
`cass-run --check` runs it beside each translated kernel (driver/reference.py builds it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..errors import CassError, ToolMissing
from ..fsutil import atomic_copy
from ..rdna3.bundle import ALIGNMENT, HOST_ID, MAGIC as BUNDLE_MAGIC, device_id, write_bundle

FATBIN_SECTION = ".nv_fatbin"
REFERENCE_KIND = "cassref"


@dataclass(frozen=True)
class BundledCode:
    """One gfx code object for the bundle. `kind` is the bundle entry kind: "hip" for code object
    v5 (translated kernels), "hipv4" for v4 (hipcc 5.2's, the fallback), REFERENCE_KIND for the
    reference of cass-run --check."""
    kind: str
    offload_arch: str
    data: bytes

    @property
    def bundle_id(self) -> str:
        return device_id(self.offload_arch, self.kind)


def bundle(code_objects: list[BundledCode]) -> bytes:
    """A clang offload bundle with an empty host entry first, then the code objects in the given
    order: libcassrt looks kernels up in that order."""
    ids = [HOST_ID] + [c.bundle_id for c in code_objects]
    if len(set(ids)) != len(ids):
        raise CassError("two code objects for one bundle entry: " + ", ".join(ids))
    return write_bundle([(HOST_ID, b"")] + [(c.bundle_id, c.data) for c in code_objects])


def fatbin_section(path: str) -> bytes:
    """The `.nv_fatbin` content of a host object (CassError if it has none or is not ELF)."""
    try:
        with open(path, "rb") as f:
            sec = ELFFile(f).get_section_by_name(FATBIN_SECTION)
            if sec is None:
                raise CassError(f"'{path}' has no {FATBIN_SECTION} section: it holds no CUDA device code")
            return sec.data()
    except (ELFError, OSError) as e:
        raise CassError(f"cannot read '{path}' as an ELF object: {e}") from None


def _objcopy() -> str:
    """GNU objcopy, which comes with the host toolchain that links the program. (llvm-objcopy 22
    breaks the section index of symbols in some of gcc's objects when it resizes a section.)"""
    path = shutil.which("objcopy")
    if not path:
        raise ToolMissing("objcopy not found: apt-get install binutils")
    return path


def embed(host_object: str, bundle_bytes: bytes, output: str) -> None:
    """Write `host_object` with its `.nv_fatbin` content replaced by `bundle_bytes` to `output`
    (atomically)."""
    work = tempfile.mkdtemp(prefix="cass-embed-")
    try:
        blob = os.path.join(work, "bundle.bin")
        with open(blob, "wb") as f:
            f.write(bundle_bytes)
        rewritten = os.path.join(work, "out.o")
        cmd = [_objcopy(), f"--update-section={FATBIN_SECTION}={blob}",
               f"--set-section-alignment={FATBIN_SECTION}={ALIGNMENT}", host_object, rewritten]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise CassError(f"cannot embed AMD code into '{host_object}': {proc.stderr.strip()}")
        atomic_copy(rewritten, output)
    finally:
        shutil.rmtree(work, ignore_errors=True)
