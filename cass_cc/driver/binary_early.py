"""Translation that starts while nvcc is still compiling: the binary route needs only the cubin,
which ptxas writes well before nvcc's last step (the host compiler on the .cudafe1.cpp, a fifth of
nvcc's time or more). nvcc keeps its intermediate files in a private folder (-keep); as soon as
the cubin there is complete, a thread translates its kernels while the host compiler runs.

The thread's work is used only if the cubins it read are the ones nvcc embedded in the object;
otherwise (or when the cubin never showed up) the translation runs from the object afterwards,
as it would without this.
"""

from __future__ import annotations

import glob
import os
import threading
from pathlib import Path

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

    def poll(self) -> None:
        """Start the thread once ptxas is done: fatbinary, the step after it, has begun writing."""
        if self.thread is None and glob.glob(os.path.join(glob.escape(self.keep), "*.fatbin.c")):
            self.thread = threading.Thread(target=self._translate, name="early-translation", daemon=True)
            self.thread.start()

    def _translate(self) -> None:
        from cass_cc.passes import units_from_file  # the passes' front end: binary route only

        try:
            paths = sorted(glob.glob(os.path.join(glob.escape(self.keep), "*.cubin")))
            self.cubins = [Path(p).read_bytes() for p in paths]
            units = [u for p in paths for u in units_from_file(p, self.settings.offload_arch)]
            self.code = code_for_tu(self.tu, units, self.settings, self.work, self.no_fallback)
        except BaseException as e:  # noqa: BLE001 -- handed to the translate job, which decides
            self.error = e

    def wait(self) -> None:
        if self.thread is not None:
            self.thread.join()

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
        return self.code


def nvcc_job(argv: list[str], early: EarlyTranslation | None) -> Job:
    """nvcc as a job that starts `early` as soon as it can; a failed nvcc waits for the thread
    before its error ends the build (the thread writes in the build's temporary folder)."""
    job = Job(argv, label="nvcc")
    if early is None:
        return job

    def action() -> None:
        try:
            run_tool(job, while_running=early.poll)
        except BaseException:
            early.wait()
            raise
    job.action = action
    return job
