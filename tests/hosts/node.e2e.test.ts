// Runs the shared e2e cases (tests/e2e/cases.ts) on Node through Dawn's `webgpu` package, one
// vitest test per case, on one device shared by the file and destroyed at the end.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { cases } from '../e2e/cases.js';
import { getGpu } from '../../runtime/device.js';
import { describeDevice, launchOptions, openTestDevice, type HostCase } from './run-cases.js';
import { repoRoot } from './host-utils.js';

let device: GPUDevice | undefined;

beforeAll(async () => {
  const opened = await openTestDevice(await getGpu());
  device = opened.device;
  console.log(`node ${describeDevice(opened.info)}`);
}, 120_000);

afterAll(() => {
  device?.destroy();
  device = undefined;
});

const filter = process.env['PTXW_E2E_FILTER'];

describe('node host', () => {
  for (const c of cases as unknown as readonly HostCase[]) {
    const skip = filter !== undefined && !c.name.includes(filter);
    it.skipIf(skip)(c.name, async () => {
      const ptx = readFileSync(join(repoRoot, 'tests', 'kernels', c.ptxFile), 'utf8');
      const args = c.makeArgs();
      await (runPtx as unknown as (p: string, a: unknown[], o: Record<string, unknown>) => Promise<unknown>)(
        ptx,
        args,
        launchOptions(c, device!),
      );
      expect(c.check(args)).toBeNull();
    });
  }
});
