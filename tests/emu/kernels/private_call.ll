; A dynamically indexed private array written in a loop and read in a called function: scratch
; through the private segment buffer (MUBUF: gfx90a, gfx1030) or flat scratch (gfx942, gfx11).
declare i32 @llvm.amdgcn.workitem.id.x()
define internal fastcc i32 @helper(ptr addrspace(5) %p, i32 %n) noinline {
  %q = getelementptr i32, ptr addrspace(5) %p, i32 %n
  %v = load volatile i32, ptr addrspace(5) %q
  ret i32 %v
}
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a) {
  %arr = alloca [16 x i32], align 4, addrspace(5)
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  br label %fill
fill:
  %j = phi i32 [0, %0], [%j1, %fill]
  %pj = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %j
  %val = mul i32 %j, %t
  store volatile i32 %val, ptr addrspace(5) %pj
  %j1 = add i32 %j, 1
  %done = icmp eq i32 %j1, 16
  br i1 %done, label %read, label %fill
read:
  %idx = and i32 %t, 15
  %r = call fastcc i32 @helper(ptr addrspace(5) %arr, i32 %idx)
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %r, ptr addrspace(1) %po
  ret void
}
!llvm.module.flags = !{!0}
!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}
