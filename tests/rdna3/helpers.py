"""A hand-written LLVM kernel with the lifter's ABI, for testing the back end on its own."""

from __future__ import annotations

from cass_cc.fatbin import Cubin
from cass_cc.unit import KernelUnit

from tests.sass.compiled import KERNELS, compile_cu

BY_VALUE = "_Z8by_value3BigcsxPf"   # by_value(Big s, char c, short h, long long l, float *out)


def by_value_ir(short_type: str = "i16", bounds: str = "1,1024") -> str:
    """out[0] = s.a[0] + c + h + l + dev_scale, with CUDA's parameter offsets 0/40/42/48/56."""
    return f"""
target triple = "amdgcn-amd-amdhsa"
@dev_scale = external addrspace(1) global [4 x i8]

define amdgpu_kernel void @{BY_VALUE}(ptr addrspace(4) byref([40 x i8]) align 8 %s, i8 %c,
                                       {short_type} %h, i64 %l, ptr addrspace(1) %out) #0 {{
  %a0 = load i32, ptr addrspace(4) %s, align 8
  %c32 = sext i8 %c to i32
  %h32 = {"sext" if short_type != "i32" else "bitcast"} {short_type} %h to i32
  %l32 = trunc i64 %l to i32
  %x = add i32 %a0, %c32
  %y = add i32 %x, %h32
  %z = add i32 %y, %l32
  %f = sitofp i32 %z to float
  %g = load float, ptr addrspace(1) @dev_scale, align 4
  %r = fadd float %f, %g
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}}
attributes #0 = {{ nounwind "amdgpu-flat-work-group-size"="{bounds}" }}
!llvm.module.flags = !{{!0}}
!0 = !{{i32 1, !"amdhsa_code_object_version", i32 500}}
"""


def by_value_unit(arch: str = "sm_80") -> KernelUnit:
    cubin = Cubin(compile_cu(KERNELS / "math.cu", f"-arch={arch}", output="-cubin").read_bytes())
    return KernelUnit(name=BY_VALUE, sm_arch=arch, kernel=cubin.kernel(BY_VALUE))
