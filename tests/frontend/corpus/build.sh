#!/bin/sh
# Regenerates tests/frontend/corpus/arch/ (run in tests/frontend/corpus; needs nvcc 13 and
# LLVM's llc). The original corpus files at the top level are kept as they were; this adds
# the -arch values issue 3 asks for, with -G and -lineinfo variants. nvcc 13 compiles only
# sm_75 and newer, so sm_52 and sm_70 (and a 32-bit `.address_size 32` module) come from
# LLVM's NVPTX back end on llvm_saxpy.ll, i.e. what clang emits.
set -e
mkdir -p arch
for arch in 75 80 90; do
  nvcc -ptx -arch=sm_$arch reduce.cu -o arch/reduce_sm$arch.ptx
  nvcc -ptx -arch=sm_$arch video.cu -o arch/video_sm$arch.ptx
  [ $arch = 75 ] || nvcc -ptx -arch=sm_$arch inline.cu -o arch/inline_sm$arch.ptx  # min.NaN needs sm_80
done
nvcc -ptx -arch=sm_90a video.cu -o arch/video_sm90a.ptx
nvcc -ptx -arch=sm_90a tensor.cu -o arch/tensor_sm90a.ptx
nvcc -ptx -arch=sm_90 -G video.cu -o arch/video_sm90_G.ptx
nvcc -ptx -arch=sm_80 -G reduce.cu -o arch/reduce_sm80_G.ptx
nvcc -ptx -arch=sm_90a -G video.cu -o arch/video_sm90a_G.ptx
nvcc -ptx -arch=sm_80 -lineinfo tensor.cu -o arch/tensor_sm80_lineinfo.ptx
nvcc -ptx -arch=sm_90a -lineinfo hopper.cu -o arch/hopper_sm90a_lineinfo.ptx
nvcc -ptx -arch=sm_75 -lineinfo video.cu -o arch/video_sm75_lineinfo.ptx
llc -march=nvptx64 -mcpu=sm_52 llvm_saxpy.ll -o arch/llvm_saxpy_sm52.ptx
llc -march=nvptx64 -mcpu=sm_70 -mattr=+ptx60 llvm_saxpy.ll -o arch/llvm_saxpy_sm70.ptx
llc -march=nvptx -mcpu=sm_52 llvm_saxpy.ll -o arch/llvm_saxpy32_sm52.ptx
