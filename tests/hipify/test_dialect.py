"""The source route compiles CUDA as nvcc does when no -std is given: C++17 (hipcc 5.2's clang 15
defaults to C++14, where this program does not compile)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_tool

PROGRAM = r"""
#include <cstdio>
__global__ void k(int* o) {
  auto twice = [](auto x) { return x * 2; };             // C++14
  if constexpr (sizeof(int) == 4) o[threadIdx.x] = twice((int)threadIdx.x);   // C++17
}
int main() {
  int* d; int h[32];
  cudaMalloc(&d, sizeof h);
  k<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  auto [first, last] = std::pair<int, int>{h[0], h[31]};  // C++17
  printf("%d %d %s\n", first, last, last == 62 ? "PASS" : "FAIL");
}
"""


def test_default_dialect_is_nvccs(tmp_path: Path) -> None:
    (tmp_path / "dialect.cu").write_text(PROGRAM.replace("#include <cstdio>", "#include <cstdio>\n#include <utility>"))
    build = run_tool("cass-nvcc", "--cass-route=source", "-o", "dialect", "dialect.cu", cwd=tmp_path)
    assert build.returncode == 0, build.stderr[-3000:]
    run = run_tool("cass-run", "./dialect", cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.strip() == "0 62 PASS", run.stdout + run.stderr
