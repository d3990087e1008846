"""Building test kernels with the real tools: gfx1100 assembly (llvm-mc-22 + ld.lld-22) and HIP
(hipcc for gfx1100, device code only, unbundled to a code object)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from cass_cc import toolchain

HERE = Path(__file__).resolve().parent


def asm_kernel(name: str, body: str, args: list[tuple[str, int, int, str]], *, vgprs: int = 32,
               sgprs: int = 32, lds: int = 0, scratch: int = 0, workitem_ids: int = 0) -> str:
    """A complete .s for one kernel: s[0:1] = kernarg pointer, s2 = workgroup id x,
    v0 = work-item ids (x | y << 10 | z << 20). args: (name, offset, size, value_kind)."""
    meta_args = "".join(f"      - .name: {a}\n        .offset: {o}\n        .size: {s}\n        .value_kind: {k}\n"
                        + ("        .address_space: global\n" if k == "global_buffer" else "")
                        for a, o, s, k in args)
    kernarg = max((o + s for _, o, s, _ in args), default=0)
    return f"""\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
\t.amdhsa_code_object_version 5
\t.text
\t.globl {name}
\t.p2align 8
\t.type {name},@function
{name}:
{body}
\ts_endpgm
.Lfunc_end_{name}:
\t.size {name}, .Lfunc_end_{name}-{name}
\t.rodata
\t.p2align 6
\t.amdhsa_kernel {name}
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_next_free_vgpr {vgprs}
\t\t.amdhsa_next_free_sgpr {sgprs}
\t\t.amdhsa_group_segment_fixed_size {lds}
\t\t.amdhsa_private_segment_fixed_size {scratch}
\t\t.amdhsa_enable_private_segment {1 if scratch else 0}
\t\t.amdhsa_system_vgpr_workitem_id {workitem_ids}
\t\t.amdhsa_wavefront_size32 1
\t\t.amdhsa_kernarg_size {kernarg}
\t.end_amdhsa_kernel
\t.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: {name}
    .symbol: {name}.kd
    .kernarg_segment_size: {kernarg}
    .kernarg_segment_align: 8
    .group_segment_fixed_size: {lds}
    .private_segment_fixed_size: {scratch}
    .wavefront_size: 32
    .sgpr_count: {sgprs}
    .vgpr_count: {vgprs}
    .max_flat_workgroup_size: 1024
    .args:
{meta_args if args else "      []"}
...
\t.end_amdgpu_metadata
"""


def assemble(source: str) -> bytes:
    """llvm-mc-22 + ld.lld-22 -shared: a gfx1100 code object."""
    with tempfile.TemporaryDirectory(prefix="cass-emu-test-") as tmp:
        s, o, co = (os.path.join(tmp, n) for n in ("k.s", "k.o", "k.hsaco"))
        Path(s).write_text(source)
        _run([toolchain.path("llvm-mc"), "--triple=amdgcn-amd-amdhsa", "--mcpu=gfx1100", "-filetype=obj", s, "-o", o])
        _run([toolchain.path("ld.lld"), "-shared", o, "-o", co])
        return Path(co).read_bytes()


def compile_hip(source: Path, extra: tuple[str, ...] = ()) -> bytes:
    """hipcc --offload-arch=gfx1100 device code of a .hip file, as a code object."""
    with tempfile.TemporaryDirectory(prefix="cass-emu-hip-") as tmp:
        bundle, co = os.path.join(tmp, "k.o"), os.path.join(tmp, "k.hsaco")
        _run([toolchain.path("hipcc"), "--offload-arch=gfx1100",
              f"--rocm-device-lib-path={toolchain.rocm_device_lib_path('gfx1100')}",
              "--cuda-device-only", "-O2", "-c", *extra, str(source), "-o", bundle], env=toolchain.hip_environment())
        _run([toolchain.path("clang-offload-bundler"), "--unbundle", "--type=o", f"--input={bundle}",
              "--targets=hipv4-amdgcn-amd-amdhsa--gfx1100", f"--output={co}"])
        return Path(co).read_bytes()


def _run(cmd, env=None):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed:\n{proc.stderr}")
