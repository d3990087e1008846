"""HIP programs built by hipcc for gfx1100 and run unmodified under cass-run on the emulator;
each checks its own result and prints PASS. Where a program has a CUDA twin (main.cu) whose
output on NVIDIA hardware was recorded (reference.txt), the checksums must agree."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from cass_cc import toolchain
from cass_cc.errors import ToolMissing
from cass_cc.runtime import environment
from tests.conftest import run_tool

from .conftest import HIP_PROGRAMS, OFFLOAD_ARCH, cass_run, hipcc

SELF_CHECKING = [
    "vector_add", "reduce_lds", "warp_shuffle", "scan_ballot", "atomics", "matmul_tiled",
    "stencil_double", "math_ulp", "dynamic_shared", "streams_events", "grid_3d", "templates",
    "spills_calls", "memcpy_symbol", "api_basics", "managed_memory", "host_threads",
    "per_thread_stream", "launch_apis", "graph_capture",
]


@pytest.mark.slow
@pytest.mark.parametrize("name", SELF_CHECKING)
def test_program_passes(hip_program, name):
    proc = cass_run(hip_program(name), "--emulate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "PASS" and lines[-2].startswith("checksum: ")
    assert "cass-run:" not in proc.stderr
    reference = HIP_PROGRAMS / name / "reference.txt"  # the CUDA twin's output on NVIDIA hardware
    if reference.exists():
        expected = [l for l in reference.read_text().splitlines() if l.startswith("checksum: ")]
        assert lines[-2] == expected[-1], f"emulated {lines[-2]!r}, NVIDIA {expected[-1]!r}"


# built for CDNA2 (wave64) and RDNA2: the programs whose results do not depend on the wave size
OTHER_TARGET_PROGRAMS = ["vector_add", "reduce_lds", "matmul_tiled", "stencil_double", "math_ulp", "grid_3d",
                         "spills_calls", "templates", "dynamic_shared", "graph_capture"]


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["gfx90a", "gfx1030"])
@pytest.mark.parametrize("name", OTHER_TARGET_PROGRAMS)
def test_program_passes_on_cdna2_and_rdna2(hip_program, name, arch):
    proc = cass_run(hip_program(name, arch), "--emulate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "PASS"
    reference = HIP_PROGRAMS / name / "reference.txt"
    if reference.exists():
        expected = [l for l in reference.read_text().splitlines() if l.startswith("checksum: ")]
        assert lines[-2] == expected[-1], f"emulated {lines[-2]!r}, NVIDIA {expected[-1]!r}"


@pytest.mark.slow
def test_emu_arch_picks_the_device_for_loaded_modules(hip_program):
    """module_api's program has no kernels of its own: the device is gfx1100 unless --emu-arch
    says otherwise, and a gfx90a module needs a gfx90a device."""
    folder = hip_program("module_api", "gfx90a")
    refused = cass_run(folder, "--emulate")
    assert refused.returncode != 0 and "no gfx1100 code object" in refused.stderr
    proc = cass_run(folder, "--emu-arch", "gfx90a")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "PASS"


@pytest.mark.slow
def test_module_api(hip_program):
    folder = hip_program("module_api")
    proc = cass_run(folder, "--emulate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "PASS"


@pytest.mark.slow
def test_device_printf_keeps_order_with_host_output(hip_program):
    proc = cass_run(hip_program("device_printf"), "--emulate")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    device = [f"device thread {i} value {i * 1.5:.2f} tag ok" for i in range(4)]
    assert lines[0] == "host before"
    assert sorted(lines[1:5]) == device
    assert lines[5:] == ["host after", "checksum: 4", "PASS"]


@pytest.mark.slow
def test_unsupported_api_is_named_once_and_fails(hip_program):
    proc = cass_run(hip_program("unsupported_api"), "--emulate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "PASS"
    message = "cass-run: hipBindTextureToMipmappedArray is not supported by the emulated runtime"
    assert proc.stderr.count(message) == 1
    assert proc.stderr.count("cass-run: hipIpcGetMemHandle is not supported") == 1


@pytest.mark.slow
def test_out_of_bounds_store_is_reported_and_exits_134(hip_program):
    proc = cass_run(hip_program("fault_oob"), "--emulate")
    assert proc.returncode == 134
    assert proc.stdout == "launching\n"
    report = proc.stderr.strip().splitlines()[-1]
    assert report.startswith("cass-run: kernel '_Z7overrunPil' pc 0x")
    assert "global_store" in report and "lane 0" in report and "outside every allocation" in report


@pytest.mark.slow
def test_instruction_budget_is_reported_and_exits_134(hip_program):
    proc = cass_run(hip_program("fault_budget"), "--emulate",
                    env_extra={"CASS_EMU_MAX_INSTRUCTIONS": "20000"})
    assert proc.returncode == 134
    assert proc.stdout == "launching\n"
    report = proc.stderr.strip().splitlines()[-1]
    assert report.startswith("cass-run: kernel '_Z4spinPViPi' pc 0x")
    assert "budget" in report and "CASS_EMU_MAX_INSTRUCTIONS" in report


@pytest.mark.slow
def test_unimplemented_instruction_is_named_and_exits_134(hip_program):
    proc = cass_run(hip_program("fault_unimplemented"), "--emulate")
    assert proc.returncode == 134
    assert proc.stdout == "launching\n"
    report = proc.stderr.strip().splitlines()[-1]
    assert report.startswith("cass-run: kernel '_Z6samplePf' pc 0x")
    assert "'image_load v[0:3], v0, s[0:7]" in report and "not implemented" in report


@pytest.mark.slow
def test_emu_stats_json(hip_program, tmp_path):
    stats_file = tmp_path / "stats.json"
    proc = cass_run(hip_program("stencil_double"), "--emu-stats", str(stats_file))
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(stats_file.read_text())
    assert stats["exit_status"] == 0 and stats["program"].endswith("prog")
    launches = stats["launches"]
    assert len(launches) == 2 == stats["totals"]["launches"]
    for launch in launches:
        assert launch["kernel"] == "_Z6jacobiPKdPdii"
        assert launch["grid"] == [3, 3, 1] and launch["block"] == [8, 8, 1]
        assert launch["wave_instructions"] > 0
        assert launch["lane_instructions"] >= launch["wave_instructions"]
        assert sum(launch["opcode_counts"].values()) == launch["wave_instructions"]
        assert any(op.startswith("v_fma_f64") or op.startswith("v_add_f64") for op in launch["opcode_counts"])
        assert launch["seconds"] > 0
    assert stats["totals"]["wave_instructions"] == sum(l["wave_instructions"] for l in launches)


@pytest.mark.slow
def test_emu_stats_written_when_the_program_faults(hip_program, tmp_path):
    stats_file = tmp_path / "stats.json"
    proc = cass_run(hip_program("fault_oob"), "--emu-stats", str(stats_file))
    assert proc.returncode == 134
    stats = json.loads(stats_file.read_text())
    assert stats["exit_status"] == 134 and stats["launches"] == []


@pytest.mark.slow
def test_program_without_gfx1100_code_says_so(hip_program):
    proc = cass_run(hip_program("vector_add", offload_arch="gfx1101"), "--emulate")
    assert proc.returncode == 1
    assert "no gfx1100 code object in the program (it has: gfx1101)" in proc.stderr
    assert "--offload-arch=gfx1100" in proc.stderr
    assert "no kernel image is available for execution on the device" in proc.stdout


@pytest.mark.slow
def test_dt_rpath_to_rocm_does_not_bypass_the_emulator(tmp_path):
    """An old-style DT_RPATH to a folder with ROCm's real libamdhip64 is searched before
    LD_LIBRARY_PATH; cass-run preloads the emulated one so the program still runs on it."""
    try:
        real = toolchain.libamdhip64()
    except ToolMissing as e:
        pytest.skip(str(e))
    rocm = tmp_path / "rocm"
    rocm.mkdir()
    shutil.copy(os.path.realpath(real), rocm / "libamdhip64.so.5")
    hipcc(["-Wl,--disable-new-dtags", f"-Wl,-rpath,{rocm}", "-o", str(tmp_path / "prog"),
            str(HIP_PROGRAMS / "vector_add" / "main.hip")], tmp_path, OFFLOAD_ARCH)
    assert environment.has_dt_rpath(str(tmp_path / "prog"))
    proc = cass_run(tmp_path, "--emulate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "PASS"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["vector_add", "warp_shuffle"])
def test_cuda_twin_through_cass_nvcc_matches_the_hip_build(hip_program, tmp_path, name):
    """End to end: the CUDA twin built by cass-nvcc's binary route (SASS lifted to RDNA3,
    linked against libcassrt, which calls the HIP API) runs on the emulated runtime and prints
    the same checksum as the hipcc build of the HIP program."""
    build = run_tool("cass-nvcc", "--cass-route=binary", "-O2", "-o", str(tmp_path / "prog"),
                     str(HIP_PROGRAMS / name / "main.cu"), cwd=tmp_path)
    assert build.returncode == 0, build.stderr
    cuda = cass_run(tmp_path, "--emulate")
    hip = cass_run(hip_program(name), "--emulate")
    assert cuda.returncode == 0 and hip.returncode == 0, cuda.stdout + cuda.stderr
    assert cuda.stdout.splitlines()[-2:] == hip.stdout.splitlines()[-2:]
    assert cuda.stdout.splitlines()[-1] == "PASS"
