; Hand-written LLVM IR so the corpus has clang/LLVM NVPTX-backend PTX for old targets
; (nvcc 13 no longer compiles for sm_52 or sm_70). Build: see build.sh.
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @saxpy(i32 %n, float %a, float addrspace(1)* %x, float addrspace(1)* %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %bdim
  %i = add i32 %m, %tid
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %done
body:
  %px = getelementptr float, float addrspace(1)* %x, i32 %i
  %py = getelementptr float, float addrspace(1)* %y, i32 %i
  %vx = load float, float addrspace(1)* %px
  %vy = load float, float addrspace(1)* %py
  %t = fmul float %a, %vx
  %r = fadd float %t, %vy
  %s = select i1 %c, float %r, float 0.0
  store float %s, float addrspace(1)* %py
  br label %done
done:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32, float, float addrspace(1)*, float addrspace(1)*)* @saxpy, !"kernel", i32 1}
