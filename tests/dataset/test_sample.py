"""sample.process with the real tools on a program whose source includes headers of its own
folder tree, as most repositories' programs do (`#include "../common/common.h"`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from cass_cc.dataset.corpus import find_sources
from cass_cc.dataset.sample import process

COMMON = """#pragma once
#include <cstdio>
#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \\
    printf("error %s\\n", cudaGetErrorString(e)); return 1; } } while (0)
__device__ inline int twice(int v) { return 2 * v; }
"""
MAIN = """#include "../common/common.h"
#include "local.cuh"
__global__ void fill(int *x) { x[threadIdx.x] = twice(threadIdx.x) + OFFSET; }
int main() {
  int *d, h[32];
  CHECK(cudaMalloc(&d, sizeof h));
  fill<<<1, 32>>>(d);
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  int s = 0;
  for (int i = 0; i < 32; i++) s += h[i];
  printf("sum %d\\n", s);
  return 0;
}
"""


@pytest.fixture
def tools_on_path(monkeypatch):
    """cass-nvcc and cass-run of this venv, as a worker started from it finds them."""
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])


def test_headers_of_the_source_tree_are_found_and_hipified(tmp_path, tools_on_path):
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "common.h").write_text(COMMON)
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "local.cuh").write_text("#define OFFSET 1\n")
    (tmp_path / "app" / "main.cu").write_text(MAIN)
    source, = find_sources([str(tmp_path / "app")])
    record = process(source.path, source.text, os.path.dirname(source.file), "gfx1100", 300)
    assert "dropped" not in record, record
    assert record["ran"] and record["exit_status"] == 0 and record["stdout"] == "sum 1024\n"
    assert record["cuda_source"] == MAIN and '#include "../common/common.h"' in record["hip_source"]
    kernel, = record["kernels"]
    assert kernel["lift_status"] == "ok" and kernel["hip_device_asm"] and kernel["lifted_rdna3"]


def test_a_drop_names_the_sample_not_its_private_folder(tmp_path):
    """stats.json's drop reasons read the same in every build of the corpus."""
    record = process("broken.cu", "__global__ void k(int *x) { x[0] = undeclared; }\n", str(tmp_path),
                     "gfx1100", 300)
    assert record["dropped"] == "nvcc failed"
    assert record["detail"].startswith("sample.cu(1): error") and "cass-dataset-" not in record["detail"]
