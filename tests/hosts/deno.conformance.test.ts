// `ptx-wgsl conformance` under Deno's WebGPU (wgpu, no subgroups: warp instructions take the
// emulated path): the built CLI (dist/src/cli/main.js) runs the integer, float and warp
// families in-process and compares every output with the NVIDIA recording. Checked here: every family of
// the shipped index ran with all its cases (counted from the shipped manifests) and none
// differs, and a doctored recording is caught.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDist } from '../helpers/built-dist.js';
import { denoCommand, repoRoot, runProcess } from './host-utils.js';

const TIMEOUT_MS = 15 * 60_000;
const DATA = join(repoRoot, 'dist/conformance');
const tmp = mkdtempSync(join(tmpdir(), 'ptxw-deno-conformance-'));

interface PathJson { warp: string; same: boolean; warpPath: string; forms: number; cases: number; failedCases: number; failures: { form: string; failed: number }[]; error?: unknown }
interface Report { command: string; ok: boolean; deviceWarpPath: string; families: { name: string; suite: string; ok: boolean; paths: PathJson[] }[] }

beforeAll(() => ensureDist(), 300_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function conformance(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const deno = await denoCommand();
  const cli = join(repoRoot, 'dist/src/cli/main.js');
  return runProcess(deno, ['run', '--allow-read', '--allow-env', '--no-prompt', cli, 'conformance', ...args, '--json'], TIMEOUT_MS - 60_000, env);
}

/** Cases a family runs: the first `keep` of each form, from the shipped manifest (for the warp kernels: their output words). */
function shippedCases(name: string): number {
  const json = JSON.parse(gunzipSync(readFileSync(join(DATA, `${name}.json.gz`))).toString('utf8')) as { cases?: { native: number[][] }[] };
  if (json.cases) return json.cases.reduce((n, c) => n + c.native.reduce((m, o) => m + o.length, 0), 0);
  const { manifest } = JSON.parse(gunzipSync(readFileSync(join(DATA, `${name}.json.gz`))).toString('utf8')) as { manifest: { keep: number; forms: { count: number }[] } };
  return manifest.forms.reduce((n, f) => n + Math.min(manifest.keep, f.count), 0);
}

describe('conformance under Deno', () => {
  it('passes every integer, float and warp family on the emulated warp path', async () => {
    const { code, output } = await conformance(['--only', 'int,float,warp', '--warp', 'auto,emulated']);
    expect(code, output).toBe(0);
    const report = JSON.parse(output) as Report;
    expect(report).toMatchObject({ command: 'conformance', ok: true, deviceWarpPath: 'emulated' });
    const index = JSON.parse(readFileSync(join(DATA, 'index.json'), 'utf8')) as { batches: string[] };
    const expected = index.batches.filter((n) => /^(int|float|warp)-/.test(n));
    expect(expected.length).toBeGreaterThanOrEqual(16);
    expect(expected).toContain('warp-collectives');
    expect(report.families.map((f) => f.name)).toEqual(expected);
    for (const f of report.families) {
      const [auto, emulated] = f.paths;
      expect(auto, f.name).toMatchObject({ warp: 'auto', same: false, cases: shippedCases(f.name), failedCases: 0, failures: [] });
      expect(auto?.error, f.name).toBeUndefined();
      // Kernels without warp instructions, and the warp kernels, which auto gives the emulation
      // here: one run stands for both paths.
      expect(auto?.warpPath, f.name).toBe(f.suite === 'warp' ? 'emulated' : 'none');
      expect(emulated, f.name).toMatchObject({ warp: 'emulated', same: true });
    }
  }, TIMEOUT_MS);

  it('fails, naming the form, when the recording is doctored', async () => {
    const dir = join(tmp, 'doctored');
    mkdirSync(dir);
    for (const suffix of ['.json.gz', '.in.bin.gz']) copyFileSync(join(DATA, `int-carry${suffix}`), join(dir, `int-carry${suffix}`));
    const native = gunzipSync(readFileSync(join(DATA, 'int-carry.out.bin.gz')));
    native[0] = (native[0] ?? 0) ^ 1;
    writeFileSync(join(dir, 'int-carry.out.bin.gz'), gzipSync(native));
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ cases: 256, batches: ['int-carry'], skipped: [] }));
    const { code, output } = await conformance([], { PTXW_CONFORMANCE_DIR: dir });
    expect(code, output).toBe(1);
    const report = JSON.parse(output) as Report;
    expect(report.ok).toBe(false);
    expect(report.families[0]?.paths[0]?.failures).toEqual([expect.objectContaining({ failed: 1, form: expect.stringMatching(/\.cc/) })]);
  }, TIMEOUT_MS);
});
