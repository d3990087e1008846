"""The source route for every target (hip_compilers.py): hipcc where its clang knows the target,
clang-22 otherwise; programs built for gfx1201 by clang-22 run on the emulator with the H200's
outputs; multi-target builds carry a code object per target; gfx942 builds plain kernels and
warp code (two CUDA warps in each wave)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cass_cc import targets
from cass_cc.driver import hip_fatbin
from cass_cc.driver.hip_compilers import compiler_for, missing_reason, serving
from cass_cc.errors import CassError
from cass_cc.rdna3.code_object import CodeObject
from tests.conftest import ROOT, run_tool

REALWORLD = ROOT / "tests" / "programs" / "realworld"


def _build(tmp_path: Path, program: str, archs: str, route: str = "source") -> tuple[Path, object]:
    exe = tmp_path / "prog"
    flags_file = REALWORLD / program / "flags.txt"
    flags = flags_file.read_text().split() if flags_file.is_file() else []
    built = run_tool("cass-nvcc", "-O2", f"--cass-route={route}", f"--cass-offload-arch={archs}", *flags,
                     "-o", str(exe), *map(str, sorted((REALWORLD / program).glob("*.cu"))), cwd=tmp_path)
    return exe, built


def _bundle_archs(exe: Path) -> list[str]:
    return sorted(CodeObject(e.data, str(exe)).processor for e in hip_fatbin.code_objects(str(exe)))


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_every_target_has_a_hip_compiler(name):
    assert missing_reason(name) == ""
    expected = "clang-22" if name.startswith("gfx12") or name == "gfx942" else "hipcc"
    assert serving(name).name == expected


def test_a_processor_no_compiler_knows_names_each_compilers_reason():
    with pytest.raises(CassError) as e:
        compiler_for(["gfx1100", "gfx9999"])
    message = str(e.value)
    assert message.startswith("cannot build for gfx9999 on the source route: hipcc's compiler (")
    assert "clang version 15" in message and "does not know gfx9999; clang-22's compiler (" in message
    assert "gfx1100" not in message.split(":", 1)[1]


def test_one_compiler_builds_every_target_of_a_build():
    assert compiler_for(["gfx1100", "gfx1030"]).name == "hipcc"
    assert compiler_for(["gfx1100", "gfx1201"]).name == "clang-22"


@pytest.mark.slow
@pytest.mark.parametrize("program", ["atomics_double", "warp_collectives", "block_votes", "atomics_wide",
                                     "simd_intrinsics", "vector_io"])
def test_gfx1201_program_matches_the_h200(program, tmp_path):
    exe, built = _build(tmp_path, program, "gfx1201")
    assert built.returncode == 0, built.stderr[-3000:]
    assert _bundle_archs(exe) == ["gfx1201"]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert run.stdout == (REALWORLD / program / "reference.txt").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["gfx1201", "gfx942"])
def test_fast_math_builds_with_clang22_and_matches_the_h200(arch, tmp_path):
    """--use_fast_math flushes f32 denormals; ROCm 5.2's ocml then reads __oclc_daz_opt, which
    clang-22 no longer links (rocm_compat.py carries it): the build links and prints the H200's
    output."""
    exe, built = _build(tmp_path, "fast_math", arch)
    assert built.returncode == 0, built.stderr[-3000:]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert run.stdout == (REALWORLD / "fast_math" / "reference.txt").read_text()


@pytest.mark.slow
def test_multi_target_source_build_carries_each_target(tmp_path):
    exe, built = _build(tmp_path, "atomics_double", "gfx1100,gfx1201,gfx942")
    assert built.returncode == 0, built.stderr[-3000:]
    assert _bundle_archs(exe) == ["gfx1100", "gfx1201", "gfx942"]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.stdout == (REALWORLD / "atomics_double" / "reference.txt").read_text()


@pytest.mark.slow
def test_gfx942_builds_a_plain_kernel_with_clang22(tmp_path):
    exe, built = _build(tmp_path, "atomics_double", "gfx942")
    assert built.returncode == 0, built.stderr[-3000:]
    (entry,) = hip_fatbin.code_objects(str(exe))
    code = CodeObject(entry.data, str(exe))
    assert code.processor == "gfx942"
    assert {k.wavefront_size for k in code.kernels.values()} == {64}


@pytest.mark.slow
def test_gfx942_builds_warp_operations_with_the_h200s_output(tmp_path):
    """Two CUDA warps in each 64-lane wave (cass_wave64.h): warp_collectives prints the H200's
    output (tests/hipify/test_wave64_warps.py checks each warp family lane by lane)."""
    exe, built = _build(tmp_path, "warp_collectives", "gfx942")
    assert built.returncode == 0, built.stderr[-3000:]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.stdout == (REALWORLD / "warp_collectives" / "reference.txt").read_text()


@pytest.mark.slow
def test_hipify_fallback_builds_gfx1201_with_clang22(tmp_path):
    """Route auto: the kernel the translators refuse (no model server) comes from the hipify
    fallback, which clang-22 builds for gfx1201 (hipcc's clang 15 lacks it) next to gfx1100's."""
    from tests.driver.conftest import amd_code_objects

    exe = tmp_path / "prog"
    built = run_tool("cass-nvcc", "-O2", "--cass-translators=model", "--cass-offload-arch=gfx1201,gfx1100",
                     "-o", str(exe), str(REALWORLD / "block_votes" / "main.cu"), cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-3000:]
    assert "comes from the hipify fallback" in built.stderr
    archs = sorted(CodeObject(e.data, str(exe)).processor for e in amd_code_objects(exe))
    assert archs == ["gfx1100", "gfx1201"]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.stdout == (REALWORLD / "block_votes" / "reference.txt").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["gfx942", "gfx1030"])
def test_nanosleep_and_clock_build_where_no_realtime_message_exists(arch, tmp_path):
    """gfx9 and gfx10 read the real-time counter with s_memrealtime: gfx11's message is not an
    instruction there (cass_ptx::realtime)."""
    source = tmp_path / "sleep.cu"
    source.write_text("#include <cstdio>\n"
                      "__global__ void k(long long* p) {\n  long long t0;\n"
                      "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t0));\n"
                      "  __nanosleep(100);\n  long long t1;\n"
                      "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t1));\n  p[0] = t1 >= t0;\n}\n"
                      "int main() {\n  long long* p;\n  cudaMalloc(&p, 8);\n  k<<<1, 32>>>(p);\n  long long h = 0;\n"
                      "  cudaMemcpy(&h, p, 8, cudaMemcpyDeviceToHost);\n  printf(\"%lld\\n\", h);\n  return 0;\n}\n")
    exe = tmp_path / "sleep"
    built = run_tool("cass-nvcc", "-O2", "--cass-route=source", f"--cass-offload-arch={arch}", "-o", str(exe),
                     str(source), cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-3000:]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.returncode == 0 and run.stdout == "1\n", run.stdout + run.stderr


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["gfx1201", "gfx1100", "gfx942"])
def test_grid_sync_with_and_without_gws(arch, tmp_path):
    """HIP's grid barrier is ds_gws_barrier, which gfx12 lacks (LLVM: 'Cannot select: intrinsic
    llvm.amdgcn.ds.gws.barrier'); there cass_grid_sync.h's barrier over a global word takes its
    place, and the others keep GWS. Blocks of unequal work, two kernels of different grid sizes
    sharing the word: the H200's output on each."""
    exe, built = _build(tmp_path, "grid_sync", arch)
    assert built.returncode == 0, built.stderr[-3000:]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert run.stdout == (REALWORLD / "grid_sync" / "reference.txt").read_text()


@pytest.mark.slow
def test_grid_sync_without_gws_over_a_2d_grid_and_many_rounds(tmp_path):
    """cass_grid_sync.h's barrier on gfx1201 with a 3x2 grid of 128-thread blocks (four waves
    each), 25 rounds in which the blocks spin for different times before the barrier, each
    element reading one written by another block in the round before, two launches: a barrier
    that let a block run ahead, or lost the word's state between rounds and launches, reads stale
    values (one that does not wait gets 1535 of 1536 wrong)."""
    source = tmp_path / "rounds.cu"
    source.write_text(
        "#include <cstdio>\n#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
        "__global__ void rounds(int* a, int* b, int n, int r, int* work) {\n"
        "  cg::grid_group g = cg::this_grid();\n"
        "  for (int k = 0; k < r; ++k) {\n"
        "    int extra = 0;\n"
        "    for (int s = 0; s < (int)((blockIdx.x + 2 * blockIdx.y + k) % 5) * 60; ++s) extra += s & 1;\n"
        "    if (threadIdx.x == 0) atomicAdd(work, extra);\n"
        "    for (int i = g.thread_rank(); i < n; i += g.size()) b[i] = (a[i] * 3 + a[(i + 200) % n]) % 10007;\n"
        "    g.sync();\n    int* t = a; a = b; b = t;\n  }\n}\n"
        "int main() {\n  const int n = 768, r = 25;\n  int h[n], ref[n], tmp[n], *a, *b;\n"
        "  for (int i = 0; i < n; ++i) ref[i] = h[i] = i * 37 % 101;\n"
        "  int* work;\n  cudaMalloc(&a, sizeof h); cudaMalloc(&b, sizeof h); cudaMalloc(&work, sizeof(int));\n  int bad = 0;\n"
        "  for (int launch = 0; launch < 2; ++launch) {\n"
        "    cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);\n"
        "    int nn = n, rr = r;\n    void* args[] = {&a, &b, &nn, &rr, &work};\n"
        "    if (cudaLaunchCooperativeKernel((void*)rounds, dim3(3, 2), dim3(128), args, 0, 0) != cudaSuccess) bad++;\n"
        "    int out[n];\n    cudaMemcpy(out, r % 2 ? b : a, sizeof out, cudaMemcpyDeviceToHost);\n"
        "    for (int i = 0; i < n; ++i) ref[i] = h[i];\n"
        "    for (int k = 0; k < r; ++k) {\n"
        "      for (int i = 0; i < n; ++i) tmp[i] = (ref[i] * 3 + ref[(i + 200) % n]) % 10007;\n"
        "      for (int i = 0; i < n; ++i) ref[i] = tmp[i];\n    }\n"
        "    for (int i = 0; i < n; ++i) bad += out[i] != ref[i];\n  }\n"
        "  printf(\"%d wrong\\n\", bad);\n  return bad != 0;\n}\n")
    exe = tmp_path / "rounds"
    built = run_tool("cass-nvcc", "-O2", "--cass-route=source", "--cass-offload-arch=gfx1201", "-o", str(exe),
                     str(source), cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-3000:]
    run = run_tool("cass-run", str(exe), cwd=tmp_path)
    assert run.returncode == 0 and run.stdout == "0 wrong\n", run.stdout + run.stderr
