// CompiledKernel.lineMap: each WGSL line an instruction wrote knows that instruction's PTX
// line (the demo's PTX <-> WGSL link), and every other line maps to null.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';

const PTX = `.version 7.0
.target sm_80
.address_size 64

.visible .entry k(.param .u64 p_out, .param .u64 p_sum, .param .f32 p_a)
{
  .reg .f32 %f<4>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p_out];
  ld.param.u64 %rd2, [p_sum];
  ld.param.f32 %f1, [p_a];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f2, %r1;
  fma.rn.f32 %f3, %f2, %f1, %f1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.f32 [%rd4], %f3;
  atom.global.add.u32 %r2, [%rd2], %r1;
  ret;
}
`;

/** 1-based PTX line of the first line containing `text`. */
const ptxLine = (src: string, text: string): number => src.split('\n').findIndex((l) => l.includes(text)) + 1;

describe('CompiledKernel.lineMap', () => {
  for (const fusedFma of [false, true]) {
    it(`maps WGSL lines to their PTX instruction (fusedFma ${fusedFma})`, () => {
      const [k] = compile(PTX, { fusedFma }).kernels;
      const wgsl = k!.wgsl.split('\n');
      const map = k!.lineMap!;
      expect(map).toHaveLength(wgsl.length);
      // The store of the fma's result and the atomicAdd: each on lines mapped to its own PTX line.
      const fmaLine = ptxLine(PTX, 'fma.rn.f32');
      const atomLine = ptxLine(PTX, 'atom.global.add');
      const atomWgsl = wgsl.findIndex((l) => l.includes('atomicAdd'));
      expect(atomWgsl).toBeGreaterThan(0);
      expect(map[atomWgsl]).toBe(atomLine);
      const fmaWgsl = map.flatMap((l, i) => (l === fmaLine ? [i] : []));
      expect(fmaWgsl.length).toBeGreaterThan(0);
      expect(fmaWgsl.some((i) => wgsl[i]!.includes('fma'))).toBe(true);
      // Declarations and the entry point's prologue map to nothing; every mapped line is an instruction's.
      expect(map.slice(0, wgsl.findIndex((l) => l.startsWith('@compute')) + 1).every((l) => l === null)).toBe(true);
      const instLines = new Set(PTX.split('\n').flatMap((l, i) => (/^\s+[a-z@]/.test(l) && !l.includes('.reg') ? [i + 1] : [])));
      for (const l of map) if (l !== null) expect(instLines.has(l), `line ${l}`).toBe(true);
    });
  }

  it('maps an nvcc kernel (saxpy) line by line', () => {
    const src = readFileSync('examples/saxpy.ptx', 'utf8');
    const k = compile(src).kernels[0]!;
    const wgsl = k.wgsl.split('\n');
    const mapped = new Set(k.lineMap!.filter((l): l is number => l !== null));
    for (const text of ['ld.global.f32', 'fma.rn.f32', 'st.global.f32', 'setp.ge.s32']) expect(mapped.has(ptxLine(src, text)), text).toBe(true);
    expect(k.lineMap!.length).toBe(wgsl.length);
  });
});
