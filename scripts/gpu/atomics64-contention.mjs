// 64-bit atomics under contention on the default adapter: tests/kernels/counters_u64 (atomicAdd
// of unsigned long long onto one word and onto four words, and atomicMax, from every thread)
// at growing grid sizes, checked against a BigInt reference, with the wall time of each run.
//   npm run build && node scripts/gpu/atomics64-contention.mjs [n ...]   (there: source .gpu/remote.sh)
import { readFileSync } from 'node:fs';
import { create, globals } from 'webgpu';
Object.assign(globalThis, globals);
Object.defineProperty(globalThis, 'navigator', { value: { gpu: create([]) }, configurable: true });
const { createContext } = await import('../../dist/src/index.js');
const ptx = readFileSync(new URL('../../tests/kernels/counters_u64.ptx', import.meta.url), 'utf8');
const sizes = process.argv.slice(2).map(Number);
const ctx = await createContext();
const mod = await ctx.loadModule(ptx);
const fn = mod.getFunction('counters_u64');
let failed = 0;
for (const n of sizes.length ? sizes : [1000, 10_000, 100_000, 1_000_000]) {
  let seed = n;
  const values = new Uint32Array(n).map(() => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed; });
  const init = { total: [0xffffff00n], perClass: [1n, 2n, 3n, 0xffffffffn], biggest: [5n] };
  const exp = { total: init.total[0], perClass: [...init.perClass], biggest: init.biggest[0] };
  for (let i = 0; i < n; i++) {
    const v = BigInt(values[i]) << 8n;
    exp.total = BigInt.asUintN(64, exp.total + v);
    exp.perClass[values[i] % 4] += 1n;
    const m = BigInt.asUintN(64, v * 3n + BigInt(i));
    if (m > exp.biggest) exp.biggest = m;
  }
  const dv = ctx.malloc(4 * n), dt = ctx.malloc(8), dp = ctx.malloc(32), db = ctx.malloc(8);
  ctx.memcpyHtoD(dv, values); ctx.memcpyHtoD(dt, new BigUint64Array(init.total));
  ctx.memcpyHtoD(dp, new BigUint64Array(init.perClass)); ctx.memcpyHtoD(db, new BigUint64Array(init.biggest));
  await ctx.synchronize();
  const t0 = performance.now();
  fn.launch({ grid: Math.ceil(n / 256), block: 256 }, [dv, dt, dp, db, n]);
  await ctx.synchronize();
  const ms = performance.now() - t0;
  const total = new BigUint64Array(1), per = new BigUint64Array(4), big = new BigUint64Array(1);
  await ctx.memcpyDtoH(total, dt); await ctx.memcpyDtoH(per, dp); await ctx.memcpyDtoH(big, db);
  const ok = total[0] === exp.total && per.every((x, k) => x === exp.perClass[k]) && big[0] === exp.biggest;
  if (!ok) failed++;
  console.log(`n=${n}: ${ok ? 'exact' : `WRONG total ${total[0]} (want ${exp.total}) per ${per} (want ${exp.perClass}) max ${big[0]} (want ${exp.biggest})`} ${ms.toFixed(1)} ms`);
  for (const b of [dv, dt, dp, db]) ctx.free(b);
}
ctx.destroy();
process.exit(failed ? 1 : 0);
