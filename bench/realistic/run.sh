#!/usr/bin/env bash
# Realistic kernels, native CUDA against ptx-wgsl on the same PTX and inputs, in one run on the GPU
# machine (after `npm run build` here, carrying .gpu and dist):
#   source .gpu/remote.sh && PASSES=3 bash bench/realistic/run.sh [name-filter]
# Our side runs PASSES times (default 3), each pass a fresh process, because sub-millisecond
# timings vary from process to process; report.mjs prints medians across passes with the spread of
# the ratio. The ftz context (a column for comparison) runs in the first pass only. Writes the table to $OUT/realistic.md (when
# $OUT is set) and to docs/BENCHMARKS.md of the tree.
set -euo pipefail
dir=/tmp/bench-realistic; rm -rf "$dir"; mkdir -p "$dir"
CUDA_CACHE_DISABLE=1 python3 bench/realistic/native.py "$dir" "${1:-}"
for p in $(seq 1 "${PASSES:-3}"); do
  node bench/realistic/ours.mjs "$dir" "${1:-}" --pass="$p" ${DUMP:+--dump=$DUMP} 2>&1 | grep -v '^Warning: max'
  [ "$p" = 1 ] && node bench/realistic/ours.mjs "$dir" "${1:-}" --float=ftz --pass="$p" 2>&1 | grep -v '^Warning: max'
  [ -n "${OUT:-}" ] && cp "$dir"/*.json "$OUT/" 2>/dev/null
done
node bench/realistic/report.mjs "$dir" --write-docs | tee "${OUT:-$dir}/realistic.md"
cp "$dir"/*.json "${OUT:-$dir}/" 2>/dev/null || true
