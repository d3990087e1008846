"""Programs of other groups that the source route builds since hipify translates inline PTX,
brings the device heap and the intrinsics HIP 5.2 lacks, and the emulator reads hipcc 5.2's
permlane encoding: built with
`cass-nvcc --cass-route=source`, run under cass-run, checksums equal to the H200's where recorded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "tests" / "programs"
pytestmark = pytest.mark.slow

CASES = {
    "bench/crypto/murmur_ptx_rotl": "inline PTX shf.l.wrap",
    "bench/primitives/compact_ballot": "inline PTX %laneid",
    "bench/signal/fft_radix2_ptx": "inline PTX brev",
    "sass/bits_lut_prmt": "inline PTX prmt modes, bmsk, szext",
    "realworld/block_votes": "hipcc 5.2's v_permlanex16_b32 with stray ABS/NEG bits",
    "realworld/device_malloc": "device malloc/free through cass_device_heap.h",
    "realworld/simd_intrinsics": "SIMD video intrinsics, dp2a, CUDA's integer __hadd/__rhadd, __sad",
    "realworld/atomics_wide": "__half2's x and y are __half (the HIP header overlay)",
    "realworld/vector_io": "char4/short2/ushort4/uchar2 element arithmetic",
    "realworld/dpx_align": "DPX intrinsics",
    "sass/half_bf16": "__double2half, rounded half conversions",
    "sass/mma_shapes": "inline PTX mma.sync shapes and wmma m8n8k4 double",
    "sass/bitfield_ptx": "__fns, inline PTX vabsdiff4",
    "sass/double_ops": "unfused __dmul_rn/__dsub_rn, isnan in __host__ __device__ code",
    "sass/rounding_modes": "directed double arithmetic that overflows, saturating float-to-integer",
    "realworld/pipeline_block_tiles": "cuda::pipeline at block scope, stages and roles (cass_cuda_pipeline.h)",
    "realworld/pipeline_thread": "cuda::pipeline<thread_scope_thread>, pipeline_consumer_wait_prior",
    "realworld/barrier_memcpy_async": "cuda::barrier with cuda::memcpy_async (cass_cuda_barrier.h)",
    "realworld/barrier_phases": "cuda::barrier phases: tokens, arrive(n), arrive_and_drop, completion",
    "realworld/cg_tile_reduce": "tile ballot/any/all/match_any (cass_cg_extras.h)",
    "realworld/cg_tile_sizes": "tiles of 1..32 lanes: wrapping shuffles, match_all, scans; dynamic tiles",
    "realworld/cg_coalesced": "coalesced groups as lane sets: packed ballot/match, tiled/labeled partitions",
    "realworld/cg_big_tiles": "tiles of 64 and 128 threads, block_tile_memory",
}


def _tool(name: str, *args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bin" / name), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=dict(os.environ))


def _checksum(text: str) -> str | None:
    lines = [line for line in text.splitlines() if line.startswith("checksum:")]
    return lines[-1].split(":", 1)[1].strip() if lines else None


@pytest.mark.parametrize("program", sorted(CASES))
def test_program_passes_on_the_source_route(program, tmp_path):
    folder = PROGRAMS / program
    flags = (folder / "flags.txt").read_text().split() if (folder / "flags.txt").is_file() else []
    args = (folder / "args.txt").read_text().split() if (folder / "args.txt").is_file() else []
    exe = tmp_path / "prog"
    built = _tool("cass-nvcc", "-O2", "--cass-route=source", *flags, "-o", exe,
                  *sorted(folder.glob("*.cu")), *sorted(folder.glob("*.cpp")), cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-3000:]
    assert "inline PTX is not translated" not in built.stderr
    run = _tool("cass-run", exe, *args, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("PASS"), run.stdout[-2000:] + run.stderr
    reference = folder / "reference.txt"
    if reference.is_file():
        assert _checksum(run.stdout) == _checksum(reference.read_text())
