"""The translation cache's key covers what the translation reads: the lift pipeline runs over
kernels nvcc compiled, with each kernel and its cubin behind a recording proxy, and every
attribute a pass reads must be one that KernelFacts (the key's source) reads too; and changing
any fact, however deep in it, changes the key."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from cass_cc.cache import facts_key, kernel_key
from cass_cc.fatbin import Cubin, CubinKernel
from cass_cc.fatbin.cubin import DeviceFunction
from cass_cc.fatbin.facts import STANDS_IN, KernelFacts
from cass_cc.unit import KernelUnit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SWITCH = ROOT / "tests" / "programs" / "sass" / "switch_brx" / "main.cu"    # BRX jump tables
DEVICE_LINKED = (ROOT / "tests" / "programs" / "binary" / "rdc_virtual", ROOT / "tests" / "programs" / "binary" / "rdc_multi")

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is needed to compile the kernels")


class _Keys:
    """Which keys of a mapping or members of a set were looked at ('*': all of them). Looking for
    one that is not there reads no fact: a symbol the kernel's code names and the cubin defines
    as a function is a callee, whose handle and entry KernelFacts hold."""

    def _seen(self, key) -> None:
        if key == "*" or super().__contains__(key):
            self._log.add(f"{self._label}[{key!r}]")


class RecordingDict(_Keys, dict):
    def __init__(self, data, label: str, log: set):
        super().__init__(data)
        self._label, self._log = label, log

    def __getitem__(self, key):
        self._seen(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._seen(key)
        return super().get(key, default)

    def __contains__(self, key):
        self._seen(key)
        return super().__contains__(key)

    def __iter__(self):
        self._seen("*")
        return super().__iter__()

    def keys(self):
        self._seen("*")
        return super().keys()

    def values(self):
        self._seen("*")
        return super().values()

    def items(self):
        self._seen("*")
        return super().items()


class RecordingSet(_Keys, set):
    def __init__(self, data, label: str, log: set):
        super().__init__(data)
        self._label, self._log = label, log

    def __contains__(self, key):
        self._seen(key)
        return super().__contains__(key)

    def __iter__(self):
        self._seen("*")
        return super().__iter__()


class Recorder:
    """`target` with every attribute read logged as 'Type.attribute'; the cubin, the device
    functions and the keyed collections reached through it are recorded too."""

    def __init__(self, target, log: set):
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_log", log)

    def __getattr__(self, name):
        target, log = self._target, self._log
        value = getattr(target, name)
        label = f"{type(target).__name__}.{name}"
        log.add(label)
        return wrap(value, label, log)

    def __setattr__(self, name, value):
        raise AssertionError(f"a pass wrote {type(self._target).__name__}.{name}")


def wrap(value, label: str, log: set):
    if isinstance(value, (Cubin, CubinKernel, DeviceFunction)):
        return Recorder(value, log)
    if isinstance(value, dict) and not isinstance(value, RecordingDict):
        return RecordingDict(value, label, log)
    if isinstance(value, (set, frozenset)):
        return RecordingSet(value, label, log)
    return value


def _proxied(unit: KernelUnit, log: set) -> KernelUnit:
    return dataclasses.replace(unit, kernel=Recorder(unit.kernel, log))


@pytest.fixture(scope="module")
def units(tmp_path_factory) -> list[KernelUnit]:
    """Every kernel of facts_kernels.cu (sm_80 and sm_90), of a program with jump tables and of two
    device-linked -rdc programs (calls across sections, function handles, virtual functions)."""
    from cass_cc.passes import units_from_file
    from tests.lift.corpus import compile_cubin, device_linked_cubin
    work = str(tmp_path_factory.mktemp("facts"))
    cubins = [compile_cubin(HERE / "facts_kernels.cu", arch, work) for arch in ("sm_80", "sm_90")]
    cubins.append(compile_cubin(SWITCH, "sm_80", work))
    cubins += [device_linked_cubin(sorted(d.glob("*.cu")), "sm_80", work) for d in DEVICE_LINKED]
    assert all(cubins), cubins
    return [u for c in cubins for u in units_from_file(c)]


def _facts_reads(unit: KernelUnit) -> set:
    log: set = set()
    KernelFacts.of(_proxied(unit, log))
    return log


def test_every_read_is_keyed(units):
    """What the lift pipeline (front end, lifter, back end) reads of each kernel and its cubin is
    among what KernelFacts reads, or stands in for (STANDS_IN)."""
    from cass_cc.passes import LIFT_PIPELINE
    from cass_cc.pipeline import run_pipeline
    fields = {f.name for f in dataclasses.fields(KernelFacts)}
    for covered in STANDS_IN.values():
        assert set(covered) <= fields
    seen, translated = set(), 0
    for unit in units:
        log: set = set()
        done = run_pipeline(_proxied(unit, log), LIFT_PIPELINE)
        translated += done.status == "ok"
        missing = log - _facts_reads(unit) - set(STANDS_IN)
        assert not missing, f"{unit.name}: the passes read {sorted(missing)}, which KernelFacts (the cache key) leaves out"
        seen |= log
    assert translated >= len(units) - 2, "the kernels should translate, so that every pass runs"
    # the kernels reach the facts a translation can take from a cubin
    for read in ("Cubin.data", "CubinKernel.callees", "CubinKernel.section_functions", "Cubin.globals",
                 "Cubin.constant_banks", "CubinKernel.constant_banks", "CubinKernel.indirect_branches",
                 "CubinKernel.params", "CubinKernel.max_threads", "Cubin.function_handles"):
        assert read in seen, read
    assert any(r.startswith("Cubin.functions[") for r in seen)


def _mutations(value, path: str):
    """(path, a different value) for `value` and for each part of it, nested dataclasses,
    tuples and mappings included."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.compare:
                for where, changed in _mutations(getattr(value, f.name), f"{path}.{f.name}"):
                    yield where, dataclasses.replace(value, **{f.name: changed})
    elif isinstance(value, (bytes, bytearray)):
        yield path, bytes(value) + b"\0"
        if value:
            yield f"{path}[0]", bytes([value[0] ^ 1]) + bytes(value[1:])
    elif isinstance(value, bool):
        yield path, not value
    elif isinstance(value, int):
        yield path, value + 1
    elif isinstance(value, str):
        yield path, value + "x"
    elif value is None:
        yield path, 1
    elif isinstance(value, dict):
        yield path, {**value, "extra": 0}
        for key, item in value.items():
            for where, changed in _mutations(item, f"{path}[{key!r}]"):
                yield where, {**value, key: changed}
    elif isinstance(value, (set, frozenset)):
        yield path, type(value)(value | {"extra"})
    elif isinstance(value, (list, tuple)):
        yield f"{path}+", type(value)(list(value) + [value[-1] if value else 0])
        for i, item in enumerate(value):
            for where, changed in _mutations(item, f"{path}[{i}]"):
                yield where, type(value)(list(value[:i]) + [changed] + list(value[i + 1:]))
    else:
        raise AssertionError(f"{path}: a {type(value).__name__} in KernelFacts")


def test_each_fact_changes_the_key(units):
    """Every field of KernelFacts, and every field of what it holds, is part of the key: over the
    kernels with the most callees, constant banks and jump-table targets."""
    facts = [KernelFacts.of(u) for u in units]
    richest = [max(facts, key=lambda f: len(f.callees) + len(f.globals)),
               max(facts, key=lambda f: len(f.constant_banks) + len(f.cubin_constant_banks)),
               max(facts, key=lambda f: (len(f.indirect_branches), len(f.params)))]
    assert any(f.callees for f in richest) and any(f.cubin_constant_banks for f in richest)
    assert any(f.indirect_branches for f in richest) and any(f.globals for f in richest)
    assert kernel_key(units[0]) == facts_key(facts[0], units[0].offload_arch)
    for f in richest:
        base = facts_key(f, "gfx1100", "v")
        assert facts_key(f, "gfx1101", "v") != base and facts_key(f, "gfx1100", "w") != base
        assert facts_key(dataclasses.replace(f), "gfx1100", "v") == base    # the same facts, the same key
        changed_fields, count = set(), 0
        for where, changed in _mutations(f, "facts"):
            assert facts_key(changed, "gfx1100", "v") != base, f"{f.name}: changing {where} leaves the key as it was"
            changed_fields.add(where.split(".")[1].split("[")[0].rstrip("+"))
            count += 1
        assert changed_fields == {field.name for field in dataclasses.fields(KernelFacts)}
        assert count > 30
