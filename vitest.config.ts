import { defineConfig } from 'vitest/config';

// Dawn (Node's `webgpu`) and lavapipe need a runtime dir; CI sets it, local shells may not.
process.env['XDG_RUNTIME_DIR'] ||= '/tmp';

// PTXW_STANDIN=1: infrastructure development only, swaps in tests/hosts/standin/* for the real
// public API and shared cases (mirrors scripts/bundle.mjs).
const standin = process.env['PTXW_STANDIN']
  ? [
      { find: /^.*\/src\/index\.js$/, replacement: new URL('./tests/hosts/standin/api.ts', import.meta.url).pathname },
      { find: /^.*\/e2e\/cases\.js$/, replacement: new URL('./tests/hosts/standin/cases.ts', import.meta.url).pathname },
    ]
  : [];

export default defineConfig({
  resolve: { alias: standin },
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.bench.ts'],
    // The GPU is lavapipe/SwiftShader on the CPU: shader compiles and dispatches are slow.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // Dawn's native addon is not safe in worker threads: one process per test file.
    pool: 'forks',
    env: { XDG_RUNTIME_DIR: process.env['XDG_RUNTIME_DIR'] },
    reporters: ['default'],
  },
});
