// The corpus's shared-memory kernels with shared memory viewed as halves (CompileOptions.
// sharedHalves), against the native H100 recordings. The tensor-core path views shared memory so
// when mma operands come straight from ldmatrix tiles (lowering/address-spaces.ts): every word,
// vector and sub-word load and store then moves pairs of f16 values, bit for bit. That path runs
// only on devices with subgroup matrices; this file runs the same view's accesses in realistic
// kernels (tiled GEMMs, reductions, scans, sorts, stencils, transposes, layer norms: 35 runs) on
// any device with shader-f16.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, getDefaultDevice, releaseDefaultDevice } from '../../src/index.js';
import { runtimeCompiler } from '../../src/runtime-compiler.js';
import { createContextWith } from '../../runtime/context.js';
import type { RuntimeCompiler } from '../../src/compile-types.js';
import { runs, Session, type Expectations } from './host.ts';
import type { NativeManifest } from './native.ts';
import type { LaunchItem } from './table.ts';

const here = import.meta.dirname;
const nativeDir = join(here, 'native');
const expectations: Expectations = {
  mode: 'native',
  manifest: JSON.parse(readFileSync(join(nativeDir, 'manifest.json'), 'utf8')) as NativeManifest,
  load: async (name) => {
    const p = join(nativeDir, name);
    return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
  },
};

const halves: RuntimeCompiler = {
  ...runtimeCompiler,
  compileModule: (source, options) => {
    const m = runtimeCompiler.compileModule(source, options);
    return { ...m, variables: () => m.variables(), kernels: (o) => m.kernels({ ...o, sharedHalves: true }) };
  },
};

const device = await getDefaultDevice().catch(() => undefined);
const f16 = device?.features.has('shader-f16') ?? false;
const session = new Session(() => getDefaultDevice(), () => releaseDefaultDevice(), (d) => createContextWith(halves, { device: d }));
afterAll(() => session.end());

const kernel = (file: string): string => readFileSync(join(here, 'kernels', file), 'utf8');
const entriesOf = (items: readonly LaunchItem[]): string[] => items.flatMap((l) => ('entry' in l ? [l.entry] : entriesOf(l.launches)));
/** The runs whose kernel gets shared memory viewed as halves (the option changes nothing in the others). */
const selected = runs.filter((r) => {
  if (r.c.slow !== undefined) return false;
  const entries = new Set(entriesOf(r.c.launches));
  return compile(kernel(r.ptxFile), { sharedHalves: true }).kernels.some((k) => entries.has(k.layout.entry) && /^var<workgroup> ptx_shared: array<f16, /m.test(k.wgsl));
});

describe.skipIf(!f16)('corpus with shared memory viewed as halves', () => {
  it('selects the shared-memory kernels', () => expect(selected.length).toBeGreaterThanOrEqual(30));
  for (const run of selected) {
    it(run.id, async () => {
      const r = await session.run(run, kernel(run.ptxFile), expectations);
      expect(r.message === null ? r.status : `${r.status}: ${r.message}`).toBe('pass');
    }, 600_000);
  }
});

it.runIf(!f16)('the shared-halves corpus is skipped: this device has no shader-f16', () => expect(f16).toBe(false));
