"""The binary route's compile step: nvcc compiles the translation unit (x86 host code, SASS for
sm_80 and PTX) and the kernels' SASS is translated to the offload arch, then embedded in nvcc's
object in place of the NVIDIA code (object_translation, `cass-cc translate-object`).

The translation does not wait for nvcc to finish. It needs only the cubin, which ptxas writes well
before nvcc's last step (the host compiler on the .cudafe1.cpp, a fifth of nvcc's time or more):
nvcc keeps its intermediate files in a private folder (-keep), and as soon as the cubin there is
complete a thread translates its kernels while the host compiler runs. That work is used only if
the cubins it read are the ones nvcc embedded in the object; otherwise (or when the cubin never
showed up) the translation runs from the object afterwards, as it would without this.

Before that, while nvcc's front end runs (most of its time, on one core), another thread imports
what the rest of the compile needs, so nvcc starts as soon as the command line is read (this
module imports little), and, when the translation is likely to miss the cache, also the passes
(llvmlite, lark), builds the SASS parser and sets up LLVM's AMDGPU target. Likely means: the
translation cache has no record of a build of this source, as it is now, with these options; a
warm rebuild imports no pass.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import CassError
from .jobs import Job, run_tool
from .plan import Compile, TranslationUnit
from .settings import Settings
from .nvcc_command import nvcc_command
from .object_translation import fallback_refusal, translate_job

if TYPE_CHECKING:
    from .binary_kernels import TranslatedTU

def compile_jobs(action: Compile, settings: Settings, temp_dir: str) -> list[Job]:
    """Jobs that compile one translation unit into an object with AMD code inside: nvcc, then
    `cass-cc translate-object` on its object (object_translation). Kernels the translators refuse
    come from the hipify fallback unless --cass-route=binary was asked for; relocatable device
    code (-rdc) stays in the object for the device link."""
    work = tempfile.mkdtemp(prefix=f"binary-{action.tu.stem}-", dir=temp_dir)
    host_obj = os.path.join(work, "nvcc.o")
    argv = nvcc_command(action.tu.source, action.tu.language, host_obj, settings, action.deps_file,
                        action.deps_targets)
    if action.tu.language != "cu":
        from .frontend import place_job
        return [nvcc_job(argv, None), place_job(host_obj, action.output)]

    early = None
    if not settings.dump_after and not settings.rdc:  # dumps come out in the order of the build's steps
        keep = os.path.join(work, "nvcc-keep")
        os.mkdir(keep)
        argv += ["-keep", f"-keep-dir={keep}"]
        early = EarlyTranslation(keep, action.tu, settings, work, fallback_refusal(settings, action.tu, False))
    return [nvcc_job(argv, early),
            translate_job(host_obj, action.output, settings, action.tu, action.product_dir, early)]


class EarlyTranslation:
    """The kernels of the cubins that nvcc leaves in `keep`, translated on a thread."""

    def __init__(self, keep: str, tu: TranslationUnit, settings: Settings, work: str, no_fallback: str | None):
        self.keep, self.tu, self.settings, self.work, self.no_fallback = keep, tu, settings, work, no_fallback
        self.cubins: list[bytes] = []
        self.code: TranslatedTU | None = None
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None
        self.preparing: threading.Thread | None = None
        self.source_key = ""

    def start(self, argv: list[str]) -> None:
        """nvcc is about to run `argv`: get ready for the translation on another thread."""
        self.preparing = threading.Thread(target=self._prepare, args=(argv,), name="prepare", daemon=True)
        self.preparing.start()

    def _prepare(self, argv: list[str]) -> None:
        try:
            from . import binary_embed, binary_kernels, nvidia_objects  # noqa: F401 -- the translate step's
            from cass_cc.cache import TranslationCache

            st = os.stat(self.tu.source)
            h = hashlib.sha256(repr((os.path.abspath(self.tu.source), st.st_mtime_ns, st.st_size)).encode())
            h.update(repr([a for a in argv if self.work not in a]).encode())  # not the build's own folders
            self.source_key = h.hexdigest()
            if not TranslationCache().built_before(self.source_key):
                from cass_cc.passes import LIFT_PIPELINE, parse  # noqa: F401 -- imports every pass
                from cass_cc.rdna3.target import emit_assembly
                parse.prepare()
                emit_assembly("", self.settings.offload_arch)  # LLVM's AMDGPU target set up, arch checked
        except Exception:  # noqa: BLE001 -- the translation meets the problem again and reports it
            pass

    def poll(self) -> None:
        """Start the thread once ptxas is done: fatbinary, the step after it, has begun writing."""
        if self.thread is None and any(name.endswith(".fatbin.c") for name in os.listdir(self.keep)):
            self.thread = threading.Thread(target=self._translate, name="early-translation", daemon=True)
            self.thread.start()

    def _translate(self) -> None:
        if self.preparing is not None:
            self.preparing.join()
        try:
            from cass_cc.passes import units_from_file  # the passes' front end: binary route only
            from .binary_kernels import code_for_tu

            paths = sorted(os.path.join(self.keep, n) for n in os.listdir(self.keep) if n.endswith(".cubin"))
            self.cubins = [Path(p).read_bytes() for p in paths]
            units = [u for p in paths for u in units_from_file(p, self.settings.offload_arch)]
            self.code = code_for_tu(self.tu, units, self.settings, self.work, self.no_fallback)
        except BaseException as e:  # noqa: BLE001 -- handed to the translate job, which decides
            self.error = e

    def wait(self) -> None:
        for thread in (self.preparing, self.thread):
            if thread is not None:
                thread.join()

    def result(self, host_obj: str) -> TranslatedTU | None:
        """The thread's translation when it read exactly the cubins embedded in `host_obj` (its
        error, raised, when that translation failed); None when there is nothing to use."""
        self.wait()
        if self.thread is None or not self.cubins:
            return None
        from ..fatbin import read_fatbins
        embedded = [entry.payload() for fb in read_fatbins(host_obj) for entry in fb.cubins()]
        if sorted(embedded) != sorted(self.cubins):
            return None
        if self.error is not None:
            raise self.error
        if self.source_key:
            from cass_cc.cache import TranslationCache
            TranslationCache().remember_build(self.source_key)
        return self.code


def nvcc_job(argv: list[str], early: EarlyTranslation | None) -> Job:
    """nvcc as a job that starts `early` as soon as it can; a failed nvcc waits for the threads
    before its error ends the build (they write in the build's temporary folder; an interrupted
    build does not wait)."""
    job = Job(argv, label="nvcc")
    if early is None:
        return job

    def action() -> None:
        early.start(job.argv)
        try:
            run_tool(job, while_running=early.poll)
        except CassError:
            early.wait()
            raise
    job.action = action
    return job
