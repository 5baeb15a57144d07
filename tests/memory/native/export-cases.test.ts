// Writes native/cases.json (kernels and inputs for native/record.py) when
// WRITE_NATIVE_CASES=1; otherwise checks the committed file is current.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { exportCases } from './cases.js';

const FILE = new URL('./cases.json', import.meta.url);

it('cases.json is current', () => {
  const text = exportCases();
  if (process.env['WRITE_NATIVE_CASES']) writeFileSync(FILE, text);
  expect(existsSync(FILE) && readFileSync(FILE, 'utf8') === text).toBe(true);
});
