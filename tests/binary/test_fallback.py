"""The hipify fallback of the binary route, driven through the route's interface with route auto
(kernels the translators refuse may fall back), whatever route `--cass-route=auto` names today."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from binroute import ROOT, cass_run

from cass_cc.driver.routes import ROUTES
from cass_cc.driver.binary_kernels import NoRoute
from cass_cc.driver.jobs import Runner
from cass_cc.driver.plan import Compile, Link, TranslationUnit
from cass_cc.driver.parse import parse
from cass_cc.driver.settings import settings_from

pytestmark = pytest.mark.slow  # builds and emulates whole programs

FEATURES = ROOT / "tests" / "programs" / "binary" / "runtime_features" / "features.cu"


def _build(source: Path, out: Path, *options: str) -> Path:
    s = settings_from(parse(["--cass-route=auto", f"--cass-report={out / 'report.json'}", *options]))
    work = tempfile.mkdtemp(dir=out)
    obj, exe = out / "prog.o", out / "prog"
    Runner().run(ROUTES["binary"].compile_jobs(Compile(TranslationUnit(str(source), "cu"), str(obj)), s, work))
    Runner().run(ROUTES["binary"].link_jobs(Link([str(obj)], str(exe)), s, work))
    return exe


def test_refused_kernels_come_from_hipify_and_the_program_passes(tmp_path):
    exe = _build(FEATURES, tmp_path, "--cass-translators=model")
    run = cass_run(exe)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("PASS"), run.stdout + run.stderr
    kernels = json.loads((tmp_path / "report.json").read_text())["kernels"]
    assert {k["name"] for k in kernels} == {"_Z13reverse_scalePKiPii", "_Z8add_biasPfi"}
    for k in kernels:
        assert (k["tier"], k["status"]) == ("hipify", "fallback")
        assert len(k["reasons"]) == 1 and k["reasons"][0].startswith("model: no server at")


def test_neither_route_names_the_kernel_its_line_and_both_reasons(tmp_path):
    src = tmp_path / "ptx.cu"
    # a performance-monitor event: no AMD counterpart, so hipify's inline-PTX translation refuses it
    src.write_text("__global__ void lane_ids(unsigned *out)\n{\n"
                   "    asm volatile(\"pmevent 1;\");\n    out[threadIdx.x] = threadIdx.x;\n}\n")
    with pytest.raises(NoRoute) as err:
        _build(src, tmp_path, "--cass-translators=model")
    message = err.value.message
    assert message.startswith(f"{src}:1: kernel 'lane_ids(unsigned int*)' has no route: ")
    assert "model: no server at" in message and "hipify fallback:" in message and "error" in message
    assert not (tmp_path / "prog.o").exists()


SPIN_LOCK = """__global__ void locked_sum(int *lock, int *sum)
{
    if (threadIdx.x % 32 == 0) {
        while (atomicCAS(lock, 0, 1) != 0) { }
        *sum += 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}

int main() { return 0; }
"""


def test_fallback_refuses_on_wave64_a_kernel_whose_warps_wait_for_each_other(tmp_path):
    """gfx942's waves hold two CUDA warps in the hipify fallback's code: a lock taken by one lane
    of each warp would spin forever in one half while the other half holds it. The lifter runs
    such a kernel one warp per wave; when the lifter cannot take it, the build says so."""
    src = tmp_path / "lock.cu"
    src.write_text(SPIN_LOCK)
    with pytest.raises(NoRoute) as err:
        _build(src, tmp_path, "--cass-translators=model", "--cass-offload-arch=gfx942")
    message = err.value.message
    assert message.startswith(f"{src}:1: kernel 'locked_sum(int*, int*)' has no route for gfx942: model: no server at")
    assert "hipify fallback: a spin loop on an atomic or volatile read" in message
    assert "two CUDA warps in each 64-lane wave of gfx942" in message
    assert not (tmp_path / "prog.o").exists()
    _build(src, tmp_path, "--cass-translators=model")      # gfx1100: one warp per wave, the fallback serves
