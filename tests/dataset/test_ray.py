"""`cass-cc dataset build --ray` on a real two-node Ray cluster (a head and a worker node, one CPU
each) gives the same shards as the local build. The cluster lives in a private network namespace
with only loopback: on the host's namespace Ray advertises the machine's interface address
whatever --node-ip-address says, and the test's traffic must stay on this machine. It has its own
process namespace too, so `ray stop --force` (which goes by process name) sees only this cluster,
never another Ray on the machine, and the kernel ends whatever is left when the script ends.
Bounded: every step has a timeout, and `ray stop --force` runs however the build ends."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("ray")
pytest.importorskip("datasets")

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PORT = 6391
SAMPLES = {
    "saxpy.cu": "__global__ void saxpy(float a, const float *x, float *y, int n) {\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = a * x[i] + y[i];\n}\n",
    "sum.cu": "__global__ void sum(const int *x, int *out, int n) {\n"
              "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) atomicAdd(out, x[i]);\n}\n",
    "clamp.cu": "__device__ float lim(float v) { return v < 0.f ? 0.f : (v > 1.f ? 1.f : v); }\n"
                "__global__ void clamp(float *x, int n) {\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] = lim(x[i]);\n}\n",
    "broken.cu": "__global__ void broken(int *x) { x[threadIdx.x] = undeclared; }\n",
    "hello.cu": "#include <cstdio>\n__global__ void fill(int *x) { x[threadIdx.x] = threadIdx.x * 3; }\n"
                "int main() {\n  int *d, h[32];\n  cudaMalloc(&d, sizeof h);\n  fill<<<1, 32>>>(d);\n"
                "  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n  int s = 0;\n"
                "  for (int i = 0; i < 32; i++) s += h[i];\n  printf(\"sum %d\\n\", s);\n  return 0;\n}\n",
}
CLUSTER = """set -eu
ip link set lo up
export RAY_USAGE_STATS_ENABLED=0
trap 'timeout 60 ray stop --force >/dev/null 2>&1 || true' EXIT
timeout 120 ray start --head --node-ip-address 127.0.0.1 --port {port} --num-cpus 1 \
  --include-dashboard=false --disable-usage-stats --temp-dir {temp} >/dev/null
timeout 120 ray start --address 127.0.0.1:{port} --node-ip-address 127.0.0.1 --num-cpus 1 >/dev/null
timeout 600 cass-cc dataset build {corpus} --out {out} --ray 127.0.0.1:{port} --timeout 120
"""


def shards(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / "data").glob("*.parquet"))}


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="needs root and unshare for a private network namespace")
def test_two_node_cluster_builds_the_local_shards(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in SAMPLES.items():
        (corpus / name).write_text(text)
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    local = tmp_path / "local"
    subprocess.run([BIN / "cass-cc", "dataset", "build", corpus, "--out", local, "--workers", "2"],
                   check=True, env=env, cwd=ROOT, timeout=600, capture_output=True)

    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")   # short: Ray's socket paths have a length limit
    script = tmp_path / "cluster.sh"
    script.write_text(CLUSTER.format(port=PORT, temp=temp, corpus=corpus, out=tmp_path / "ray"))
    try:
        done = subprocess.run(["unshare", "--net", "--pid", "--fork", "--mount-proc", "bash", script], env=env, cwd=ROOT, timeout=900,
                              capture_output=True, text=True)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-3000:]

    assert shards(tmp_path / "ray") == shards(local) and shards(local)
    import json
    stats = json.loads((local / "stats.json").read_text())
    assert stats["kept"] == 4 and stats["dropped"]["nvcc failed"] == 1 and stats["ran"] == 1

    import datasets
    data = datasets.load_dataset("parquet", data_files=str(local / "data" / "*.parquet"), split="train",
                                 cache_dir=str(tmp_path / "hf"))
    assert data["path"] == ["corpus/clamp.cu", "corpus/hello.cu", "corpus/saxpy.cu", "corpus/sum.cu"]
    assert data[1]["stdout"] == "sum 1488\n" and data[1]["kernels"][0]["lift_status"] == "ok"
