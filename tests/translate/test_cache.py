"""The translation cache: hits for identical kernels, misses when anything translated changes,
whole entries under concurrent writers."""

from __future__ import annotations

import json
import multiprocessing
import os

from cass_cc.cache import TranslationCache, kernel_key, translator_version
from cass_cc.passes import BACK_END
from cass_cc.pipeline import run_pipeline
from cass_cc.unit import KernelUnit

from tests.rdna3.helpers import by_value_ir, by_value_unit


def _translated() -> KernelUnit:
    unit = by_value_unit()
    unit.llvm_ir = by_value_ir()
    return run_pipeline(unit, BACK_END)


def test_store_then_load(tmp_path):
    cache = TranslationCache(tmp_path)
    done = _translated()
    assert done.status == "ok"
    cache.store(done)
    fresh = by_value_unit()
    assert cache.load(fresh)
    assert fresh.code_object == done.code_object and fresh.asm == done.asm and fresh.obj == done.obj
    assert fresh.status == "ok" and fresh.reasons[-1] == "cache: hit"


def test_only_deterministic_refusals_are_kept(tmp_path):
    """Which pass refused decides (the unit's refused_by), never the wording of the reason."""
    cache = TranslationCache(tmp_path)
    for refused_by, reason in (("assemble", "assemble: llvm-mc failed: x"), ("disasm", "disasm: nvdisasm failed: y"),
                               ("", "lift: unsupported SASS: FOO at 0x10: FOO R1 ;")):
        unit = by_value_unit()
        unit.status, unit.reasons, unit.refused_by = "failed", [reason], refused_by
        cache.store(unit)
        assert not cache.load(by_value_unit()), reason
    unit = by_value_unit()
    unit.status, unit.reasons, unit.refused_by = "failed", ["lift: unsupported SASS: FOO at 0x10: FOO R1 ;"], "lift"
    cache.store(unit)
    again = by_value_unit()
    assert cache.load(again) and again.status == "failed" and again.refused_by == "lift"
    assert again.reasons == ["lift: unsupported SASS: FOO at 0x10: FOO R1 ;", "cache: hit"]


def test_key_depends_on_target_arch_and_code():
    a, b = by_value_unit(), by_value_unit()
    assert kernel_key(a) == kernel_key(b)
    b.offload_arch = "gfx1101"
    assert kernel_key(a) != kernel_key(b)
    assert kernel_key(a) != kernel_key(by_value_unit("sm_86"))
    assert translator_version().startswith("0.")


def _writer(root: str, rounds: int) -> None:
    cache = TranslationCache(root)
    done = _translated()
    for _ in range(rounds):
        cache.store(done)
        probe = by_value_unit()
        assert cache.load(probe) and probe.code_object == done.code_object


def test_concurrent_writers_leave_whole_entries(tmp_path):
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), 5)) for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert all(p.exitcode == 0 for p in procs)
    files = [os.path.join(d, f) for d, _, fs in os.walk(tmp_path) for f in fs]
    assert len(files) == 1 and not os.path.basename(files[0]).startswith(".cass-")
    json.loads(open(files[0]).read())
