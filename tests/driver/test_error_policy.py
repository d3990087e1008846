"""What a failure in the translation becomes (issue 13): a kernel the lifter refuses (Refusal) is
reported and built by the hipify fallback in route auto; anything else in a pass is an error
naming the pass and the kernel; a missing tool is an error with its install hint, never a
fallback. Driven in-process through cass-nvcc's entry point, the lifter patched where needed."""

from __future__ import annotations

import json

import pytest

from cass_cc import toolchain
from cass_cc.driver import main as cass_nvcc
from cass_cc.passes.lift import core

KERNEL = "__global__ void store(int* p) { p[threadIdx.x] = 7; }\n"
NAME = "store(int*)"


@pytest.fixture
def compile_store(tmp_path, monkeypatch, capsys):
    """compile(*options) -> (exit status, stderr) of `cass-nvcc -c store.cu` in a fresh
    translation cache (a cached translation would not meet the patched lifter)."""
    (tmp_path / "store.cu").write_text(KERNEL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path / "cache"))
    for var in ("CASS_ROUTE", "CASS_DEBUG", "CASS_TRANSLATORS"):
        monkeypatch.delenv(var, raising=False)

    def compile_(*options: str) -> tuple[int, str]:
        capsys.readouterr()
        status = cass_nvcc.main([*options, "-c", "store.cu", "-o", "store.o"])
        return status, capsys.readouterr().err
    return compile_


def patch_store(monkeypatch, failure) -> None:
    """The lifter's STG handler (the kernel's one store) replaced by one that raises failure(ins)."""
    _, kind = core.HANDLERS["STG"]

    def handler(ctx, ins):
        raise failure(ins)
    monkeypatch.setitem(core.HANDLERS, "STG", (handler, kind))


def test_a_bug_in_the_lifter_is_an_error_naming_pass_and_kernel(compile_store, monkeypatch, tmp_path):
    patch_store(monkeypatch, lambda ins: KeyError("injected"))
    status, err = compile_store()
    assert status == 70, err
    assert err.splitlines()[-1] == (f"cass-nvcc: error: internal error in pass 'lift' on kernel '{NAME}': "
                                    "KeyError: 'injected'; set CASS_DEBUG=1 for the traceback")
    assert "Traceback" not in err and "hipify" not in err
    assert not (tmp_path / "store.o").exists()


def test_cass_debug_prints_the_traceback_of_the_bug(compile_store, monkeypatch):
    patch_store(monkeypatch, lambda ins: KeyError("injected"))
    monkeypatch.setenv("CASS_DEBUG", "1")
    status, err = compile_store()
    assert status == 70, err
    assert "Traceback (most recent call last):" in err and "in handler" in err
    assert err.splitlines()[-1].startswith("cass-nvcc: error: internal error in pass 'lift'")


def test_a_refusal_falls_back_to_hipify_and_is_reported(compile_store, monkeypatch, tmp_path):
    patch_store(monkeypatch, lambda ins: core.unsupported(ins, "injected refusal"))
    status, err = compile_store("--cass-report", "report.json")
    assert status == 0, err
    [kernel] = json.loads((tmp_path / "report.json").read_text())["kernels"]
    assert (kernel["tier"], kernel["status"]) == ("hipify", "fallback")
    [reason] = kernel["reasons"]
    assert reason.startswith("lift: ") and "injected refusal" in reason
    assert err == f"cass-nvcc: warning: kernel '{NAME}' comes from the hipify fallback: {reason}\n"
    assert (tmp_path / "store.o").is_file()


def test_a_refusal_on_the_binary_route_named_is_an_error(compile_store, monkeypatch, tmp_path):
    patch_store(monkeypatch, lambda ins: core.unsupported(ins, "injected refusal"))
    status, err = compile_store("--cass-route=binary")
    assert status == 1, err
    assert f"kernel '{NAME}' cannot be translated: lift: " in err and "--cass-route=binary allows no hipify fallback" in err
    assert not (tmp_path / "store.o").exists()


@pytest.fixture
def no_llvm(monkeypatch):
    """A machine without LLVM's tools: no ROCm, and none of the LLVM versions cass-cc looks for
    (toolchain.find: ROCM_PATH/llvm/bin, then /usr/lib/llvm-N/bin and llvm-mc-N for each N)."""
    monkeypatch.delenv("ROCM_PATH", raising=False)
    monkeypatch.setattr(toolchain, "LLVM_VERSIONS", (99,))
    toolchain.find.cache_clear()
    with pytest.raises(toolchain.ToolMissing):
        toolchain.find("llvm-mc")
    yield
    toolchain.find.cache_clear()  # the tools found before are found again


def test_a_missing_llvm_mc_is_an_error_with_the_install_hint(compile_store, no_llvm, tmp_path):
    status, err = compile_store()
    assert status == 1, err
    assert err.splitlines()[-1] == f"cass-nvcc: error: llvm-mc not found: {toolchain.HOW_TO_GET['llvm-mc']}"
    assert "hipify" not in err and not (tmp_path / "store.o").exists()
