// The emitter's WGSL and the layout the runtime binds by must agree: every kernel of the
// project's PTX (tests/kernels, the corpus) is compiled for a device with subgroups and for
// one without, and its WGSL is reflected with wgsl_reflect (an independent WGSL parser) to
// check that the resources it declares are exactly the layout's bindings, with the same
// access, that the entry point is the one the layout names, and that every override the
// runtime sets exists.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The package's CommonJS build has no named ESM exports under Node; its ES module build does.
import { WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
import { compile, parsePtx } from '../../src/index.js';

const dirs = ['tests/kernels', 'tests/corpus/kernels'];
// mem_recursion.ptx is the recursion that is an error by design (tests/memory)
const files = dirs.flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.ptx') && f !== 'mem_recursion.ptx').map((f) => join(d, f)));

function entriesOf(src: string): string[] {
  return parsePtx(src).items.flatMap((i) => (i.kind === 'function' && i.isEntry ? [i.name] : []));
}

const devices = [
  { name: 'subgroups of 32', options: { subgroupOps: true, subgroupSize: 32 } },
  { name: 'no subgroups', options: {} },
] as const;

describe.each(devices)('WGSL resources match the layout ($name)', ({ options }) => {
  it.each(files)('%s', (file) => {
    const src = readFileSync(file, 'utf8');
    const problems: string[] = [];
    let checked = 0;
    for (const entry of entriesOf(src)) {
      let kernel;
      try {
        [kernel] = compile(src, { ...options, entry, fileName: file }).kernels;
      } catch {
        continue; // a kernel we do not compile yet (reported elsewhere): nothing to bind
      }
      if (!kernel) continue;
      checked++;
      const r = new WgslReflect(kernel.wgsl);
      const declared = new Map<number, { kind: string; access?: string }>();
      for (const u of r.uniforms) declared.set(u.binding, { kind: 'uniform' });
      for (const s of r.storage) declared.set(s.binding, { kind: 'storage', access: s.access });
      if ([...r.uniforms, ...r.storage].some((v) => v.group !== 0)) problems.push(`${entry}: a resource outside group 0`);
      const bound = kernel.layout.bindings;
      for (const b of bound) {
        const d = declared.get(b.binding);
        if (!d) { problems.push(`${entry}: binding ${b.binding} (${b.kind}) is not declared`); continue; }
        // the launch header, and `.const` up to 64 KiB (layout access 'uniform'), are uniform buffers
        const uniform = b.kind === 'launch-params' || (b.kind === 'module-memory' && b.access === 'uniform');
        if (uniform !== (d.kind === 'uniform')) problems.push(`${entry}: binding ${b.binding} is ${d.kind}, layout says ${b.kind}${'access' in b ? ` (${b.access})` : ''}`);
        if (!uniform && 'access' in b && b.access !== d.access) problems.push(`${entry}: binding ${b.binding} access ${d.access}, layout says ${b.access}`);
      }
      for (const n of declared.keys()) if (!bound.some((b) => b.binding === n)) problems.push(`${entry}: WGSL declares binding ${n}, the layout does not bind it`);
      const computeEntries = r.entry.compute.map((e) => e.name);
      if (!computeEntries.includes(kernel.entryPoint)) problems.push(`${entry}: no compute entry ${kernel.entryPoint} (has ${computeEntries.join(', ')})`);
      const overrides = new Set(r.overrides.map((o) => o.name));
      for (const o of kernel.layout.overrides) if (!overrides.has(o)) problems.push(`${entry}: override ${o} is not declared`);
    }
    expect(problems).toEqual([]);
    expect(checked, 'no kernel of the file compiled').toBeGreaterThan(0);
  });
});
