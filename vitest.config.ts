import { defineConfig } from 'vitest/config';

// Dawn (Node's `webgpu`) and lavapipe need a runtime dir; CI sets it, local shells may not.
process.env['XDG_RUNTIME_DIR'] ||= '/tmp';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.bench.ts'],
    // The IR verifier after every pass, which compile() skips outside the tests.
    setupFiles: ['tests/setup/verify-ir.ts'],
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
