; <2 x float> arithmetic, which LLVM builds from v_pk_add/mul/fma_f32 on gfx90a and gfx942, with
; op_sel, op_sel_hi, neg_lo and neg_hi picking and negating the elements of register pairs, and
; inline constants given to both elements.
declare i32 @llvm.amdgcn.workitem.id.x()
declare <2 x float> @llvm.fma.v2f32(<2 x float>, <2 x float>, <2 x float>)
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, ptr addrspace(1) %b) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <2 x float>, ptr addrspace(1) %a, i32 %t
  %x = load <2 x float>, ptr addrspace(1) %pa
  %pb = getelementptr <2 x float>, ptr addrspace(1) %b, i32 %t
  %y = load <2 x float>, ptr addrspace(1) %pb
  %s = fadd <2 x float> %x, %y
  %m = fmul <2 x float> %s, %x
  %sw = shufflevector <2 x float> %y, <2 x float> poison, <2 x i32> <i32 1, i32 0>
  %f = call <2 x float> @llvm.fma.v2f32(<2 x float> %m, <2 x float> %sw, <2 x float> %y)
  %n = fsub <2 x float> %f, %sw
  %h = fadd <2 x float> %n, <float 0.5, float 0.5>
  %g = call <2 x float> @llvm.fma.v2f32(<2 x float> %h, <2 x float> <float 2.0, float 2.0>, <2 x float> %x)
  %po = getelementptr <2 x float>, ptr addrspace(1) %out, i32 %t
  store <2 x float> %g, ptr addrspace(1) %po
  ret void
}
