"""--check's options as users meet them: documented in cass-run --help and cass-nvcc --help,
and bad values are clear errors (no traceback), without building anything."""

from __future__ import annotations

import pytest

from tests.conftest import run_tool


def test_cass_run_help_documents_check():
    proc = run_tool("cass-run", "--help")
    assert proc.returncode == 0
    for text in ("--check ", "--check-rtol R", "--check-atol A", "--check-require-reference", "--check-order-free", "--check-tolerate",
                 "(default 1e-05)", "(default 1e-08)", "--cass-embed-reference",
                 "CASS_EMBED_REFERENCE=1", "exit status (--check): 3 when a launch differed"):
        assert text in proc.stdout, text


def test_cass_nvcc_help_documents_embed_reference():
    proc = run_tool("cass-nvcc", "--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "--cass-embed-reference" in text
    assert "`cass-run --check`" in text and "(environment: CASS_EMBED_REFERENCE)" in text


@pytest.mark.parametrize("args, message", [
    (["--check", "--check-rtol", "abc", "/bin/true"], "'abc' is not a number"),
    (["--check", "--check-atol=-1", "/bin/true"], "'-1' is not a finite number >= 0"),
    (["--check-rtol", "1e-3", "/bin/true"], "need --check"),
    (["--check-require-reference", "/bin/true"], "need --check"),
    (["--check-order-free", "hist", "/bin/true"], "need --check"),
    (["--check-tolerate=contend", "/bin/true"], "need --check"),
    (["--hip", "--check", "/bin/true"], "--check needs the emulator"),
])
def test_bad_check_options(args, message):
    proc = run_tool("cass-run", *args)
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_value_options_do_not_swallow_the_program():
    """`--check-rtol 0.1 PROG` takes 0.1 as the value: the next word is the program."""
    from cass_cc.runtime.run import split_command
    assert split_command(["--check", "--check-rtol", "0.1", "prog", "--check"]) == \
        (["--check", "--check-rtol", "0.1"], ["prog", "--check"])


def test_order_free_kernels_by_symbol_or_cxx_name(monkeypatch):
    from cass_cc.runtime.emulated import check
    monkeypatch.setenv(check.ORDER_FREE_ENV, "hist,_Z1kPf")
    assert check.order_free("_Z4histPi", "hist(int*)")
    assert check.order_free("_ZN2ns4histEPi", "ns::hist(int*)")
    assert check.order_free("_Z1kPf", "k(float*)")
    assert not check.order_free("_Z5otherPi", "other(int*)")
    assert check.order_free("_Z4histIiEvPT_", "void hist<int>(int*)")
