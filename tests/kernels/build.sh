#!/usr/bin/env bash
# Regenerates tests/kernels/*.ptx from the .cu sources (needs nvcc on PATH, no GPU).
# The tests never run nvcc: commit the generated .ptx files. A source that needs a newer target
# than sm_80 says so in a line `// arch: sm_90`.
set -euo pipefail
cd "$(dirname "$0")"
for cu in *.cu; do
  ptx="${cu%.cu}.ptx"
  arch="$(sed -n 's|^// arch: \(sm_[0-9a-z]*\).*|\1|p' "$cu" | head -1)"
  arch="${arch:-${ARCH:-sm_80}}"
  echo "nvcc -ptx -arch=$arch -O3 $cu -o $ptx"
  nvcc -ptx -arch="$arch" -O3 "$cu" -o "$ptx"
done
