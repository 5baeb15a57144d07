// STAND-IN for tests/e2e/cases.ts (infra development only; PTXW_STANDIN=1).
export const cases = [
  {
    name: 'standin saxpy',
    ptxFile: 'saxpy.ptx',
    grid: 4,
    block: 256,
    makeArgs: (): unknown[] => [Float32Array.from({ length: 1024 }, (_, i) => i), new Float32Array(1024).fill(1), 2.5, 1024],
    check: (args: unknown[]): string | null => {
      const y = args[1] as Float32Array;
      for (let i = 0; i < 1024; i++) if (y[i] !== 2.5 * i + 1) return `y[${i}] = ${y[i]}, want ${2.5 * i + 1}`;
      return null;
    },
  },
  {
    name: 'standin deliberately failing',
    ptxFile: 'saxpy.ptx',
    grid: 4,
    block: 256,
    makeArgs: (): unknown[] => [new Float32Array(1024), new Float32Array(1024), 1, 1024],
    check: (): string | null => (process_env_fail() ? 'failed on purpose (PTXW_STANDIN_FAIL)' : null),
  },
];
function process_env_fail(): boolean {
  const g = globalThis as { __PTXW_STANDIN_FAIL?: boolean };
  return g.__PTXW_STANDIN_FAIL === true;
}
