#!/usr/bin/env bash
# Compiles every .cu file under SRC_DIR to PTX under OUT_DIR (same relative paths, .ptx suffix)
# with `nvcc -ptx -arch=sm_80 -O3 --extended-lambda` (plus EXTRA_FLAGS), for scripts/real-world/measure.mjs.
#
#   scripts/real-world/build-ptx.sh SRC_DIR OUT_DIR
#
# Include paths: compat/ beside this script first (stand-ins for the cuBLAS headers and a
# configure-made config.h that this toolkit lacks, and cuda13-compat.h, force-included, for host
# API names CUDA 13 removed or changed; none of it touches device code), then the file's own
# directory, SRC_DIR itself, and every directory under SRC_DIR (up to 4 levels) named include,
# inc, common, Common, llmc, src or util. Files
# that nvcc rejects (or that take longer than TIMEOUT seconds, default 60) are skipped and
# listed in OUT_DIR/nvcc-failures.txt with the first error line. JOBS (default 1, at most 2
# recommended) files compile at once; EXCLUDE is an extended regex of relative paths to skip. Keep SRC_DIR and OUT_DIR outside this repository: public
# sources and their PTX are never committed (docs/REAL-WORLD.md).
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 SRC_DIR OUT_DIR" >&2
  exit 2
fi
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
NVCC=${NVCC:-nvcc}
TIMEOUT=${TIMEOUT:-60}
JOBS=${JOBS:-1}
EXTRA_FLAGS=${EXTRA_FLAGS:-}
EXCLUDE=${EXCLUDE:-}
COMPAT=$(cd "$(dirname "$0")/compat" && pwd)

INCLUDES=(-I"$COMPAT" -include cuda13-compat.h -I"$SRC")
while IFS= read -r dir; do INCLUDES+=(-I"$dir"); done < <(
  find "$SRC" -maxdepth 4 -type d \( -name include -o -name inc -o -name common -o -name Common \
    -o -name llmc -o -name src -o -name util \) | sort)

: > "$OUT/nvcc-failures.txt"
: > "$OUT/nvcc-ok.txt"

compile_one() {
  local rel=$1
  local src="$SRC/$rel"
  local dst="$OUT/${rel%.cu}.ptx"
  local log
  mkdir -p "$(dirname "$dst")"
  log=$(mktemp)
  if timeout "$TIMEOUT" "$NVCC" -ptx -arch=sm_80 -O3 --extended-lambda $EXTRA_FLAGS \
      -I"$(dirname "$src")" "${INCLUDES[@]}" \
      "$src" -o "$dst" >"$log" 2>&1; then
    echo "$rel" >> "$OUT/nvcc-ok.txt"
  else
    local rc=$?
    local why
    if [ "$rc" -eq 124 ]; then
      why="timeout after ${TIMEOUT}s"
    else
      why=$(grep -m1 -iE 'error|fatal' "$log" | sed "s|$SRC/||g" | cut -c1-300)
      [ -n "$why" ] || why="nvcc exit $rc"
    fi
    rm -f "$dst"
    printf '%s\t%s\n' "$rel" "$why" >> "$OUT/nvcc-failures.txt"
  fi
  rm -f "$log"
}
export -f compile_one
export SRC OUT NVCC TIMEOUT EXTRA_FLAGS
export INCLUDES_STR="${INCLUDES[*]}"

cd "$SRC"
find . -name '*.cu' -type f | sed 's|^\./||' | { if [ -n "$EXCLUDE" ]; then grep -Ev "$EXCLUDE" || true; else cat; fi; } | sort > "$OUT/.files"
# Arrays do not cross `export`; rebuild INCLUDES inside each worker from INCLUDES_STR.
xargs -a "$OUT/.files" -d '\n' -P "$JOBS" -I{} bash -c 'read -ra INCLUDES <<< "$INCLUDES_STR"; compile_one "$1"' _ {}
rm -f "$OUT/.files"

ok=$(wc -l < "$OUT/nvcc-ok.txt")
bad=$(wc -l < "$OUT/nvcc-failures.txt")
echo "$(basename "$SRC"): $ok compiled, $bad failed (see $OUT/nvcc-failures.txt)"
