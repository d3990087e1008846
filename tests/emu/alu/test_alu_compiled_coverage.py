"""Every ALU mnemonic that hipcc (ROCm 5.2, clang 15) emits for a spread of real kernels is in
the tables: kernels/coverage.hip is compiled for gfx1100, disassembled with llvm-objdump-22,
and each instruction that is not memory, control or cross-lane (the core's own families) must
have an Op."""
from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from cass_cc import toolchain
from cass_cc.emu.alu import SCALAR_OPS, VECTOR_OPS

KERNELS = Path(__file__).parent / "kernels" / "coverage.hip"
# Families the emulator core implements itself: memory, control flow, waits, EXEC updates
# (s_*_saveexec), and the lane-crossing moves.
CORE_FAMILIES = re.compile(
    r"^(global_|flat_|ds_|buffer_|scratch_|s_load_|s_buffer_load_|s_waitcnt|s_delay_alu|s_clause|s_nop|"
    r"s_endpgm|s_cbranch_|s_branch|s_barrier|s_setpc|s_swappc|s_getpc|s_sendmsg|s_sleep|s_setprio|"
    r"s_\w+_saveexec_|s_\w+_wrexec_|s_getreg|s_setreg|s_denorm_mode|s_round_mode|s_code_end|s_trap|"
    r"s_inst_prefetch|s_set_inst_prefetch|s_icache|s_dcache|v_readfirstlane|v_readlane|v_writelane|"
    r"v_permlane|v_nop|\.\.\.$)")


@pytest.fixture(scope="module")
def disassembly() -> str:
    with tempfile.TemporaryDirectory() as tmp:
        code_object = Path(tmp) / "coverage.hsaco"
        subprocess.run([toolchain.path("hipcc"), "--offload-arch=gfx1100",
                        f"--rocm-device-lib-path={toolchain.rocm_device_lib_path('gfx1100')}",
                        "-O3", "--cuda-device-only", "--no-gpu-bundle-output", "-c", str(KERNELS),
                        "-o", str(code_object)],
                       env=toolchain.hip_environment(temp_dir=tmp), check=True, capture_output=True, timeout=300)
        return subprocess.run([toolchain.path("llvm-objdump"), "-d", "--mcpu=gfx1100", str(code_object)],
                              check=True, capture_output=True, text=True, timeout=60).stdout


def mnemonics(text: str) -> set[str]:
    """Instruction names of a disassembly, without encoding suffixes; VOPD pairs split."""
    found = set()
    for line in text.splitlines():
        if not line.startswith("\t") or line.startswith("\t."):
            continue
        for half in line.split("//")[0].split("::"):
            if half.strip():
                name = re.sub(r"_(e32|e64|dpp|sdwa)$", "", half.split()[0])
                found.add(re.sub(r"^v_dual_", "v_", name))
    return found


def test_compiled_kernels_use_only_tabled_alu_ops(disassembly):
    names = mnemonics(disassembly)
    alu = {n for n in names if not CORE_FAMILIES.match(n)}
    assert len(alu) > 80, f"the disassembly looks too small to mean anything: {sorted(names)}"
    missing = sorted(n for n in alu if n not in VECTOR_OPS and n not in SCALAR_OPS)
    assert not missing, f"ALU instructions hipcc emits that the tables lack: {missing}"
