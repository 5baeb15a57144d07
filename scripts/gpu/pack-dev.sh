#!/usr/bin/env bash
# Packs the development node_modules that vitest needs on the GPU machine into .gpu/devmods.tar.xz
# (run from the project root after `npm ci` and ../shared/gpu/pack.sh). The GPU machine gets the
# production closure from .gpu/node_modules.tar.xz (with webgpu trimmed to linux-x64); this adds
# vitest and its build tools over it, leaving out what no GPU test uses (Deno, TypeScript's
# compiler, puppeteer and Chromium's protocol) and webgpu itself, to stay inside the 64 MiB that
# a device call carries. scripts/gpu/tensor-core-check.sh unpacks it.
set -euo pipefail
[ -f package.json ] && [ -d node_modules/vitest ] || { echo "run from the project root after npm ci" >&2; exit 2; }
mkdir -p .gpu
tar -cf - \
  --exclude='node_modules/@deno' --exclude='node_modules/webgpu' --exclude='node_modules/typescript' \
  --exclude='node_modules/puppeteer-core' --exclude='node_modules/chromium-bidi' \
  --exclude='node_modules/devtools-protocol' --exclude='node_modules/lightningcss-linux-x64-gnu' \
  --exclude='node_modules/zod' node_modules | xz -T2 -6 > .gpu/devmods.tar.xz
ls -la .gpu/devmods.tar.xz
