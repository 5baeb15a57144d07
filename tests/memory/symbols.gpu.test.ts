// Host access to module variables (issue 4), like cudaMemcpyToSymbol / cudaMemcpyFromSymbol /
// cudaGetSymbolAddress: Module.getGlobal, copyToSymbol and copyFromSymbol on a real WebGPU with
// tests/kernels/mem_globals.cu (JS references from that source; outputs poisoned).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/index.js';
import type { Context } from '../../runtime/context.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { MODULE_GLOBAL_TAG } from '../../lowering/layout.js';

const SRC = readFileSync(new URL('../kernels/mem_globals.ptx', import.meta.url), 'utf8');
const POISON = 0xdeadbeef | 0;
let ctx: Context;
beforeAll(async () => { ctx = await createContext(); });
afterAll(() => { ctx.destroy(); releaseDefaultDevice(); });

describe('Module.getGlobal', () => {
  it('names, spaces, sizes and the addresses kernels see', () => {
    const mod = ctx.loadModule(SRC);
    const gdata = mod.getGlobal('gdata');
    expect(gdata).toMatchObject({ name: 'gdata', space: 'global', bytes: 16 });
    expect(gdata.address >> 32n).toBe(BigInt(MODULE_GLOBAL_TAG));
    expect(mod.getGlobal('counter').bytes).toBe(4);
    expect(mod.getGlobal('gbytes').bytes).toBe(6);
    expect(mod.getGlobal('ctab')).toMatchObject({ space: 'const', bytes: 32 });
    expect(mod.getGlobal('cscale')).toMatchObject({ space: 'const', bytes: 8 });
    // gptrs is initialised with gdata's and gdata+2's addresses: the host reads the same.
    expect(mod.getGlobal('gptrs').bytes).toBe(16);
    expect(() => mod.getGlobal('nope')).toThrow(/R002[\s\S]*no .global or .const variable 'nope'[\s\S]*gdata/);
  });
});

describe('copyToSymbol / copyFromSymbol', () => {
  it('reads initialisers, writes __device__ and __constant__ data the kernel then reads, and reads back the counter it wrote', async () => {
    const mod = ctx.loadModule(SRC);
    // Before any launch: the initial values, with gptrs relocated to gdata's address.
    const counter = new Int32Array(1).fill(POISON);
    await mod.copyFromSymbol(counter, 'counter');
    expect([...counter]).toEqual([1000]);
    const ptrs = new BigUint64Array(2);
    await mod.copyFromSymbol(ptrs, 'gptrs');
    const gdata = mod.getGlobal('gdata').address;
    expect([...ptrs]).toEqual([gdata, gdata + 8n]);

    mod.copyToSymbol('gdata', Int32Array.of(-7, 77, 777, 7777));
    mod.copyToSymbol('ctab', Int32Array.of(60, 70), 4 * 6); // ctab[6..7]
    mod.copyToSymbol('counter', Int32Array.of(5000));
    mod.copyToSymbol('gbytes', Uint8Array.of(11, 12, 13, 14)); // gbytes[4..5] keep 5, 6
    const n = 40;
    const input = Int32Array.from({ length: n }, (_, i) => i * 5 + 3);
    const [din, dout, dfout] = [ctx.malloc(n * 4), ctx.malloc(n * 16), ctx.malloc(n * 4)];
    ctx.memcpyHtoD(din, input);
    ctx.memset(dout, 0xef, n * 16);
    mod.getFunction('mem_globals').launch({ grid: 2, block: 32 }, [din, dout, dfout, n]);
    const out = new Int32Array(n * 4);
    await ctx.memcpyDtoH(out, dout);
    const ctab = [3, 1, 4, 1, 5, 9, 60, 70];
    const gd = [-7, 77, 777, 7777];
    const exp = new Int32Array(n * 4);
    for (let i = 0; i < n; i++) {
      const v = input[i] as number;
      exp.set([(ctab[v & 7] as number) * 100 + (ctab[(v >> 3) & 7] as number), gd[(v & 1) * 2 + ((v >> 1) & 1)] as number, 1, [11, 12, 13, 14, 5, 6][v % 6] as number], i * 4);
    }
    expect([...out]).toEqual([...exp]);
    await mod.copyFromSymbol(counter, 'counter');
    expect([...counter]).toEqual([5000 + n]);
    // A partial read at an offset, and the kernel's own write seen by the host.
    const two = new Int32Array(2).fill(POISON);
    await mod.copyFromSymbol(two, 'gdata', 8);
    expect([...two]).toEqual([777, 7777]);
    const dres = ctx.malloc(16);
    mod.getFunction('mem_read_counter').launch({ grid: 1, block: 1 }, [dres]);
    const bump = new Int32Array(1).fill(POISON);
    await mod.copyFromSymbol(bump, 'gbump');
    expect([...bump]).toEqual([41]);
    [din, dout, dfout, dres].forEach((d) => ctx.free(d));
  });

  it('rejects ranges outside the variable', async () => {
    const mod = ctx.loadModule(SRC);
    expect(() => mod.copyToSymbol('gdata', new Int32Array(5))).toThrow(/R002[\s\S]*20 bytes at offset 0 do not fit 'gdata' \(16 bytes\)/);
    await expect(mod.copyFromSymbol(new Int32Array(1), 'counter', 4)).rejects.toThrow(/do not fit 'counter'/);
    // WebGPU writes whole words: a write that ends inside a word is refused, never widened.
    expect(() => mod.copyToSymbol('gbytes', new Uint8Array(6))).toThrow(/R002[\s\S]*not 4-byte aligned/);
    // Reads of any range work.
    const b = new Uint8Array(3);
    await mod.copyFromSymbol(b, 'gbytes', 3);
    expect([...b]).toEqual([4, 5, 6]);
  });

  it('keeps host-written values when a kernel with function-scope variables needs a larger image', async () => {
    const ptx = `.version 9.0
.target sm_80
.address_size 64
.global .align 4 .u32 g = 3;
.visible .entry k(.param .u64 out)
{
  .global .align 4 .u32 inner[4] = {7, 8, 9, 10};
  .reg .b32 %r<4>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd1, %rd1;
  ld.global.u32 %r1, [g];
  ld.global.u32 %r2, [inner+12];
  st.global.v2.u32 [%rd1], {%r1, %r2};
  ret;
}`;
    const mod = ctx.loadModule(ptx);
    expect(mod.getGlobal('g').bytes).toBe(4);
    expect(() => mod.getGlobal('inner')).toThrow(/R002[\s\S]*variables: g\)/);
    mod.copyToSymbol('g', Uint32Array.of(12345)); // creates the module-scope image (4 bytes)
    const d = ctx.malloc(16);
    ctx.memset(d, 0xef, 16);
    mod.getFunction('k').launch({ block: 1 }, [d]);
    const host = new Uint32Array(4);
    await ctx.memcpyDtoH(host, d);
    expect([...host]).toEqual([12345, 10, 0xefefefef, 0xefefefef]);
    const g = new Uint32Array(1);
    await mod.copyFromSymbol(g, 'g');
    expect([...g]).toEqual([12345]);
    ctx.free(d);
  });
});
