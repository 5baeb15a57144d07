// Writes native/mma-cases.json (the runs record_mma_native.py makes on an NVIDIA GPU: every mma
// form, GEMM, realistic kernel and Triton matmul with the inputs the WebGPU tests use) when
// WRITE_NATIVE_CASES=1; otherwise checks that the committed file is current.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { gemmNativeRuns } from '../gemm-cases.js';
import { mmaNativeRuns } from '../mma-cases.js';
import { CASES_FILE, exportRuns } from '../native.js';
import { realisticNativeRuns } from '../realistic-tc-cases.js';
import { tritonNativeRuns } from '../triton-cases.js';

it('mma-cases.json is current', () => {
  const text = exportRuns([...mmaNativeRuns(), ...gemmNativeRuns(), ...realisticNativeRuns(), ...tritonNativeRuns()]);
  if (process.env['WRITE_NATIVE_CASES']) writeFileSync(CASES_FILE, text);
  expect(existsSync(CASES_FILE) && readFileSync(CASES_FILE, 'utf8') === text).toBe(true);
});
