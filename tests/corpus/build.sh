#!/usr/bin/env bash
# Regenerates tests/corpus/kernels/<name>.<variant>.ptx from <name>.cu (needs nvcc 13 on PATH, no
# GPU). Each .cu lists its variants in a line `// variants: sm80 sm90 fast`:
#   sm80: -arch=sm_80 -O3    sm90: -arch=sm_90 -O3    fast: -arch=sm_80 -O3 -use_fast_math
# The tests never run nvcc: commit the generated .ptx. Hand-written kernels are <name>.ptx (no
# variant) and are not touched. Usage: tests/corpus/build.sh [name.cu ...]
set -euo pipefail
cd "$(dirname "$0")/kernels"
sources=("$@")
[ ${#sources[@]} -gt 0 ] || sources=(*.cu)
for cu in "${sources[@]}"; do
  base="${cu%.cu}"
  variants="$(sed -n 's|^// variants: *||p' "$cu" | head -1)"
  [ -n "$variants" ] || { echo "$cu: no '// variants:' line" >&2; exit 1; }
  for v in $variants; do
    case "$v" in
      sm80) flags=(-arch=sm_80) ;;
      sm90) flags=(-arch=sm_90) ;;
      fast) flags=(-arch=sm_80 -use_fast_math) ;;
      *) echo "$cu: unknown variant $v" >&2; exit 1 ;;
    esac
    echo "nvcc -ptx ${flags[*]} -O3 $cu -o $base.$v.ptx"
    nvcc -ptx "${flags[@]}" -O3 "$cu" -o "$base.$v.ptx"
  done
done
