"""Completing a model's answer into an assemblable gfx1100 code-object source.

A model may answer with a whole assembly file (the `.amdhsa_kernel` descriptor and the
`.amdgpu_metadata` included) or with the kernel's body only. A body gets the descriptor and the
metadata of the CUDA kernel it stands for: the CUDA parameter layout from the cubin (every parameter
an explicit by-value argument at CUDA's offset, so `void** args` pass unchanged, as the lifter's
code objects declare it), code object v5 hidden arguments after them, the static shared memory and
the launch bounds. The body is taken to follow the register layout of LLVM's gfx1100 kernels, which
is what hipcc-built training pairs show: the kernarg segment pointer in s[0:1], the work-group ids
x/y/z in s15/s16/s17 (15 user SGPRs), the work-item ids packed in v0 (x | y << 10 | z << 20)."""

from __future__ import annotations

import re

from ..errors import FailedCheck

USER_SGPRS = 15
FIRST_FREE_SGPR = USER_SGPRS + 3           # after the three work-group ids
HIDDEN_V5 = [("hidden_block_count_x", 0, 4), ("hidden_block_count_y", 4, 4), ("hidden_block_count_z", 8, 4),
             ("hidden_group_size_x", 12, 2), ("hidden_group_size_y", 14, 2), ("hidden_group_size_z", 16, 2),
             ("hidden_remainder_x", 18, 2), ("hidden_remainder_y", 20, 2), ("hidden_remainder_z", 22, 2),
             ("hidden_global_offset_x", 40, 8), ("hidden_global_offset_y", 48, 8),
             ("hidden_global_offset_z", 56, 8), ("hidden_grid_dims", 64, 2)]
HIDDEN_SIZE = 256                          # LLVM's code object v5 implicit-argument block

_READS_FILES = re.compile(r"^\s*\.(include|incbin)\b", re.M | re.I)
_KERNEL_DIRECTIVE = re.compile(r"^\s*\.amdhsa_kernel\s+(\S+)", re.M)
_VREG = re.compile(r"\bv(?:(\d+)\b|\[(\d+):(\d+)\])")
_SREG = re.compile(r"\bs(?:(\d+)\b|\[(\d+):(\d+)\])")
_LABEL = re.compile(r"^\s*([.\w$]+):")


def complete_source(asm: str, unit) -> str:
    """`asm` as a whole code-object source for `unit`'s kernel (unchanged when it is one already)."""
    reads = _READS_FILES.search(asm)
    if reads:   # an answer must not pull this machine's files into the user's program
        raise FailedCheck(f"the model's assembly reads files (.{reads.group(1).lower()}), which is never accepted")
    defined = _KERNEL_DIRECTIVE.findall(asm)
    if defined:
        if unit.name not in defined:
            raise FailedCheck(f"the model's assembly defines kernel '{defined[0]}', expected '{unit.name}'")
        return asm
    return _wrap_body(_body_lines(asm, unit.name), unit)


def _body_lines(asm: str, name: str) -> list[str]:
    """Instructions and local labels; directives, comments and the kernel's own label dropped."""
    lines = []
    for raw in asm.splitlines():
        line = raw.split(";", 1)[0].split("//", 1)[0].rstrip()
        if not line.strip():
            continue
        label = _LABEL.match(line)
        if label:
            if label.group(1) != name:
                lines.append(f"{label.group(1)}:")
            continue
        if line.lstrip().startswith("."):
            continue
        lines.append("\t" + line.strip())
    if not any(not l.endswith(":") for l in lines):
        raise FailedCheck("the model's answer holds no instructions")
    return lines


def _next_free(pattern: re.Pattern, text: str) -> int:
    top = -1
    for single, _first, last in pattern.findall(text):
        top = max(top, int(single or last))
    return top + 1


def _launch_bound(kernel) -> int:
    threads = 1
    for d in getattr(kernel, "reqntid", None) or getattr(kernel, "max_threads", None) or (1024,):
        threads *= max(d, 1)
    return min(threads, 1024)


def _arguments(kernel) -> tuple[list[str], int]:
    """Metadata argument entries and the kernarg segment size."""
    params = sorted((tuple(p)[:3] for p in getattr(kernel, "params", [])), key=lambda p: p[1])
    entries = [f"      - .name: arg{index}\n        .offset: {offset}\n        .size: {size}\n"
               f"        .value_kind: by_value\n" for index, offset, size in params]
    end = max((offset + size for _i, offset, size in params), default=0)
    base = (end + 7) // 8 * 8
    entries += [f"      - .offset: {base + offset}\n        .size: {size}\n        .value_kind: {kind}\n"
                for kind, offset, size in HIDDEN_V5]
    return entries, base + HIDDEN_SIZE


def _wrap_body(lines: list[str], unit) -> str:
    name, kernel = unit.name, unit.kernel
    body = "\n".join(lines)
    if not lines[-1].strip().startswith("s_endpgm"):
        body += "\n\ts_endpgm"
    vgprs = max(_next_free(_VREG, body), 1)
    sgprs = max(_next_free(_SREG, body), FIRST_FREE_SGPR)
    lds = getattr(kernel, "static_shared_size", 0)
    args, kernarg_size = _arguments(kernel)
    threads = _launch_bound(kernel)
    return f"""\t.amdgcn_target "amdgcn-amd-amdhsa--{unit.offload_arch}"
\t.amdhsa_code_object_version 5
\t.text
\t.globl {name}
\t.p2align 8
\t.type {name},@function
{name}:
{body}
.Lcass_model_end:
\t.size {name}, .Lcass_model_end-{name}
\t.section .rodata,"a",@progbits
\t.p2align 6
\t.amdhsa_kernel {name}
\t\t.amdhsa_group_segment_fixed_size {lds}
\t\t.amdhsa_private_segment_fixed_size 0
\t\t.amdhsa_kernarg_size {kernarg_size}
\t\t.amdhsa_user_sgpr_count {USER_SGPRS}
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_wavefront_size32 1
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t\t.amdhsa_system_sgpr_workgroup_id_y 1
\t\t.amdhsa_system_sgpr_workgroup_id_z 1
\t\t.amdhsa_system_vgpr_workitem_id 2
\t\t.amdhsa_next_free_vgpr {vgprs}
\t\t.amdhsa_next_free_sgpr {sgprs}
\t\t.amdhsa_float_denorm_mode_32 3
\t\t.amdhsa_float_denorm_mode_16_64 3
\t\t.amdhsa_dx10_clamp 1
\t\t.amdhsa_ieee_mode 1
\t.end_amdhsa_kernel
\t.text
\t.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--{unit.offload_arch}
amdhsa.kernels:
  - .name: {name}
    .symbol: {name}.kd
    .kernarg_segment_size: {kernarg_size}
    .kernarg_segment_align: 8
    .group_segment_fixed_size: {lds}
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: {sgprs}
    .vgpr_count: {vgprs}
    .max_flat_workgroup_size: {threads}
    .args:
{"".join(args)}...
\t.end_amdgpu_metadata
"""
