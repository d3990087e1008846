"""Building test kernels with the real tools: gfx1100 assembly (llvm-mc-22 + ld.lld-22) and HIP
(hipcc for gfx1100, device code only, unbundled to a code object)."""

from __future__ import annotations

import os
import struct
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from cass_cc import toolchain
from cass_cc.emu import CodeObject, Memory, launch

HERE = Path(__file__).resolve().parent
KERNELS = HERE / "kernels"


def asm_kernel(name: str, body: str, args: list[tuple[str, int, int, str]], *, vgprs: int = 32,
               sgprs: int = 32, lds: int = 0, scratch: int = 0, workitem_ids: int = 0,
               dispatch_ptr: bool = False, descriptor: str = "", arch: str = "gfx1100") -> str:
    """A complete .s for one kernel: s[0:1] = kernarg pointer, s2 = workgroup id x,
    v0 = work-item ids (x | y << 10 | z << 20); with dispatch_ptr, s[0:1] = dispatch packet,
    s[2:3] = kernarg pointer, s4 = workgroup id x. args: (name, offset, size, value_kind);
    descriptor: more .amdhsa_* directives (one per line)."""
    meta_args = "".join(f"      - .name: {a}\n        .offset: {o}\n        .size: {s}\n        .value_kind: {k}\n"
                        + ("        .address_space: global\n" if k == "global_buffer" else "")
                        for a, o, s, k in args)
    kernarg = max((o + s for _, o, s, _ in args), default=0)
    return f"""\t.amdgcn_target "amdgcn-amd-amdhsa--{arch}"
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
\t\t.amdhsa_user_sgpr_dispatch_ptr {int(dispatch_ptr)}
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_next_free_vgpr {vgprs}
\t\t.amdhsa_next_free_sgpr {sgprs}
\t\t.amdhsa_group_segment_fixed_size {lds}
\t\t.amdhsa_private_segment_fixed_size {scratch}
\t\t.amdhsa_enable_private_segment {1 if scratch else 0}
\t\t.amdhsa_system_vgpr_workitem_id {workitem_ids}
\t\t.amdhsa_wavefront_size32 1
\t\t.amdhsa_kernarg_size {kernarg}
{descriptor}
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


def assemble(source: str, arch: str = "gfx1100") -> bytes:
    """llvm-mc-22 + ld.lld-22 -shared: a code object for arch (gfx1100 by default)."""
    with tempfile.TemporaryDirectory(prefix="cass-emu-test-") as tmp:
        s, o, co = (os.path.join(tmp, n) for n in ("k.s", "k.o", "k.hsaco"))
        Path(s).write_text(source)
        _run([toolchain.path("llvm-mc"), "--triple=amdgcn-amd-amdhsa", f"--mcpu={arch}", "-filetype=obj", s, "-o", o])
        _run([toolchain.path("ld.lld"), "-shared", o, "-o", co])
        return Path(co).read_bytes()


def compile_hip(source: Path, extra: tuple[str, ...] = (), arch: str = "gfx1100") -> bytes:
    """hipcc --offload-arch=<arch> device code of a .hip file, as a code object."""
    with tempfile.TemporaryDirectory(prefix="cass-emu-hip-") as tmp:
        bundle, co = os.path.join(tmp, "k.o"), os.path.join(tmp, "k.hsaco")
        _run([toolchain.path("hipcc"), f"--offload-arch={arch}",
              f"--rocm-device-lib-path={toolchain.rocm_device_lib_path(arch)}",
              "--cuda-device-only", "-O2", "-c", *extra, str(source), "-o", bundle],
             env=toolchain.hip_environment(temp_dir=tmp))
        _run([toolchain.path("clang-offload-bundler"), "--unbundle", "--type=o", f"--input={bundle}",
              f"--targets=hipv4-amdgcn-amd-amdhsa--{arch}", f"--output={co}"])
        return Path(co).read_bytes()

def llc_code_object(ir: str, arch: str) -> bytes:
    """LLVM IR -> a code object for any processor LLVM knows (llc-22, then ld.lld-22): kernels
    for targets the lifter does not build for (wave64 CDNA, RDNA2)."""
    with tempfile.TemporaryDirectory(prefix="cass-llc-") as tmp:
        src, obj, out = (os.path.join(tmp, n) for n in ("k.ll", "k.o", "k.hsaco"))
        Path(src).write_text(ir)
        _run([toolchain.path("llc"), "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={arch}", "-O2", "-filetype=obj",
              src, "-o", obj])
        _run([toolchain.path("ld.lld"), "-shared", obj, "-o", out])
        return Path(out).read_bytes()


class Device:
    """An emulated device: Memory plus helpers tests use to move arrays and launch kernels."""

    def __init__(self, code: bytes):
        self.mem = Memory()
        self.co = CodeObject.load(code, self.mem)

    def upload(self, array: np.ndarray) -> int:
        raw = np.ascontiguousarray(array).view(np.uint8).reshape(-1)
        addr = self.mem.allocate(raw.size)
        self.mem.view(addr, raw.size)[:] = raw
        return addr

    def zeros(self, count: int, dtype) -> int:
        return self.mem.allocate(count * np.dtype(dtype).itemsize)

    def download(self, addr: int, count: int, dtype) -> np.ndarray:
        return self.mem.view(addr, count * np.dtype(dtype).itemsize).view(dtype).copy()

    def args(self, kernel: str, *values) -> bytes:
        """Explicit arguments packed at the offsets the kernel's metadata gives."""
        info = self.co.kernels[kernel]
        explicit = [a for a in info.args if not a.value_kind.startswith("hidden_")]
        assert len(explicit) == len(values), [a.value_kind for a in explicit]
        out = bytearray(max((a.offset + a.size for a in explicit), default=0))
        for arg, value in zip(explicit, values):
            if isinstance(value, float):
                raw = struct.pack("<d" if arg.size == 8 else "<f", value)
            else:
                raw = int(value).to_bytes(arg.size, "little", signed=int(value) < 0)
            out[arg.offset:arg.offset + arg.size] = raw
        return bytes(out)

    def run(self, kernel: str, grid, block, *values, **kw):
        return launch(self.co, kernel, grid, block, self.args(kernel, *values), memory=self.mem, **kw)



def asm_device(body: str, npointers: int = 1, **kw) -> Device:
    """A Device holding kernel 'k': `npointers` buffer arguments loaded into s[4:5], s[6:7], ...
    and v1 = 4 * thread id x, then `body`."""
    loads = "".join(f"  s_load_b64 s[{4 + 2 * i}:{5 + 2 * i}], s[0:1], {8 * i:#x}\n" for i in range(npointers))
    prologue = loads + "  s_waitcnt lgkmcnt(0)\n  v_and_b32 v1, 0x3ff, v0\n  v_lshlrev_b32 v1, 2, v1\n"
    args = [(f"p{i}", 8 * i, 8, "global_buffer") for i in range(npointers)]
    return Device(assemble(asm_kernel("k", prologue + body, args, **kw)))


def _run(cmd, env=None):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed:\n{proc.stderr}")
