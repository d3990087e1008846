"""Translation that starts while nvcc is still compiling: the binary route needs only the cubin,
which ptxas writes well before nvcc's last step (the host compiler on the .cudafe1.cpp, a fifth of
nvcc's time or more). nvcc keeps its intermediate files in a private folder (-keep); as soon as
the cubin there is complete, a thread translates its kernels while the host compiler runs.

The thread's work is used only if the cubins it read are the ones nvcc embedded in the object;
otherwise (or when the cubin never showed up) the translation runs from the object afterwards,
as it would without this.

Before that, while nvcc's front end runs (most of its time, on one core), a translation that is
likely to miss the cache gets its slow preparations out of the way on another thread: importing
the passes (llvmlite, lark) and building the SASS parser. Likely means: the translation cache has
no record of a build of this source, as it is now, with these options. A warm rebuild does neither.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from ..errors import CassError
from ..fatbin import read_fatbins
from .binary_kernels import TranslatedTU, code_for_tu
from .jobs import Job, run_tool
from .plan import TranslationUnit
from .settings import Settings


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
        """nvcc is about to run `argv`: prepare for a cold translation when one is likely."""
        from cass_cc.cache import TranslationCache

        try:
            st = os.stat(self.tu.source)
        except OSError:
            return  # nvcc reports it
        h = hashlib.sha256(repr((os.path.abspath(self.tu.source), st.st_mtime_ns, st.st_size)).encode())
        h.update(repr([a for a in argv if self.work not in a]).encode())  # not the build's own folders
        self.source_key = h.hexdigest()
        if not TranslationCache().built_before(self.source_key):
            self.preparing = threading.Thread(target=_prepare_passes, name="prepare-passes", daemon=True)
            self.preparing.start()

    def poll(self) -> None:
        """Start the thread once ptxas is done: fatbinary, the step after it, has begun writing."""
        if self.thread is None and any(name.endswith(".fatbin.c") for name in os.listdir(self.keep)):
            self.thread = threading.Thread(target=self._translate, name="early-translation", daemon=True)
            self.thread.start()

    def _translate(self) -> None:
        if self.preparing is not None:
            self.preparing.join()
        from cass_cc.passes import units_from_file  # the passes' front end: binary route only

        try:
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
        embedded = [entry.payload() for fb in read_fatbins(host_obj) for entry in fb.cubins()]
        if sorted(embedded) != sorted(self.cubins):
            return None
        if self.error is not None:
            raise self.error
        if self.source_key:
            from cass_cc.cache import TranslationCache
            TranslationCache().remember_build(self.source_key)
        return self.code


def _prepare_passes() -> None:
    """What a cold translation first waits for: the passes imported, the SASS parser built."""
    try:
        from cass_cc.passes import LIFT_PIPELINE, parse  # noqa: F401 -- imports every pass
        parse.prepare()
    except Exception:  # noqa: BLE001 -- the translation meets the problem again and reports it
        pass


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
