; Float atomics CDNA has in memory (global_atomic_add_f64/max_f64/min_f64, add_f32), returning and not.
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %tf = uitofp i32 %t to double
  %o = atomicrmw fadd ptr addrspace(1) %out, double %tf syncscope("agent") monotonic, !amdgpu.no.fine.grained.memory !1
  %p1 = getelementptr double, ptr addrspace(1) %out, i32 1
  %o1 = atomicrmw fmax ptr addrspace(1) %p1, double %tf syncscope("agent") monotonic, !amdgpu.no.fine.grained.memory !1
  %p2 = getelementptr double, ptr addrspace(1) %out, i32 2
  %o2 = atomicrmw fmin ptr addrspace(1) %p2, double %tf syncscope("agent") monotonic, !amdgpu.no.fine.grained.memory !1
  %ff = uitofp i32 %t to float
  %p3 = getelementptr float, ptr addrspace(1) %out, i32 6
  %o3 = atomicrmw fadd ptr addrspace(1) %p3, float %ff syncscope("agent") monotonic, !amdgpu.no.fine.grained.memory !1
  %s = fadd double %o, %o1
  %s2 = fadd double %s, %o2
  %pa = getelementptr double, ptr addrspace(1) %a, i32 %t
  store double %s2, ptr addrspace(1) %pa
  ret void
}
attributes #0 = { "amdgpu-unsafe-fp-atomics"="true" }
!1 = !{}
