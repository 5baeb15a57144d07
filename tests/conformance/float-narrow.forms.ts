/**
 * The sm_100a narrow-float cvt forms (fp4 e2m1x2, fp6 e2m3x2/e3m2x2, ue8m0x2), every variant
 * ptxas 13 accepts, with expected results from NVIDIA's own host code: the HOST (non-__CUDA_ARCH__)
 * conversion functions of CUDA 13's cuda_fp4.hpp, cuda_fp6.hpp and cuda_fp8.hpp, run by
 * native/narrow_ref.cpp into native/float-narrow-header.json.gz (one lane at a time; PTX puts the
 * first source, or the high half of a packed source, in the high lane).
 *
 * The headers document the same results for their device path (which is the PTX cvt): fp4/fp6
 * "NaN input values result in positive MAXNORM", "large out-of-range values saturate to MAXNORM
 * of the same sign" (cuda_fp4.h, cuda_fp6.h); ue8m0 rounds the ABSOLUTE value to a power of two,
 * clips below 2^-127 to 2^-127, above 2^127 to 2^127 (.satfinite) or NaN 0xff, NaN to 0xff
 * (cuda_fp8.h, __nv_cvt_bfloat16raw_to_e8m0).
 *
 * .relu is not in the headers (they never emit it). Its reference here follows the ISA's words
 * for cvt .relu, "clamps negative results to 0", applied to the header's result: a result with
 * the sign bit set (-0 included) becomes +0. NaN inputs give +MAX_NORM in fp4/fp6 (header), which
 * .relu leaves alone. (Not verified on hardware: there is no sm_100 device here.)
 *
 * e2m1x2 operands are .b8 registers, so those bodies declare one in a nested block and move it
 * to/from the harness's 16-bit registers with cvt.u16.u8 / cvt.u8.u16.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { form, type Form } from './harness.js';

export interface NarrowForm { readonly form: Form; readonly inputs: bigint[][]; readonly want: (ins: bigint[]) => bigint[] }

interface HeaderTables {
  readonly f32: Readonly<Record<string, string>>;
  readonly f16: Readonly<Record<string, string>>;
  readonly bf16: Readonly<Record<string, string>>;
  readonly widen: Readonly<Record<string, string>>;
}

const load = (): HeaderTables => JSON.parse(gunzipSync(readFileSync(new URL('./native/float-narrow-header.json.gz', import.meta.url))).toString('utf8')) as HeaderTables;

/** A table's hex string as numbers of `digits` hex digits each. */
function words(s: string | undefined, digits: number): bigint[] {
  if (s === undefined) throw new Error('float-narrow-header.json.gz: missing table');
  return Array.from({ length: s.length / digits }, (_, i) => BigInt(`0x${s.slice(i * digits, (i + 1) * digits)}`));
}

/**
 * One-lane header reference by table name: `f32.<name>` (f32 bits of the recorded inputs),
 * `f16.e2m1` / `bf16.<ue8m0 name>` (every 16-bit pattern), `widen.<fmt>_f16|ue8m0_bf16` (codes).
 */
export interface HeaderRef {
  readonly f32In: readonly bigint[];
  readonly f32: (table: string, x: bigint) => bigint;
  readonly half: (group: 'f16' | 'bf16', table: string, h: bigint) => bigint;
  readonly widen: (table: string, code: bigint) => bigint;
}

export function headerRef(): HeaderRef {
  const h = load();
  const f32In = words(h.f32.in, 8);
  const index = new Map(f32In.map((x, i) => [x, i]));
  const cache = new Map<string, bigint[]>();
  const table = (key: string, s: string | undefined, digits: number): bigint[] => {
    const t = cache.get(key) ?? words(s, digits);
    cache.set(key, t);
    return t;
  };
  return {
    f32In,
    f32: (name, x) => {
      const i = index.get(x);
      if (i === undefined) throw new Error(`f32 input 0x${x.toString(16)} is not in the recorded set`);
      return table(`f32.${name}`, h.f32[name], 2)[i] as bigint;
    },
    half: (group, name, v) => table(`${group}.${name}`, h[group][name], 2)[Number(v)] as bigint,
    widen: (name, c) => table(`widen.${name}`, h.widen[name], 4)[Number(c)] as bigint,
  };
}

const TARGET = { sm: 100, version: '9.0' };
// (the harness ends a body with `;`, so each ends with an instruction after its block)
const b8Out = (cvt: string): string => `{ .reg .b8 %c0; ${cvt.replace('%d0', '%c0')} cvt.u16.u8 %h0, %c0; } mov.b16 %d0, %h0;`;
const b8In = (cvt: string): string => `{ .reg .b8 %c0; cvt.u8.u16 %c0, %a0; ${cvt.replace('%a0', '%c0').replace('%d0', '%t0')} } mov.b32 %d0, %t0;`;

export function narrowForms(): NarrowForm[] {
  const ref = headerRef();
  const xs = [...ref.f32In];
  const ys = [...xs].reverse();
  const all = Array.from({ length: 65536 }, (_, i) => BigInt(i));
  const packedHalves = all.map((v) => v | (BigInt.asUintN(16, v * 40503n + 12345n) << 16n));
  const lo16 = (v: bigint): bigint => v & 0xffffn;
  const hi16 = (v: bigint): bigint => v >> 16n;
  const out: NarrowForm[] = [];

  for (const [t, fmt, laneBits, sign] of [['e2m1x2', 'e2m1', 4n, 0x8n], ['e2m3x2', 'e2m3', 8n, 0x20n], ['e3m2x2', 'e3m2', 8n, 0x20n]] as const) {
    const wrapOut = t === 'e2m1x2' ? b8Out : (c: string): string => c;
    const wrapIn = t === 'e2m1x2' ? b8In : (c: string): string => c;
    for (const relu of [false, true]) {
      const r = relu ? '.relu' : '';
      const clampCode = (c: bigint): bigint => (relu && (c & sign) !== 0n ? 0n : c);
      const clampHalf = (v: bigint): bigint => (relu && (v & 0x8000n) !== 0n ? 0n : v);
      const fromF32 = (x: bigint): bigint => clampCode(ref.f32(fmt, x));
      out.push({
        form: form(wrapOut(`cvt.rn.satfinite${r}.${t}.f32 %d0, %a0, %a1;`), ['f32', 'f32'], ['b16'], TARGET),
        inputs: [xs, ys],
        want: ([a, b]) => [(fromF32(a as bigint) << laneBits) | fromF32(b as bigint)],
      });
      if (t === 'e2m1x2') {
        const fromF16 = (v: bigint): bigint => clampCode(ref.half('f16', 'e2m1', v));
        out.push({
          form: form(wrapOut(`cvt.rn.satfinite${r}.${t}.f16x2 %d0, %a0;`), ['b32'], ['b16'], TARGET),
          inputs: [packedHalves],
          want: ([a]) => [(fromF16(hi16(a as bigint)) << 4n) | fromF16(lo16(a as bigint))],
        });
      }
      // every lane pair: 256 e2m1x2 bytes, every 16-bit fp6 pair (the 2 high bits of each byte are
      // outside the ISA's domain; the headers ignore them, and so do we)
      const codes = t === 'e2m1x2' ? all.slice(0, 256) : all;
      const mask = (1n << laneBits) - 1n;
      const toF16 = (c: bigint): bigint => clampHalf(ref.widen(`${fmt}_f16`, c & mask));
      out.push({
        form: form(wrapIn(`cvt.rn${r}.f16x2.${t} %d0, %a0;`), ['b16'], ['b32'], TARGET),
        inputs: [codes],
        want: ([a]) => [(toF16((a as bigint) >> laneBits) << 16n) | toF16(a as bigint)],
      });
    }
  }

  for (const rm of ['rz', 'rp'] as const) {
    for (const sat of ['', '.satfinite']) {
      const table = `ue8m0_${rm}${sat.replace('.', '_')}`;
      out.push({
        form: form(`cvt.${rm}${sat}.ue8m0x2.f32 %d0, %a0, %a1;`, ['f32', 'f32'], ['b16'], TARGET),
        inputs: [xs, ys],
        want: ([a, b]) => [(ref.f32(table, a as bigint) << 8n) | ref.f32(table, b as bigint)],
      });
      out.push({
        form: form(`cvt.${rm}${sat}.ue8m0x2.bf16x2 %d0, %a0;`, ['b32'], ['b16'], TARGET),
        inputs: [packedHalves],
        want: ([a]) => [(ref.half('bf16', table, hi16(a as bigint)) << 8n) | ref.half('bf16', table, lo16(a as bigint))],
      });
    }
  }
  out.push({
    form: form('cvt.rn.bf16x2.ue8m0x2 %d0, %a0;', ['b16'], ['b32'], TARGET),
    inputs: [all],
    want: ([a]) => [(ref.widen('ue8m0_bf16', (a as bigint) >> 8n) << 16n) | ref.widen('ue8m0_bf16', (a as bigint) & 0xffn)],
  });
  return out;
}
