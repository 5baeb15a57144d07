// Static size of WGSL helpers (shaders/*.wgsl): for each named function, the functions it reaches,
// their non-blank code lines and operator count, and the "inlined" count, where every call site
// counts its callee's whole inlined body and every branch is counted (an upper bound of what one
// call executes). Operators: arithmetic, bitwise, comparisons, select, any/all, count*Zeros, if.
//   node bench/wgsl-opcount.mjs [shader-dir] f64_fma f64_fma_fast ...
import { readFileSync, readdirSync, existsSync } from 'node:fs';

const args = process.argv.slice(2);
const dir = args[0] && existsSync(args[0]) ? args.shift() : new URL('../shaders/', import.meta.url).pathname;
const src = readdirSync(dir).filter((f) => f.endsWith('.wgsl')).map((f) => readFileSync(`${dir}/${f}`, 'utf8')).join('\n');
const fns = new Map();
for (const chunk of src.split(/^(?=fn )/m)) {
  const m = /^fn (\w+)\(/.exec(chunk);
  if (m) fns.set(m[1], chunk.replace(/\n(\/\/[^\n]*\n?)*$/, '').replace(/\/\/.*$/gm, ''));
}
const body = (f) => fns.get(f).slice(fns.get(f).indexOf('{'));
const ops = (text) => (text.replace(/->/g, '').replace(/(vec[234]|array)<[^>]*>/g, 'T')
  .match(/<<|>>|[+\-*&|^~!]=?|[<>]=?|==|!=|\bselect\(|\bcount(Leading|Trailing)Zeros\(|\bif\b|\bany\(|\ball\(/g) ?? []).length;
const callees = (f) => [...body(f).matchAll(/\b(\w+)\(/g)].map((m) => m[1]).filter((n) => n !== f && fns.has(n));
const memo = new Map();
const inlined = (f) => {
  if (!memo.has(f)) memo.set(f, ops(body(f)) + callees(f).reduce((n, g) => n + inlined(g), 0));
  return memo.get(f);
};
for (const root of args) {
  if (!fns.has(root)) { console.log(JSON.stringify({ fn: root, missing: true })); continue; }
  const seen = new Set(); const todo = [root];
  while (todo.length) { const f = todo.pop(); if (!seen.has(f)) { seen.add(f); todo.push(...callees(f)); } }
  const all = [...seen];
  const lines = all.reduce((n, f) => n + fns.get(f).split('\n').filter((l) => l.trim()).length, 0);
  console.log(JSON.stringify({ fn: root, functions: all.length, lines, ops: all.reduce((n, f) => n + ops(body(f)), 0), inlined_ops: inlined(root) }));
}
