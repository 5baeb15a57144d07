#!/usr/bin/env bash
# Regenerates tests/kernels/*.ptx from the .cu sources (needs nvcc on PATH, no GPU).
# The tests never run nvcc: commit the generated .ptx files.
set -euo pipefail
cd "$(dirname "$0")"
ARCH="${ARCH:-sm_80}"
for cu in *.cu; do
  ptx="${cu%.cu}.ptx"
  echo "nvcc -ptx -arch=$ARCH -O3 $cu -o $ptx"
  nvcc -ptx -arch="$ARCH" -O3 "$cu" -o "$ptx"
done
