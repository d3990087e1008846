"""The data pipeline's own logic, without the tools: corpus order and normalisation, duplicates,
the shard schema, resuming, worker-independent shards, clean errors. The tools' part is the
Ray test's (test_ray.py), on real samples."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("datasketch")

from cass_cc.dataset.build import build           # noqa: E402
from cass_cc.dataset.corpus import find_sources, normalise   # noqa: E402
from cass_cc.dataset.dedup import deduplicate     # noqa: E402

KERNEL = """__global__ void {name}(float *x, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * {factor}f + 1.0f;
}}
"""


def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "sub").mkdir(parents=True)
    (root / "b.cu").write_text(KERNEL.format(name="scale", factor=2))
    (root / "a.cu").write_text(KERNEL.format(name="scale", factor=2).replace("\n", "  \r\n"))  # same text
    (root / "sub" / "c.cu").write_text("// Scale the vector.\n" + KERNEL.format(name="scale", factor=2).replace("    ", "\t"))  # near
    (root / "d.cu").write_text("#include <cstdio>\n" + "\n".join(
        f"__device__ int f{i}(int v) {{ return v * {i} + {i * i}; }}" for i in range(30)) + "\n")
    (root / "notes.txt").write_text("not CUDA")
    return root


def stub_runner(calls: list):
    """Stands in for the workers: a record per job (schema complete), answers in reverse order
    (as a pool may finish them)."""
    def run(jobs):
        calls.extend(j[0] for j in jobs)
        for path, text, _folder, arch, _ in reversed(jobs):
            yield {"id": path, "path": path, "cuda_source": text, "hip_source": text, "cuda_host_asm": "",
                   "hip_host_asm": "", "ran": False, "exit_status": None, "stdout": None,
                   "kernels": [{"name": "k", "demangled": "k", "sass": "/*0000*/ MOV R1, c[0x0][0x28] ;",
                                "hip_device_asm": "\ts_endpgm\n", "lifted_rdna3": "\ts_endpgm\n",
                                "lift_status": "ok", "lift_reasons": []}]}
    return run


def test_normalise_unifies_line_endings_and_blank_runs():
    assert normalise("a  \r\n\r\n\r\n\r\nb\r\n\n") == "a\n\nb\n"


def test_sources_sorted_and_deduplicated(tmp_path):
    sources = find_sources([str(corpus(tmp_path))])
    assert [s.path for s in sources] == ["corpus/a.cu", "corpus/b.cu", "corpus/d.cu", "corpus/sub/c.cu"]
    kept, dropped = deduplicate(sources)
    assert [s.path for s in kept] == ["corpus/a.cu", "corpus/d.cu"]
    assert dropped == {"corpus/b.cu": "corpus/a.cu", "corpus/sub/c.cu": "corpus/a.cu"}


def test_shards_schema_resume_and_order(tmp_path):
    import pyarrow.parquet as pq
    root, out = corpus(tmp_path), tmp_path / "out"
    calls: list = []
    stats = build([str(root)], out, "gfx1100", 10, stub_runner(calls), lambda _: None)
    assert calls == ["corpus/a.cu", "corpus/d.cu"]
    assert stats["kept"] == 2 and stats["dropped"]["duplicate"] == 2
    table = pq.read_table(out / stats["shards"][0])
    assert table.column("path").to_pylist() == ["corpus/a.cu", "corpus/d.cu"]   # path order, not finish order
    assert table.schema.field("kernels").type.value_type.names[:3] == ["name", "demangled", "sass"]
    first = (out / stats["shards"][0]).read_bytes()
    assert json.loads((out / "stats.json").read_text())["kept"] == 2
    assert (out / "report.md").exists() and (out / "opcodes.png").exists()

    calls.clear()   # resume: nothing left to build, the same shard again
    build([str(root)], out, "gfx1100", 10, stub_runner(calls), lambda _: None)
    assert calls == [] and (out / stats["shards"][0]).read_bytes() == first


def test_dropped_samples_counted_with_their_reason(tmp_path):
    root, out = corpus(tmp_path), tmp_path / "out"

    def failing(jobs):
        for path, *_ in jobs:
            yield {"path": path, "dropped": "nvcc failed", "detail": "error: boom"}
    stats = build([str(root)], out, "gfx1100", 10, failing, lambda _: None)
    assert stats["kept"] == 0 and stats["dropped"]["nvcc failed"] == 2
    assert stats["drops"]["corpus/d.cu"] == "nvcc failed: error: boom"


@pytest.mark.parametrize("args, message", [
    (["nowhere"], "'nowhere': no such file or folder"),
    (["setup.cfg"], "'setup.cfg': not a CUDA source"),
])
def test_bad_input_is_one_error_line(tmp_path, args, message):
    done = subprocess.run([sys.executable, "-m", "cass_cc", "dataset", "build", *args, "--out", str(tmp_path)],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode != 0 and message in done.stderr and "Traceback" not in done.stderr
