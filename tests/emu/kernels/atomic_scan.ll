; A divergent atomic add, which LLVM's atomic optimizer (DPP strategy) turns into a wave scan: row_shr,
; row_bcast:15/31 (wave64) or v_permlanex16 (wave32), wave_shr, readlane/writelane.
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr i32, ptr addrspace(1) %a, i32 %t
  %x = load i32, ptr addrspace(1) %pa
  %keep = icmp ult i32 %t, 120
  br i1 %keep, label %go, label %done
go:
  %old = atomicrmw add ptr addrspace(1) %out, i32 %x syncscope("agent") monotonic
  %t1 = add i32 %t, 1
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %t1
  store i32 %old, ptr addrspace(1) %po
  br label %done
done:
  ret void
}
