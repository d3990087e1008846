"""A warm build (every kernel in the translation cache) does no translation work: it imports
neither the passes' heavy dependencies (llvmlite, lark) nor the CLI module (click), nor the
SASS package (so nvdisasm never runs), and embeds the same code objects as the cold build that filled the cache."""

from __future__ import annotations

import subprocess

from binroute import EXAMPLES, cass_nvcc, cass_run, reports

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


STEP = "__device__ unsigned step(unsigned x) { return %d * x + 1; }\n"
STEPS = """
#include <cstdio>
__device__ unsigned step(unsigned x);
__global__ void steps(unsigned *v) { v[threadIdx.x] = step(step(v[threadIdx.x])); }
int main()
{
    unsigned h[32], *d, s = 0;
    for (int i = 0; i < 32; i++) h[i] = i;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    steps<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++) s += h[i];
    printf("sum %u\\n", s);
    return 0;
}
"""


def _rdc_build(folder, name: str, env: dict) -> tuple[list[str], str]:
    """-rdc=true build of step.cu + steps.cu: the kernel's cache reasons and the program's output."""
    reports_dir = folder / f"{name}.reports"
    proc = cass_nvcc("--cass-route=binary", "-rdc=true", folder / "step.cu", folder / "steps.cu",
                     "-o", folder / name, cwd=folder, env={**env, "CASS_REPORT_DIR": str(reports_dir)})
    assert proc.returncode == 0, proc.stderr
    (kernel,) = [k for r in reports(reports_dir) for k in r["kernels"]]
    assert kernel["name"] == "_Z5stepsPj" and kernel["tier"] == "lift", kernel
    run = cass_run(folder / name)
    assert run.returncode == 0, run.stdout + run.stderr
    return kernel["reasons"], run.stdout.strip()


def test_device_linked_kernels_are_cached_with_their_callees(tmp_path):
    """A kernel that calls a device function of another file (translated after the device link)
    comes from the cache on a warm -rdc rebuild, and an edit of only that function translates it
    afresh: the callees' code is part of the cache key."""
    env = {"CASS_CACHE_DIR": str(tmp_path / "cache")}
    (tmp_path / "steps.cu").write_text(STEPS)
    (tmp_path / "step.cu").write_text(STEP % 3)
    reasons, output = _rdc_build(tmp_path, "cold", env)
    assert "cache: hit" not in reasons and output == "sum 4592"
    reasons, output = _rdc_build(tmp_path, "warm", env)
    assert "cache: hit" in reasons and output == "sum 4592"
    (tmp_path / "step.cu").write_text(STEP % 5)
    reasons, output = _rdc_build(tmp_path, "edited", env)
    assert "cache: hit" not in reasons and output == f"sum {sum(5 * (5 * i + 1) + 1 for i in range(32))}"


SASS = """
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/              @!P0 IMAD.WIDE.U32 R2, R0, 0x4, R2.reuse ;
        /*0020*/                   STG.E desc[UR4][R2.64+0x4], R5 ;
        /*0030*/                   EXIT ;
"""


def _as_in_a_new_process(parser) -> None:
    """What a later build starts with: neither the parser nor any instruction's reading."""
    parser._parser.cache_clear()
    parser._instruction_at_zero.cache_clear()


def test_sass_parser_is_kept_in_the_cache(tmp_path, monkeypatch):
    """lark's analysis of the SASS grammar is saved in the cass cache and loaded by later builds;
    the loaded parser parses alike, and a damaged file is rebuilt and replaced."""
    from lark import Lark

    from cass_cc.sass import parser

    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path))
    _as_in_a_new_process(parser)
    try:
        fresh = parser.parse_sass(SASS).instructions
        (saved,) = tmp_path.glob("sass-parser-*.lark")
        written = saved.read_bytes()
        _as_in_a_new_process(parser)
        assert parser.parse_sass(SASS).instructions == fresh
        saved.write_bytes(written[:100])
        _as_in_a_new_process(parser)
        assert parser.parse_sass(SASS).instructions == fresh
        with open(saved, "rb") as f:   # replaced by a whole one
            assert isinstance(Lark.load(f), Lark)
        assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".cass-")]
    finally:
        _as_in_a_new_process(parser)
