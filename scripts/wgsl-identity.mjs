// Identity check for changes that must not change what the compiler writes (speed work on the
// transpiler): for every .ptx under tests/ and bench/ and three option sets (no device facts;
// 32-lane subgroups; the same with an H100's subgroup-matrix configurations), one line per
// (file, option set) with a hash of every kernel's WGSL, layout, entry points and line map, or of
// the diagnostics where the file does not compile (then each entry is compiled alone as well).
//   npm run build && node scripts/wgsl-identity.mjs [repo root] > before.txt
//   ... change, build ...   node scripts/wgsl-identity.mjs > after.txt && cmp before.txt after.txt
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const { compile } = await import(join(root, 'dist/src/index.js'));
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) { if (name !== 'node_modules') walk(path); } else if (name.endsWith('.ptx')) files.push(path);
  }
};
walk(join(root, 'tests'));
walk(join(root, 'bench'));
const config = (componentType, resultComponentType, M, N, K) => ({ componentType, resultComponentType, M, N, K });
const H100 = [config('f16', 'f32', 16, 8, 16), config('f16', 'f16', 16, 8, 16), config('f16', 'f32', 16, 8, 8), config('f16', 'f16', 16, 8, 8), config('f16', 'f32', 16, 16, 16)];
const optionSets = [{}, { subgroupSize: 32, warpPath: 'auto' }, { subgroupSize: 32, warpPath: 'auto', subgroupMatrixConfigs: H100 }];
const replacer = (_k, v) => (v instanceof Map ? { map: [...v] } : v instanceof Set ? { set: [...v] } : typeof v === 'bigint' ? `${v}n` : v);
function describe(text, options) {
  try {
    const r = compile(text, options);
    return r.kernels.map((k) => JSON.stringify({ entryPoint: k.entryPoint, epilogue: k.epilogueEntryPoint, wgsl: k.wgsl, layout: k.layout, lineMap: k.lineMap }, replacer)).join('\n');
  } catch (e) {
    if (e && e.name === 'PtxError') return 'ERR ' + JSON.stringify({ diagnostics: e.diagnostics, rendered: e.rendered }, replacer);
    return 'THROW ' + String(e && e.stack ? e.message : e);
  }
}
let n = 0;
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  const rel = f.slice(root.length + 1);
  optionSets.forEach((o, i) => {
    let all = describe(text, { fileName: rel, ...o });
    if (all.startsWith('ERR') || all.startsWith('THROW')) {
      const entries = [...text.matchAll(/\.entry\s+([A-Za-z_$%][\w$]*)/g)].map((m) => m[1]);
      for (const entry of entries) all += `\n[${entry}] ` + describe(text, { fileName: rel, ...o, entry });
    }
    const status = all.startsWith('ERR') ? 'err' : all.startsWith('THROW') ? 'throw' : 'ok';
    console.log(`${rel} opts${i} ${status} ${createHash('sha256').update(all).digest('hex').slice(0, 24)}`);
    n++;
  });
}
console.error(`${n} (file, option set) combinations`);
