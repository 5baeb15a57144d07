#!/usr/bin/env bash
# One device call's worth of tensor-core checks on the GPU machine (H100/H200, Dawn with subgroup
# matrices): the device tests of the matrix path against native CUDA and exact references, then
# the GEMM benchmarks, ours and native on the same PTX, warmed up (bench/tensor-core).
#   here:  npm run build && find dist -name '*.map' -delete && bash ../shared/gpu/pack.sh
#          && bash scripts/gpu/pack-dev.sh
#   there (device tool, carry .gpu and dist/src dist/lowering dist/runtime dist/shaders):
#          bash scripts/gpu/tensor-core-check.sh [tests|bench|all]
# Prints each step's result; exits non-zero if a test failed.
set -uo pipefail
what=${1:-all}
source .gpu/remote.sh
export PTX_WGSL_DAWN_FLAGS=${PTX_WGSL_DAWN_FLAGS:-enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia}
status=0
if [ "$what" != bench ]; then
  [ -d node_modules/vitest ] || tar -xJf .gpu/devmods.tar.xz
  node node_modules/vitest/vitest.mjs run --config vitest.config.ts \
    tests/matrix/ldmatrix-direct.gpu.test.ts tests/matrix/tensor-core-kernels-device.gpu.test.ts \
    tests/matrix/mma-tensor-core-device.gpu.test.ts tests/matrix/carry-matrices-device.gpu.test.ts \
    tests/matrix/wmma-tensor-core-device.gpu.test.ts tests/matrix/mma-special-values.gpu.test.ts \
    tests/compiler/control-flow.gpu.test.ts 2>&1 | grep -v '^Warning: max' | tail -40 || status=1
fi
if [ "$what" != tests ]; then
  for k in mma triton; do
    echo "== $k: native"; python3 "bench/tensor-core/$k/native.py" 2>&1 | tail -3
    echo "== $k: ours (tensor cores)"; node bench/tensor-core/gemm-ours.mjs "$k" 4096 auto 2>&1 | grep -v '^Warning: max' | tail -4
  done
fi
exit $status
