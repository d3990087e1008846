"""A warm build (every kernel in the translation cache) does no translation work: it imports
neither the passes' heavy dependencies (llvmlite, lark) nor the CLI module (click), nor the
SASS package (so nvdisasm never runs), and embeds the same code objects as the cold build that filled the cache."""

from __future__ import annotations

import subprocess

from binroute import EXAMPLES, cass_nvcc

HEAVY = ("llvmlite", "lark", "click", "cass_cc.sass", "cass_cc.passes.lift")


def _fatbin_section(obj) -> bytes:
    out = obj.with_suffix(".fatbin")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", str(obj), str(out)], check=True)
    return out.read_bytes()


def test_warm_build_imports_no_translator(tmp_path):
    source = EXAMPLES / "vector_add" / "vector_add.cu"
    env = {"CASS_CACHE_DIR": str(tmp_path / "cache")}
    cold = cass_nvcc("--cass-route=binary", "-O2", "-c", source, "-o", tmp_path / "cold.o", env=env)
    assert cold.returncode == 0, cold.stderr
    warm = cass_nvcc("--cass-route=binary", "-O2", "-c", source, "-o", tmp_path / "warm.o",
                     env={**env, "PYTHONPROFILEIMPORTTIME": "1"})
    assert warm.returncode == 0, warm.stderr
    imported = {line.split("|")[-1].strip() for line in warm.stderr.splitlines() if line.startswith("import time:")}
    assert imported, "no import trace: PYTHONPROFILEIMPORTTIME had no effect"
    heavy = sorted(m for m in imported if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert not heavy, f"a warm build imported {heavy}"
    assert _fatbin_section(tmp_path / "warm.o") == _fatbin_section(tmp_path / "cold.o")
