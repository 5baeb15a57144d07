#!/usr/bin/env bash
# Process-to-process spread of our timings (issue 13's noise): the same kernels in N fresh
# processes, each printing shader-only (timestamp) and end-to-end times, with the SM clock and
# memory clock nvidia-smi reports just before. On the GPU machine after `source .gpu/remote.sh`:
#   bash bench/realistic/noise.sh [name-filter] [processes]
set -uo pipefail
filter=${1:-transpose}; n=${2:-5}
dir=/tmp/bench-noise; mkdir -p "$dir"
for i in $(seq 1 "$n"); do
  clocks=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem,pstate,temperature.gpu --format=csv,noheader 2>/dev/null | head -1)
  node bench/realistic/ours.mjs "$dir" "$filter" 2>/dev/null | grep '^{' | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      for (const l of s.trim().split("\n")) { const r = JSON.parse(l);
        console.log(`[noise] process ${process.argv[1]} (${process.argv[2]}): ${r.name}: shader ${r.shader_ms?.toFixed(4)} ms, e2e/10 ${r.e2e_ms?.[10]?.toFixed(4)} ms`); }
    });' "$i" "$clocks"
done
