// Self-test of the e2e case definitions (no GPU, no transpiler): the reference-filled
// arguments must pass check(), untouched (poisoned) arguments must fail it, and the
// f32 fma helper must be correctly rounded.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cases } from './cases.ts';
import { bitsToF32, f32ToBits, fmaf32, isNumArray, Rng } from './reference.ts';

function sameBytes(x: ArrayBufferView, y: ArrayBufferView): boolean {
  const a = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  const b = new Uint8Array(y.buffer, y.byteOffset, y.byteLength);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

describe('e2e cases', () => {
  it('has unique names and at least 2 cases per kernel entry', () => {
    const names = new Set(cases.map((c) => c.name));
    expect(names.size).toBe(cases.length);
    const perEntry = new Map<string, number>();
    for (const c of cases) perEntry.set(c.entry ?? '', (perEntry.get(c.entry ?? '') ?? 0) + 1);
    for (const [entry, count] of perEntry) expect(count, entry).toBeGreaterThanOrEqual(2);
  });

  for (const c of cases) {
    describe(c.name, () => {
      it('makeArgs is deterministic and fresh', () => {
        const a1 = c.makeArgs();
        const a2 = c.makeArgs();
        expect(a1.length).toBe(a2.length);
        for (let j = 0; j < a1.length; j++) {
          const x = a1[j];
          const y = a2[j];
          if (isNumArray(x)) {
            expect(x !== y).toBe(true);
            expect(isNumArray(y) && x.constructor === y.constructor && sameBytes(x, y)).toBe(true);
          } else {
            expect(typeof x === 'number' || typeof x === 'bigint').toBe(true);
            expect(x).toBe(y);
          }
        }
      });

      it('args match the PTX entry parameter list', () => {
        const src = readFileSync(new URL(`../kernels/${c.ptxFile}`, import.meta.url), 'utf8');
        const m = new RegExp(`\\.visible\\s+\\.entry\\s+${c.entry ?? ''}\\s*\\(([^)]*)\\)`).exec(src);
        expect(m, `entry ${c.entry ?? ''} in ${c.ptxFile}`).not.toBeNull();
        const params = [...(m?.[1] ?? '').matchAll(/\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)\s+\w+(?:\[(\d+)\])?/g)];
        const types = params.map((x) => x[1]);
        const args = c.makeArgs();
        expect(args.length).toBe(types.length);
        args.forEach((a, j) => {
          const t = types[j];
          const bytes = params[j]?.[2];
          // a by-value aggregate (`.param .align 4 .b8 p[36]`) takes its bytes
          if (bytes !== undefined) expect(isNumArray(a) && a.byteLength === Number(bytes), `arg ${j}: ${bytes} bytes`).toBe(true);
          else if (isNumArray(a)) expect(t, `arg ${j}`).toBe('u64');
          else if (typeof a === 'bigint') expect(['u64', 's64', 'b64'], `arg ${j}`).toContain(t);
          else expect(['u32', 's32', 'b32', 'f32', 'f64'], `arg ${j}`).toContain(t);
        });
      });

      it('the reference passes check()', () => {
        const args = c.makeArgs();
        c.expected?.(args);
        expect(c.check(args)).toBeNull();
      });

      it('poisoned outputs fail check() with a message', () => {
        const args = c.makeArgs();
        const msg = c.check(args);
        expect(msg).toMatch(/mismatch.*first at \[\d+\].*got .*expected/);
      });

      it('a single corrupted output element is reported', () => {
        const args = c.makeArgs();
        c.expected?.(args);
        // corrupt the last element of the first output-bearing array
        const freshArgs = c.makeArgs();
        let corrupted = false;
        for (let j = 0; j < args.length && !corrupted; j++) {
          const a = args[j];
          const fresh = freshArgs[j];
          if (!isNumArray(a) || !isNumArray(fresh)) continue;
          // an output is an array whose expected contents differ from makeArgs()
          let differs = -1;
          for (let i = 0; i < a.length; i++) {
            if (!Object.is(a[i], fresh[i])) differs = i;
          }
          if (differs < 0) continue;
          if (typeof a[differs] === 'bigint') (a as BigInt64Array)[differs] = (a[differs] as bigint) ^ 1n;
          else if (a instanceof Float32Array) a[differs] = c.tolerance ? (a[differs] as number) * 2 + 1 : bitsToF32(f32ToBits(a[differs] as number) ^ 1);
          else (a as Int32Array)[differs] = (a[differs] as number) ^ 1;
          corrupted = true;
        }
        expect(corrupted).toBe(true);
        expect(c.check(args)).toMatch(/1 mismatch of/);
      });

      it('an input modification is reported', () => {
        const args = c.makeArgs();
        c.expected?.(args);
        const j = args.findIndex((a) => isNumArray(a) && a.length > 0);
        const a = args[j];
        if (!isNumArray(a)) throw new Error('no array arg');
        // flip a bit of the first array (input or output: both must be caught); a low bit, or the
        // sign where outputs are compared within a tolerance
        new Uint8Array(a.buffer, a.byteOffset, a.byteLength)[c.tolerance ? 3 : 0]! ^= c.tolerance ? 0x80 : 0x10;
        expect(c.check(args)).not.toBeNull();
      });
    });
  }
});

// ----------------------------------------------------------------- fma

/** Exact value of a finite f32/f64 as mantissa * 2^exp with bigint mantissa. */
function decompose(x: number): { m: bigint; e: number } {
  if (x === 0) return { m: 0n, e: 0 };
  const buf = new Float64Array([x]);
  const bits = new BigUint64Array(buf.buffer)[0]!;
  const sign = bits >> 63n ? -1n : 1n;
  const expBits = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const m = expBits === 0 ? frac : frac | (1n << 52n);
  const e = (expBits === 0 ? 1 : expBits) - 1075;
  return { m: sign * m, e };
}

/** Exact a*b + c rounded once to f32 (round to nearest even), via bigint arithmetic. */
function exactFmaF32(a: number, b: number, c: number): number {
  const A = decompose(a);
  const B = decompose(b);
  const C = decompose(c);
  const pe = A.e + B.e;
  const e = Math.min(pe, C.e);
  let m = ((A.m * B.m) << BigInt(pe - e)) + (C.m << BigInt(C.e - e));
  if (m === 0n) return 0; // sign of zero not exercised here
  const neg = m < 0n;
  if (neg) m = -m;
  // round m * 2^e to 24 significant bits (normal range only)
  const len = m.toString(2).length;
  let exp = e;
  if (len > 24) {
    const sh = BigInt(len - 24);
    const q = m >> sh;
    const r = m - (q << sh);
    const half = 1n << (sh - 1n);
    let qq = q;
    if (r > half || (r === half && (q & 1n) === 1n)) qq += 1n;
    m = qq;
    exp += len - 24;
  }
  const v = Number(m) * 2 ** exp;
  return neg ? -v : v;
}

describe('fmaf32', () => {
  it('matches an exact bigint fma on random inputs', () => {
    const rng = new Rng(12345);
    for (let k = 0; k < 20000; k++) {
      const a = rng.f32(-100, 100);
      const b = rng.f32(-100, 100);
      const c = k % 3 === 0 ? Math.fround(-a * b) : rng.f32(-1e4, 1e4);
      expect(fmaf32(a, b, c)).toBe(exactFmaF32(a, b, c));
    }
  });

  it('is correctly rounded where the f64 sum would double-round', () => {
    // (1 + i*2^-12)(1 + j*2^-12) = 1 + (i+j)*2^-12 + ij*2^-24 is an f32 rounding midpoint
    // when ij is odd; adding a tiny c = +-2^-k moves the exact value off the midpoint, but
    // the f64 sum rounds back onto it and a plain Math.fround then rounds the tie to even.
    const rng = new Rng(7);
    let doubleRoundingSeen = 0;
    for (let k = 0; k < 20000; k++) {
      const sx = rng.int(0, 1) ? 1 : -1;
      const x = sx * (1 + rng.int(1, 2047) * 2 ** -12);
      const y = 1 + rng.int(1, 2047) * 2 ** -12;
      const z = (rng.int(0, 1) ? 1 : -1) * 2 ** -rng.int(60, 120);
      const want = exactFmaF32(x, y, z);
      const naive = Math.fround(x * y + z);
      if (naive !== want) doubleRoundingSeen++;
      expect(fmaf32(x, y, z)).toBe(want);
    }
    expect(doubleRoundingSeen).toBeGreaterThan(1000);
  });

  it('saxpy/fma-rounding distinguishes fused from unfused evaluation', () => {
    const c = cases.find((k) => k.name === 'saxpy/fma-rounding')!;
    const [, a, x, y] = c.makeArgs() as [number, number, Float32Array, Float32Array];
    let differ = 0;
    for (let i = 0; i < x.length; i++) {
      const fused = fmaf32(a, x[i]!, y[i]!);
      const unfused = Math.fround(Math.fround(a * x[i]!) + y[i]!);
      if (f32ToBits(fused) !== f32ToBits(unfused)) differ++;
    }
    expect(differ).toBeGreaterThan(x.length / 20);
  });
});
