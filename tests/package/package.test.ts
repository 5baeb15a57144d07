// The published package as a user gets it: `npm pack`, the tarball installed into a fresh folder
// (extracted, with its dependencies linked from this checkout's node_modules: the test runs
// offline), then imported by Node (a kernel runs, the CLI runs), TypeScript (the declarations
// check with skipLibCheck off), Deno (a local path import: `npm:ptx-wgsl` needs a registry) and
// esbuild for browsers (no Node built-ins reach the bundle, and a bundle runs a kernel in
// Chromium). Without Dawn's `webgpu` package, the optional peer dependency, Node gets an R003
// error that says to install it.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoCommand, gpuEnv } from '../hosts/host-utils.js';
import { runInChromium } from '../hosts/chromium-runner.js';
import { ensureDist, ROOT } from '../helpers/built-dist.js';

const tmp = mkdtempSync(join(tmpdir(), 'ptxw-pack-'));
const app = join(tmp, 'app');
let files: string[] = [];

/** Installs the tarball into `dir`/node_modules, linking `deps` from this checkout. */
function install(tarball: string, dir: string, deps: readonly string[]): void {
  const pkg = join(dir, 'node_modules/ptx-wgsl');
  mkdirSync(pkg, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', pkg, '--strip-components=1']);
  for (const dep of deps) {
    mkdirSync(dirname(join(dir, 'node_modules', dep)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dep), join(dir, 'node_modules', dep), 'dir');
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'smoke', private: true, type: 'module' }));
  copyFileSync(join(ROOT, 'examples/saxpy.ptx'), join(dir, 'saxpy.ptx'));
}

const SMOKE_NODE = `import { readFileSync } from 'node:fs';
import { runPtx, releaseDefaultDevice } from 'ptx-wgsl';
const y = new Float32Array(8).fill(1);
try {
  await runPtx(readFileSync('saxpy.ptx', 'utf8'), [8, 2, new Float32Array(8).map((_, i) => i), y], { grid: 1, block: 32 });
  console.log(JSON.stringify([...y]));
} catch (e) {
  console.log(JSON.stringify({ name: e.name, code: e.diagnostics?.[0]?.code, message: e.message }));
}
await releaseDefaultDevice();
process.exit(0);
`;

const SMOKE_TS = `import { compile, createContext, runPtx, type KernelLayout, type Logger } from 'ptx-wgsl';
const log: Logger = (level, message) => void [level, message];
const layout: KernelLayout | undefined = compile('').kernels[0]?.layout;
export const used = [runPtx, createContext, layout, log];
`;

const SMOKE_DENO = `import { compile, runPtx } from './node_modules/ptx-wgsl/dist/src/index.js';
const src = await Deno.readTextFile('saxpy.ptx');
const y = new Float32Array(8).fill(1);
await runPtx(src, [8, 2, new Float32Array(8).map((_, i) => i), y], { grid: 1, block: 32 });
console.log(JSON.stringify({ entry: compile(src).kernels[0]?.layout.entry, y: [...y] }));
`;

const SAXPY_Y = [1, 3, 5, 7, 9, 11, 13, 15];

beforeAll(() => {
  ensureDist();
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [packed] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  files = packed?.files.map((f) => f.path) ?? [];
  install(join(tmp, packed?.filename ?? ''), app, ['typescript-parsec', '@webgpu/types', 'webgpu']);
  install(join(tmp, packed?.filename ?? ''), join(tmp, 'no-webgpu'), ['typescript-parsec', '@webgpu/types']);
}, 300_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('npm pack', () => {
  it('ships one ESM build with declarations, the CLI, and nothing else', () => {
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js']));
    expect(files.filter((f) => !/^(dist\/(src|lowering|runtime|shaders)\/.*\.(js|d\.ts)|dist\/conformance\/[\w.-]+\.(json|gz)|package\.json|README\.md|LICENSE)$/.test(f))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['dist/conformance/index.json', 'dist/conformance/int-lop3.json.gz', 'dist/conformance/int-lop3.out.bin.gz']));
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/ptx-wgsl/package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(pkg['type']).toBe('module');
    expect(pkg['peerDependenciesMeta']).toEqual({ webgpu: { optional: true } });
    expect(pkg['dependencies']?.['webgpu']).toBeUndefined();
  });

  it('runs a kernel in Node from the installed package; its CLI prints only results and finds the conformance data', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', SMOKE_NODE], { cwd: app, encoding: 'utf8', env: gpuEnv() });
    expect(r.stderr).not.toMatch(/Error/);
    expect(JSON.parse(r.stdout)).toEqual(SAXPY_Y);
    const cli = spawnSync(process.execPath, ['node_modules/ptx-wgsl/dist/src/cli/main.js', 'run', 'saxpy.ptx', '--block', '32', '--arg', 'u32=8', '--arg', 'f32=2', '--arg', 'f32:n=8:linear', '--arg', 'f32:n=8:fill=1', '--json'], { cwd: app, encoding: 'utf8', env: gpuEnv() });
    expect(cli.stderr).toBe('');
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: true, args: [{}, {}, {}, { values: SAXPY_Y }] });
    const conformance = spawnSync(process.execPath, ['node_modules/ptx-wgsl/dist/src/cli/main.js', 'conformance', '--only', 'int-lop3', '--json'], { cwd: app, encoding: 'utf8', env: gpuEnv() });
    expect(JSON.parse(conformance.stdout)).toMatchObject({ ok: true, families: [{ name: 'int-lop3', ok: true, paths: [{ failedCases: 0 }] }] });
  });

  it('says to install webgpu when Node lacks it (R003)', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', SMOKE_NODE], { cwd: join(tmp, 'no-webgpu'), encoding: 'utf8', env: gpuEnv() });
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'PtxError', code: 'R003', message: expect.stringMatching(/npm install webgpu/) });
  });

  it('type-checks against the declarations (skipLibCheck off, no ambient types but its own)', () => {
    writeFileSync(join(app, 'smoke.ts'), SMOKE_TS);
    const compilerOptions = { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: [], lib: ['ES2022', 'DOM'] };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['smoke.ts'] }));
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('imports and runs a kernel in Deno by local path', async () => {
    writeFileSync(join(app, 'smoke-deno.mjs'), SMOKE_DENO);
    const r = spawnSync(await denoCommand(), ['run', '--allow-read', '--allow-env', '--no-prompt', 'smoke-deno.mjs'], { cwd: app, encoding: 'utf8', env: gpuEnv() });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ entry: 'saxpy', y: SAXPY_Y });
  });

  it('runs a kernel in Chromium from a bundle of the installed package', async () => {
    // the page's runAll (tests/hosts/chromium-runner.ts) runs saxpy through the tarball's runPtx
    const ptx = readFileSync(join(app, 'saxpy.ptx'), 'utf8');
    writeFileSync(join(app, 'chromium-entry.js'), `import { runPtx } from 'ptx-wgsl';
export async function runAll() {
  const y = new Float32Array(8).fill(1);
  const t0 = performance.now();
  try {
    await runPtx(${JSON.stringify(ptx)}, [8, 2, new Float32Array(8).map((_, i) => i), y], { grid: 1, block: 32 });
    return { info: null, results: [{ name: 'saxpy', ok: true, message: JSON.stringify([...y]), ms: performance.now() - t0 }] };
  } catch (e) {
    return { info: null, results: [{ name: 'saxpy', ok: false, message: String(e), ms: 0 }] };
  }
}
`);
    const out = join(app, 'chromium');
    mkdirSync(out, { recursive: true });
    await build({ absWorkingDir: app, entryPoints: ['chromium-entry.js'], bundle: true, platform: 'browser', format: 'esm', outfile: join(out, 'smoke.js'), logLevel: 'silent' });
    const run = await runInChromium({ bundleDir: out, script: 'smoke.js', timeoutMs: 240_000 });
    expect(run.results, run.log.join('\n')).toEqual([expect.objectContaining({ name: 'saxpy', ok: true, message: JSON.stringify(SAXPY_Y) })]);
  }, 300_000);

  it('bundles for browsers with no Node built-ins (README states the size)', async () => {
    writeFileSync(join(app, 'browser-entry.js'), `export { runPtx } from 'ptx-wgsl';\n`);
    const result = await build({ absWorkingDir: app, entryPoints: ['browser-entry.js'], bundle: true, platform: 'browser', format: 'esm', minify: true, write: false, metafile: true, logLevel: 'silent' });
    const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports);
    expect(imports.filter((i) => i.external || i.path.startsWith('node:'))).toEqual([]);
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    expect(new TextDecoder().decode(code)).not.toMatch(/["']node:/);
    const gzipped = gzipSync(code).byteLength;
    expect(gzipped).toBeLessThan(160_000);
    console.log(`browser bundle of runPtx: ${(code.byteLength / 1024).toFixed(0)} KiB minified, ${(gzipped / 1024).toFixed(0)} KiB gzipped`);
  });
});
