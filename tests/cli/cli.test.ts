// The `ptx-wgsl` command as users run it: `node dist/src/cli/main.js COMMAND ...`, each command
// with --json (checked as data), the documented exit codes, a run that prints nothing on
// stderr (Dawn's adapter warnings stay in the device process, supervise.ts), and progress bars
// on a terminal only.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNpy, parseNpy } from '../../src/cli/npy.js';
import { CLI, ROOT, ensureDist } from '../helpers/built-dist.js';

const tmp = mkdtempSync(join(tmpdir(), 'ptxw-cli-'));
const SAXPY = ['examples/saxpy.ptx', '--grid', '4', '--block', '256', '--arg', 'u32=1000', '--arg', 'f32=2.5', '--arg', 'f32:n=1000:linear'];

interface Result {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(args: readonly string[], env: Record<string, string> = {}): Result {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The one JSON document a `--json` command prints. */
function json(r: Result): Record<string, unknown> {
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const kernel = (body: string): string => `.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
${body}
  ret;
}
`;

beforeAll(() => ensureDist(), 300_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('ptx-wgsl run', () => {
  it('prints the buffers and nothing on stderr; --verbose shows the driver', () => {
    const quiet = cli(['run', ...SAXPY, '--arg', 'f32:n=1000:fill=1', '--print', '4']);
    expect(quiet.stderr).toBe('');
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).toContain('f32[1000]: 1, 3.5, 6, 8.5, ...');
    const verbose = cli(['run', ...SAXPY, '--arg', 'f32:n=1000:fill=1', '--print', '0', '--verbose']);
    expect(verbose.status).toBe(0);
    expect(verbose.stderr).toMatch(/^ptx-wgsl: info: adapter: /m);
  });

  it('reads .npy inputs, writes .npy outputs, and checks --expect (exit 1 when results differ)', () => {
    const y = join(tmp, 'y-in.npy');
    const ones = new Float32Array(1000).fill(1);
    writeFileSync(y, formatNpy('f32', new Uint8Array(ones.buffer), ones.length));
    const out = join(tmp, 'y.npy');
    const raw = join(tmp, 'x.bin');
    const r = cli(['run', ...SAXPY, '--arg', `f32:file=${y}`, '--out', `3=${out}`, '--out', `saxpy_param_2=${raw}`, '--print', '3', '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = json(r);
    expect(doc).toMatchObject({ command: 'run', ok: true, entry: 'saxpy', grid: [4, 1, 1], block: [256, 1, 1] });
    expect(doc['args']).toEqual([
      { index: 0, name: 'saxpy_param_0', kind: 'scalar', type: 'u32', value: 1000 },
      { index: 1, name: 'saxpy_param_1', kind: 'scalar', type: 'f32', value: 2.5 },
      { index: 2, name: 'saxpy_param_2', kind: 'buffer', type: 'f32', length: 1000, values: [0, 1, 2] },
      { index: 3, name: 'saxpy_param_3', kind: 'buffer', type: 'f32', length: 1000, values: [1, 3.5, 6] },
    ]);
    const saved = parseNpy(readFileSync(out));
    expect(saved.descr).toBe('<f4');
    expect(saved.shape).toEqual([1000]);
    expect([...new Float32Array(new Uint8Array(saved.data).buffer).slice(0, 3)]).toEqual([1, 3.5, 6]);
    expect(readFileSync(raw).byteLength).toBe(4000);

    const same = cli(['run', ...SAXPY, '--arg', `f32:file=${y}`, '--expect', `3=${out}`, '--json']);
    expect(same.status).toBe(0);
    expect(json(same)['expect']).toEqual([{ index: 3, path: out, ok: true, mismatches: 0, first: [] }]);
    const differ = cli(['run', ...SAXPY, '--arg', 'f32:n=1000:fill=2', '--expect', `3=${out}`, '--json']);
    expect(differ.status).toBe(1);
    const check = (json(differ)['expect'] as { ok: boolean; mismatches: number; first: unknown[] }[])[0];
    expect(check).toMatchObject({ ok: false, mismatches: 1000 });
    expect(check?.first[0]).toEqual({ index: 0, got: 2, expected: 1 });
  });
});

describe('ptx-wgsl compile, bench, info', () => {
  it('compile --json gives each kernel\'s WGSL and layout; -o writes the WGSL', () => {
    const r = cli(['compile', 'examples/saxpy.ptx', '--json']);
    expect(r.status).toBe(0);
    const kernels = json(r)['kernels'] as { entry: string; wgsl: string; layout: { params: unknown[] } }[];
    expect(kernels).toHaveLength(1);
    expect(kernels[0]?.entry).toBe('saxpy');
    expect(kernels[0]?.wgsl).toContain('@compute');
    expect(kernels[0]?.layout.params).toHaveLength(4);
    const file = join(tmp, 'saxpy.wgsl');
    const o = cli(['compile', 'examples/saxpy.ptx', '-o', file, '--layout']);
    expect(o.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`${kernels[0]?.wgsl.trimEnd()}\n`);
    expect(JSON.parse(o.stdout)).toMatchObject({ entry: 'saxpy' });
    const dump = cli(['compile', 'examples/saxpy.ptx', '--dump-after=structurize']);
    expect(dump.stdout).toMatch(/saxpy/);
  });

  it('bench --json gives median, min and max per launch, and GB/s with --bytes', () => {
    const r = cli(['bench', ...SAXPY, '--arg', 'f32:n=1000:fill=1', '--iters', '5', '--batch', '2', '--bytes', '12000', '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = json(r) as { ms: { median: number; min: number; max: number }; gbps: { median: number; max: number } };
    expect(doc).toMatchObject({ command: 'bench', ok: true, entry: 'saxpy', iters: 5, batch: 2, bytes: 12000 });
    expect(doc.ms.min).toBeGreaterThan(0);
    expect(doc.ms.min).toBeLessThanOrEqual(doc.ms.median);
    expect(doc.ms.median).toBeLessThanOrEqual(doc.ms.max);
    expect(doc.gbps.median).toBeCloseTo(12000 / doc.ms.median / 1e6, 6);
  });

  it('info --json describes the adapter and the path each feature takes', () => {
    const r = cli(['info', '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = json(r) as { adapter: Record<string, unknown>; features: string[]; limits: Record<string, number>; subgroups: Record<string, unknown>; paths: Record<string, unknown> };
    expect(typeof doc.adapter['description']).toBe('string');
    expect(doc.limits['maxStorageBuffersPerShaderStage']).toBeGreaterThanOrEqual(8);
    expect(['subgroups', 'emulated']).toContain(doc.paths['warps']);
    expect(['fused', 'emulated']).toContain(doc.paths['fma']);
    expect(doc.paths['matrices']).toBe('portable'); // lavapipe has no subgroup matrices
    expect(Object.keys(doc.subgroups)).toEqual(['minSize', 'maxSize', 'probedSize', 'consecutive']);
    if (doc.paths['f32'] !== null) expect(Object.keys(doc.paths['f32'] as object)).toEqual(['addMul', 'ftz', 'ftzFma', 'canonicalNaN', 'approx', 'approxFtz', 'minMax']);
  });
});

describe('ptx-wgsl conformance', () => {
  it('--json gives each family\'s forms, cases and failures against the NVIDIA recording, per warp path', () => {
    const r = cli(['conformance', '--only', 'int-lop3', '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = json(r);
    expect(doc).toMatchObject({ command: 'conformance', ok: true, skipped: [], warpPaths: ['auto'] });
    expect(['subgroups', 'emulated']).toContain(doc['deviceWarpPath']);
    const run = { forms: 3, cases: 96, failedForms: 0, failedCases: 0, approximateForms: 0, failures: [], warpPath: 'none' };
    expect(doc['families']).toEqual([{ name: 'int-lop3', suite: 'int', ok: true, paths: [{ warp: 'auto', same: false, ...run }] }]);
    // A kernel without warp instructions is the same WGSL on every path: it runs once.
    const both = json(cli(['conformance', '--only', 'int-lop3', '--warp', 'auto,emulated', '--json']));
    expect(both['families']).toEqual([{ name: 'int-lop3', suite: 'int', ok: true, paths: [{ warp: 'auto', same: false, ...run }, { warp: 'emulated', same: true, ...run }] }]);
    expect(cli(['conformance', '--only', 'no-such-family']).status).toBe(2);
    expect(cli(['conformance', '--warp', 'sideways']).status).toBe(2);
  });

  it('exits 1 and names the form and its first case when an output differs from the recording', () => {
    // A copy of the data whose recording of the first form's first case has its low bit flipped.
    const dir = join(tmp, 'doctored');
    mkdirSync(dir);
    const src = join(ROOT, 'dist/conformance');
    for (const suffix of ['.json.gz', '.in.bin.gz']) copyFileSync(join(src, `int-lop3${suffix}`), join(dir, `int-lop3${suffix}`));
    const native = gunzipSync(readFileSync(join(src, 'int-lop3.out.bin.gz')));
    const recorded = new DataView(native.buffer, native.byteOffset).getBigUint64(0, true);
    native[0] = (native[0] ?? 0) ^ 1;
    writeFileSync(join(dir, 'int-lop3.out.bin.gz'), gzipSync(native));
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ cases: 256, batches: ['int-lop3'], skipped: [] }));
    const r = cli(['conformance', '--json'], { PTXW_CONFORMANCE_DIR: dir });
    expect(r.status).toBe(1);
    const doc = json(r) as { ok: boolean; families: { ok: boolean; paths: { failedCases: number; failures: { form: string; failed: number; first: { index: number; got: string[]; native: string[] } }[] }[] }[] };
    expect(doc.ok).toBe(false);
    const failures = doc.families[0]?.paths[0]?.failures;
    expect(failures?.length).toBe(1);
    expect(failures?.[0]).toMatchObject({ form: expect.stringMatching(/^lop3\.b32 /), failed: 1, first: { index: 0 } });
    const mask = 0xffffffffn;
    // The form's first output of that case is the one doctored (lop3's forms have an output per truth table).
    expect(failures?.[0]?.first.got[0]).toBe(`0x${(recorded & mask).toString(16)}`);
    expect(failures?.[0]?.first.native[0]).toBe(`0x${((recorded ^ 1n) & mask).toString(16)}`);
    expect(failures?.[0]?.first.native.slice(1)).toEqual(failures?.[0]?.first.got.slice(1));
    const text = cli(['conformance'], { PTXW_CONFORMANCE_DIR: dir });
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(/int-lop3 .* FAIL/);
    expect(text.stdout).toMatch(/int-lop3: lop3\.b32 .* differs in 1\/32 cases; first: case 0/);
  });

  it('runs the warp kernels on each warp path, and names the kernel and word that differ', () => {
    const ok = json(cli(['conformance', '--only', 'warp', '--warp', 'auto,emulated', '--json'])) as { deviceWarpPath: string; families: { name: string; ok: boolean; paths: { warp: string; same: boolean; warpPath: string; forms: number; failedCases: number }[] }[] };
    expect(ok.families.map((f) => f.name)).toEqual(['warp-collectives']);
    const [auto, emulated] = ok.families[0]?.paths ?? [];
    expect(auto).toMatchObject({ warp: 'auto', same: false, warpPath: ok.deviceWarpPath, forms: 14, failedCases: 0 });
    // lavapipe's subgroups are not 32 lanes: auto took the emulation, which then runs once.
    expect(emulated).toMatchObject({ warp: 'emulated', same: ok.deviceWarpPath === 'emulated', warpPath: 'emulated', failedCases: 0 });
    // The recording doctored: warp_scan_up's word 5 is off by one.
    const dir = join(tmp, 'doctored-warp');
    mkdirSync(dir);
    const batch = JSON.parse(gunzipSync(readFileSync(join(ROOT, 'dist/conformance/warp-collectives.json.gz'))).toString('utf8')) as { cases: { entry: string; native: number[][] }[] };
    const scan = batch.cases.find((c) => c.entry === 'warp_scan_up');
    const word = scan?.native[0]?.[5] ?? 0;
    scan!.native[0]![5] = word + 1;
    writeFileSync(join(dir, 'warp-collectives.json.gz'), gzipSync(JSON.stringify(batch)));
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ cases: 256, batches: ['warp-collectives'], skipped: [] }));
    const r = cli(['conformance', '--json'], { PTXW_CONFORMANCE_DIR: dir });
    expect(r.status).toBe(1);
    const failures = (json(r) as { families: { paths: { failures: unknown[] }[] }[] }).families[0]?.paths[0]?.failures;
    const hex = (v: number): string => `0x${(v >>> 0).toString(16)}`;
    expect(failures).toEqual([{ form: 'warp_shfl.ptx warp_scan_up', approximate: false, failed: 1, cases: 256, first: { index: 5, inputs: ['output 0', 'grid 2', 'block 128'], got: [hex(word)], native: [hex(word + 1)] } }]);
  });
});

/**
 * Runs the CLI with stderr on a terminal (util-linux `script` gives it a pseudo-terminal) and
 * stdout in a file: what the terminal showed, and stdout.
 */
function onTerminal(args: readonly string[]): { terminal: string; stdout: string; status: number | null } {
  const out = join(tmp, 'terminal-stdout');
  const quote = (a: string): string => `'${a.replace(/'/g, "'\\''")}'`;
  const command = `${[process.execPath, CLI, ...args].map(quote).join(' ')} > ${quote(out)}`;
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TERM: 'xterm' }, timeout: 120_000 });
  return { terminal: r.stdout, stdout: readFileSync(out, 'utf8'), status: r.status };
}

describe.skipIf(spawnSync('script', ['--version']).status !== 0)('progress bars', () => {
  const BAR = /\r\x1b\[2K\[[#-]{24}\] +\d+\/\d+ /;

  it('conformance and bench draw one on a terminal, off stdout', () => {
    const conf = onTerminal(['conformance', '--only', 'int-lop3,int-carry']);
    expect(conf.status).toBe(0);
    expect(conf.terminal).toMatch(BAR);
    expect(conf.terminal).toContain('int-carry (auto)');
    expect(conf.stdout).not.toMatch(/\r|\x1b/);
    expect(conf.stdout).toMatch(/int-carry .* pass/);
    const bench = onTerminal(['bench', ...SAXPY, '--arg', 'f32:n=1000:fill=1', '--iters', '3']);
    expect(bench.status).toBe(0);
    expect(bench.terminal).toMatch(BAR);
    expect(bench.terminal).toContain('samples');
    expect(bench.stdout).toMatch(/^saxpy: grid 4x1x1/);
  });

  it('--json output stays clean: one JSON document on stdout and no bar on the terminal', () => {
    for (const args of [['conformance', '--only', 'int-lop3', '--json'], ['bench', ...SAXPY, '--arg', 'f32:n=1000:fill=1', '--iters', '3', '--json']]) {
      const r = onTerminal(args);
      expect(r.status).toBe(0);
      expect(r.terminal).toBe('');
      expect(r.stdout.endsWith('}\n')).toBe(true);
      expect(JSON.parse(r.stdout)).toMatchObject({ command: args[0], ok: true });
    }
  });
});

describe('exit codes and --help', () => {
  it('2 for malformed PTX and command lines, 3 for unsupported instructions, 4 without a device', () => {
    const bad = join(tmp, 'bad.ptx');
    writeFileSync(bad, kernel('  foo.bar %r1;'));
    const parse = cli(['compile', bad, '--json']);
    expect(parse.status).toBe(2);
    expect(json(parse)).toMatchObject({ command: 'compile', ok: false, exitCode: 2, error: { kind: 'PtxError', codes: ['P004'] } });
    const unsupported = join(tmp, 'suld.ptx');
    writeFileSync(unsupported, kernel('  suld.b.1d.b32.trap {%r1}, [%rd1, {%r2}];'));
    expect(cli(['compile', unsupported]).status).toBe(3);
    expect(cli(['compile', join(tmp, 'missing.ptx')]).status).toBe(2);
    expect(cli(['run', 'examples/saxpy.ptx', '--no-such-option']).status).toBe(2);
    // Neither --grid nor --block: an error, as in runPtx (one alone makes the other 1).
    const noShape = cli(['run', ...SAXPY.filter((a, i, all) => !['--grid', '--block'].includes(a) && !['--grid', '--block'].includes(all[i - 1] ?? '')), '--arg', 'f32:n=1000:fill=1']);
    expect(noShape.status).toBe(2);
    expect(noShape.stderr).toMatch(/needs --grid and --block/);
    expect(cli(['no-such-command']).status).toBe(2);
    const noDevice = cli(['info', '--json'], { DAWNNODE_BACKEND: 'no-such-backend' });
    expect(noDevice.status).toBe(4);
    expect(json(noDevice)).toMatchObject({ command: 'info', ok: false, exitCode: 4, error: { codes: ['R003'] } });
  });

  it('every command has --help, and the top-level help lists them', () => {
    const top = cli(['--help']);
    expect(top.status).toBe(0);
    for (const command of ['compile', 'run', 'bench', 'info', 'conformance']) {
      expect(top.stdout).toContain(`  ${command} `);
      const r = cli([command, '--help']);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^usage: ptx-wgsl ${command}`));
      expect(r.stdout).toContain('exit codes: 0 ok, 1 results differ, 2 bad input');
    }
  });
});
