// The corpus table without a GPU: the table is well formed, every run's PTX entry takes the
// arguments the table passes, the TypeScript generators make the inputs record_native.py makes
// (inputs.sha256.json, written by `record_native.py --inputs-only`), and the native recordings
// exist, were made from the same inputs, fit the size budget and agree with the JS references.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareRun } from './compare.ts';
import { runs, table } from './host.ts';
import { bytesOf, makeBuffer } from './inputs.ts';
import { loadRecording, type NativeManifest } from './native.ts';
import { referenceOutputs, references } from './reference/index.ts';
import { checkOf, flatLaunches, scalarsOf, validateTable, type Arg, type CorpusCase } from './table.ts';

const here = import.meta.dirname;
const nativeDir = process.env['PTXW_CORPUS_NATIVE'] ?? join(here, 'native');
const manifestPath = join(nativeDir, 'manifest.json');
const manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as NativeManifest) : undefined;
const inputHashes = JSON.parse(readFileSync(join(here, 'inputs.sha256.json'), 'utf8')) as Record<string, Record<string, string>>;
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const load = async (name: string): Promise<Uint8Array | undefined> => {
  const p = join(nativeDir, name);
  return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
};

function hashesOf(c: CorpusCase): Record<string, string> {
  return Object.fromEntries([...c.buffers, ...(c.symbols ?? [])].map((b) => [b.name, sha256(bytesOf(makeBuffer(c.name, b)))]));
}

/** The `.param` list of `entry` in `ptx`: PTX types, `b8[N]` for aggregates. */
function entryParams(ptx: string, entry: string): string[] | undefined {
  const at = ptx.search(new RegExp(`\\.entry\\s+${entry.replace(/\$/g, '\\$')}\\s*\\(`));
  if (at < 0) return undefined;
  const list = ptx.slice(ptx.indexOf('(', at) + 1, ptx.indexOf(')', at));
  return list.split(',').map((p) => {
    const agg = /\.b8\s+\S+\[(\d+)\]/.exec(p);
    if (agg) return `b8[${agg[1]}]`;
    return /\.param\s+\.(\w+)/.exec(p)?.[1] ?? '?';
  });
}

const SIZE: Record<string, number> = { f16: 2, f32: 4, f64: 8, u8: 1, i32: 4, u32: 4, i64: 8, u64: 8 };

/** What PTX parameter type(s) an argument may have. */
function accepts(c: CorpusCase, a: Arg): (t: string) => boolean {
  if (typeof a === 'string') return (t) => t === 'u64' || t === 'b64';
  const leaves = scalarsOf(a, c.dims ?? {});
  if ('struct' in a || 'f16' in a) {
    let size = 0;
    let align = 1;
    for (const [t] of leaves) {
      const s = SIZE[t] ?? 0;
      size = Math.ceil(size / s) * s + s;
      align = Math.max(align, s);
    }
    const bytes = Math.ceil(size / align) * align;
    return (t) => t === `b8[${bytes}]`;
  }
  const [[type]] = leaves as [[string, number]];
  const ok: Record<string, string[]> = {
    i32: ['u32', 's32', 'b32'], u32: ['u32', 's32', 'b32'], f32: ['f32'], f64: ['f64'],
    i64: ['u64', 's64', 'b64'], u64: ['u64', 's64', 'b64'],
  };
  return (t) => (ok[type] ?? []).includes(t);
}

describe('corpus table', () => {
  it('is well formed, with at least 60 distinct kernels', () => {
    expect(validateTable(table)).toEqual([]);
    const kernels = new Set(table.cases.flatMap((c) => flatLaunches(c.launches).map((l) => `${c.source}:${l.entry}`)));
    expect(kernels.size).toBeGreaterThanOrEqual(60);
  });

  it('names a JS reference that exists wherever it names one', () => {
    expect(table.cases.filter((c) => c.ref !== undefined && !references[c.ref]).map((c) => c.name)).toEqual([]);
  });

  for (const run of runs) {
    it(`${run.id}: the PTX entries take the table's arguments`, () => {
      const path = join(here, 'kernels', run.ptxFile);
      expect(existsSync(path), run.ptxFile).toBe(true);
      const ptx = readFileSync(path, 'utf8');
      for (const l of flatLaunches(run.c.launches)) {
        const params = entryParams(ptx, l.entry);
        expect(params, `${l.entry} in ${run.ptxFile}`).toBeDefined();
        expect(l.args.length, `${l.entry}: argument count`).toBe(params!.length);
        l.args.forEach((a, k) => expect(accepts(run.c, a)(params![k]!), `${l.entry} argument ${k} (.${params![k]})`).toBe(true));
      }
    });
  }
});

describe('corpus inputs', () => {
  for (const c of table.cases) {
    it(`${c.name}: TypeScript makes the inputs record_native.py makes`, () => {
      const want = inputHashes[c.name];
      expect(want, 'inputs.sha256.json lacks the case: run record_native.py --inputs-only').toBeDefined();
      expect(hashesOf(c)).toEqual(want);
    });
  }

  for (const c of table.cases.filter((x) => x.ref !== undefined)) {
    it(`${c.name}: the JS reference writes only the checked buffers, and writes them`, () => {
      const out = referenceOutputs(c)!;
      for (const b of c.buffers) {
        const before = bytesOf(makeBuffer(c.name, b));
        const after = bytesOf(out.get(b.name)!);
        const changed = before.some((v, i) => v !== after[i]);
        if (checkOf(c, 'sm80', b.name) === undefined) expect(changed, `${b.name} is an input`).toBe(false);
      }
      const written = c.buffers.filter((b) => checkOf(c, 'sm80', b.name) !== undefined);
      expect(written.some((b) => bytesOf(out.get(b.name)!).some((v, i) => v !== bytesOf(makeBuffer(c.name, b))[i]))).toBe(true);
    });
  }
});

describe('corpus native recordings', () => {
  it('exist (tests/corpus/native/manifest.json, from record_native.py on an NVIDIA GPU)', () => {
    expect(manifest, 'no native recordings yet: run tests/corpus/record_native.py on the GPU machine').toBeDefined();
  });

  it('fit the size budget (5 MB)', () => {
    const size = existsSync(nativeDir) ? readdirSync(nativeDir).reduce((s, f) => s + statSync(join(nativeDir, f)).size, 0) : 0;
    expect(size).toBeLessThan(5 * 1024 * 1024);
  });

  for (const run of runs) {
    it(`${run.id}: recorded from these inputs, and the JS reference agrees`, async () => {
      const rec = await loadRecording(run, manifest, load);
      expect(typeof rec === 'string' ? rec : 'recorded').toBe('recorded');
      if (typeof rec === 'string') return;
      expect(manifest!.runs[run.id]!.inputs, 'the recording was made from other inputs: record again').toEqual(hashesOf(run.c));
      const ref = referenceOutputs(run.c);
      if (!ref) return;
      // The reference stands in for the kernel: every buffer it does not write keeps its inputs.
      expect(compareRun(run.c, run.variant, ref, rec, 'ref')).toEqual([]);
    });
  }
});
