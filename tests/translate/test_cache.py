"""The translation cache: hits for identical kernels, misses when anything translated changes,
whole entries under concurrent writers."""

from __future__ import annotations

import json
import multiprocessing
import os
import types

from cass_cc.cache import TranslationCache, deterministic_refusal, kernel_key, translator_version
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
    assert fresh.llvm_ir == done.llvm_ir and fresh.asm == done.asm and fresh.obj == done.obj
    assert not fresh.code_object   # the translation unit's, never a kernel's: TranslationCache.linked
    assert fresh.status == "ok" and fresh.reasons[-1] == "cache: hit"


def test_only_deterministic_refusals_are_kept(tmp_path):
    """The refusal's kind decides (the unit's refusal_kind), never the wording of the reason nor
    the pass: a tool's verdict or a failed check is tried again, an unknown instruction is kept."""
    cache = TranslationCache(tmp_path)
    lifter_words = "lift: unsupported SASS: FOO at 0x10: FOO R1 ;"
    for kind, by, reason in (("tool-verdict", "assemble", "assemble: llvm-mc failed: x"),
                             ("tool-verdict", "disasm", "disasm: nvdisasm failed: y"),
                             ("failed-check", "verify", "verify: max flat work-group size 256"),
                             ("refusal", "lift", lifter_words), ("", "lift", lifter_words),
                             ("no-such-kind", "lift", lifter_words)):
        unit = by_value_unit()
        unit.status, unit.reasons, unit.refused_by, unit.refusal_kind = "failed", [reason], by, kind
        cache.store(unit)
        assert not cache.load(by_value_unit()), (kind, reason)
    for kind in ("unknown-instruction", "unsupported-feature"):
        unit = by_value_unit()
        unit.status, unit.reasons, unit.refused_by, unit.refusal_kind = "failed", ["verify: anything"], "verify", kind
        cache.store(unit)
        again = by_value_unit()
        assert cache.load(again) and again.status == "failed" and again.refusal_kind == kind
        assert again.refused_by == "verify" and again.reasons == ["verify: anything", "cache: hit"]
        os.remove(cache._path(kernel_key(again)))


def test_the_pipeline_records_the_refusals_kind():
    from cass_cc.errors import FailedCheck, Refusal, ToolVerdict, UnknownInstruction, UnsupportedFeature
    for cls in (Refusal, UnknownInstruction, UnsupportedFeature, ToolVerdict, FailedCheck):
        stage = types.SimpleNamespace(NAME="stage", run=lambda unit, cls=cls: (_ for _ in ()).throw(cls("no")))
        unit = run_pipeline(by_value_unit(), [stage])
        assert (unit.status, unit.refused_by, unit.refusal_kind, unit.reasons) == ("failed", "stage", cls.kind, ["stage: no"])
        assert deterministic_refusal(unit) == cls.deterministic
    assert deterministic_refusal(_translated()) is False


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
        assert cache.load(probe) and probe.obj == done.obj


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
