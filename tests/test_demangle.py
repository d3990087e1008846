"""cass_cc.demangle: Itanium names -> C++ spellings by llvm-cxxfilt, in one run for many names;
names unchanged without the tool."""

from __future__ import annotations

import pytest

import cass_cc.demangle as demangler
from cass_cc import toolchain
from cass_cc.errors import ToolMissing

NAMES = {"_Z7pairMaxPKiS0_Pii": "pairMax(int const*, int const*, int*, int)",
         "_Z5scalePffi": "scale(float*, float, int)",
         "_ZN12_GLOBAL__N_15firstEPi": "(anonymous namespace)::first(int*)",
         "plain_c_kernel": "plain_c_kernel"}


@pytest.fixture
def fresh(monkeypatch):
    """An empty cache, and a count of the tool's runs."""
    monkeypatch.setattr(demangler, "_known", {})
    runs = []
    real = demangler._run_tool
    monkeypatch.setattr(demangler, "_run_tool", lambda names: runs.append(names) or real(names))
    return runs


def test_many_names_in_one_run(fresh):
    assert demangler.demangle_all(list(NAMES) + ["_Z5scalePffi"]) == NAMES
    assert fresh == [[n for n in NAMES if n.startswith("_Z")]]
    assert demangler.demangle("_Z5scalePffi") == "scale(float*, float, int)" and len(fresh) == 1


def test_names_unchanged_without_the_tool(fresh, monkeypatch):
    def missing(name: str) -> str:
        raise ToolMissing(f"{name} not found")
    monkeypatch.setattr(toolchain, "path", missing)
    assert demangler.demangle_all(NAMES) == {n: n for n in NAMES}
