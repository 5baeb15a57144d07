/**
 * Which f32 operations a device's own WGSL arithmetic computes exactly as PTX does, so the
 * emitter can use it instead of the exact integer helpers (shaders/round32.wgsl, float32.wgsl).
 *
 * WGSL leaves subnormals, NaN bit patterns and the accuracy of exp2/log2/inverseSqrt/sin/cos
 * to the implementation, so nothing is assumed: the runtime runs `floatProbe().code` once per
 * device (runtime/probe-float.ts), which computes each candidate natively and through the
 * helpers the emitter would otherwise call, on vectors chosen to expose the differences
 * (subnormal inputs and results, NaN payloads, infinities, overflow, signed zeros, full
 * mantissas), and `readFloatProbe` turns the bits back into facts. A fact is true only when
 * every vector agrees bit for bit. On NVIDIA's Vulkan driver the native operations are the
 * same hardware instructions CUDA runs, and the helpers' checks were the largest cost of
 * arithmetic-heavy kernels (n-body: 38x, measured on an H100, docs/BENCHMARKS.md).
 */
import { linkLibrary } from './library.js';

/** The `.approx` functions whose native WGSL built-in may replace the helper. */
export type ApproxFunction = 'rsqrt' | 'ex2' | 'lg2' | 'sin' | 'cos' | 'tanh';

export interface NativeFloat {
  /**
   * add/sub/mul.f32 (default rounding, which lets PTX contract them): WGSL `+ - *` give the
   * IEEE round-to-nearest result, subnormal operands and results kept.
   */
  readonly addMul: boolean;
  /**
   * add/sub/mul.ftz.f32: WGSL `+ - *` give the `.ftz` result (the device flushes subnormal
   * operands and results, as NVIDIA's Vulkan driver does; tininess of products detected before
   * rounding, as the PTX hardware does).
   */
  readonly ftz: boolean;
  /**
   * fma.rn.ftz.f32: WGSL fma() gives the `.ftz` result. Separate from `ftz` because an H100's
   * fma keeps c = 2^-126 when a*b is far below it (c - 2^-252 rounds up to 2^-126), where the
   * helpers' reading of tininess-before-rounding flushes: until a native recording settles
   * that case, such a device keeps the helpers for fma.ftz.
   */
  readonly ftzFma: boolean;
  /** NaN results of the device's f32 arithmetic are NVIDIA's canonical NaN (0x7fffffff). */
  readonly canonicalNaN: boolean;
  /**
   * `.approx` functions whose WGSL built-in may replace the helper: the helper's bits on every
   * probe vector (rsqrt, tanh), or within the ISA's bound of the helper there (ex2, lg2, sin, cos).
   */
  readonly approx: readonly ApproxFunction[];
  /** The same for their `.ftz` forms (the operand flushed first: subnormal inputs never reach them). */
  readonly approxFtz: readonly ApproxFunction[];
  /**
   * min/max.f32 (without .NaN or .xorsign.abs) through WGSL min()/max(): 'exact' where they give
   * PTX's bits on every probe vector; 'checked' where every result that is neither zero,
   * subnormal nor NaN is PTX's (a device that flushes subnormal operands, or leaves the order of
   * signed zeros and the choice between two NaNs open), so that only those results need the
   * exact helper (shaders/float32.wgsl f32r_minmax_checked); 'none' otherwise.
   */
  readonly minMax: 'exact' | 'checked' | 'none';
}

/** Nothing native beyond what the emitter always uses: the exact helpers everywhere. */
export const NO_NATIVE_FLOAT: NativeFloat = { addMul: false, ftz: false, ftzFma: false, canonicalNaN: false, approx: [], approxFtz: [], minMax: 'none' };

/**
 * Each approx function: its WGSL built-in, the helper the emitter calls otherwise (both on the
 * operand bits `u` as the emitter passes them), and that operand (sin and cos flush subnormal
 * inputs first, as the hardware does: emit-float.ts).
 */
const APPROX: Readonly<Record<ApproxFunction, { builtin: string; helper: string; operand: string }>> = {
  rsqrt: { builtin: 'inverseSqrt', helper: 'f32r_rsqrt(u)', operand: 'a' },
  ex2: { builtin: 'exp2', helper: 'f32r_ex2(u)', operand: 'a' },
  lg2: { builtin: 'log2', helper: 'f32r_lg2(u)', operand: 'a' },
  sin: { builtin: 'sin', helper: 'f32r_sincos(u, false)', operand: 'f32r_ftz(a)' },
  cos: { builtin: 'cos', helper: 'f32r_sincos(u, true)', operand: 'f32r_ftz(a)' },
  tanh: { builtin: 'tanh', helper: 'f32r_tanh(u)', operand: 'a' },
};

/** The WGSL built-in that computes `.approx` function `f` on f32 bits `u`, as f32 bits. */
export function nativeApprox(f: ApproxFunction, u: string): string {
  return `bitcast<u32>(${APPROX[f].builtin}(bitcast<f32>(${u})))`;
}
const APPROX_NAMES = Object.keys(APPROX) as ApproxFunction[];

/**
 * Words written per vector: (native, exact) for add, sub, mul, fma(a, b, a), then each approx
 * function of a, then the exact `.ftz` results of add, sub, mul and fma, then native max(a, b)
 * and min(a, b) (their references are computed here: ptxMinMax).
 */
const WORDS = 2 * (4 + 2 * APPROX_NAMES.length) + 4 + 2;
const FTZ_AT = 2 * (4 + APPROX_NAMES.length);
/** Where the approx functions of the flushed operand start (after the .ftz arithmetic). */
const APPROX_FTZ_AT = FTZ_AT + 4;
/** Where native max(a, b) and min(a, b) sit. */
export const MINMAX_AT = APPROX_FTZ_AT + 2 * APPROX_NAMES.length;

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const bitsOf = (x: number): number => ((F32[0] = x), U32[0] as number);

/** Operand pairs that reach every special case of add, sub and mul, then pseudo-random ones. */
function vectors(): Uint32Array {
  const special = [
    0, 0x80000000, 1, 0x80000001, 0x7fffff, 0x807fffff, 0x400000, 0x800000, 0x80800000, 0x00800001, 0x00c00000,
    0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0x7f7fffff, 0xff7fffff, 0x7f000000, 0x7f800000, 0xff800000,
    0x7fc00000, 0xffc00000, 0x7fc12345, 0x7f800001, 0xff812345, 0x7fffffff, 0x33000000, 0xb3000001, 0x3fb504f3,
    0x42c80000, 0xc2c80000, 0x4f000000, 0x1f800000, 0x20000000, 0x0d000000, 0x40490fdb, 0xc0490fdb, 0x3c8efa35,
  ].map((b) => b >>> 0);
  const pairs: number[] = [];
  for (const a of special) for (const b of special) pairs.push(a, b);
  // results that land on subnormals: near-equal normals subtracted, products of small normals
  for (let k = 1; k < 64; k++) {
    pairs.push(0x00800000 + k * 977, (0x80800000 + k * 131) >>> 0);
    pairs.push(bitsOf(2 ** -70 * (1 + k / 64)), bitsOf(2 ** -60 * (1 + k / 37)));
  }
  // the .approx functions' stated ranges: sin/cos on [-pi, pi], ex2 on [-126, 127], lg2 on (0, 2^40)
  for (let k = 0; k < 128; k++) {
    pairs.push(bitsOf(-Math.PI + (2 * Math.PI * (k + 0.37)) / 128), 0x3f800000);
    pairs.push(bitsOf(-126 + (253 * (k + 0.61)) / 128), 0x3f800000);
    pairs.push(bitsOf(2 ** (-20 + (60 * (k + 0.29)) / 128)), 0x3f800000);
  }
  let s = 0x9e3779b9;
  const next = (): number => ((s ^= s << 13), (s ^= s >>> 17), (s ^= s << 5), s >>> 0);
  for (let k = 0; k < 512; k++) pairs.push(next(), next());
  return new Uint32Array(pairs);
}

export interface FloatProbe {
  readonly code: string;
  /** The probe's input (operand pairs), also the buffer the results are written over. */
  readonly input: Uint32Array;
  /** Bytes of the storage buffer at binding 0. */
  readonly bytes: number;
}

/** One workgroup of 64 threads; vector i reads words 2i, 2i+1 and writes WORDS words at OUT + i * WORDS. */
export function floatProbe(): FloatProbe {
  const input = vectors();
  const count = input.length / 2;
  const approx = APPROX_NAMES.map((n) => {
    const { helper, operand } = APPROX[n];
    return `    { let u = ${operand}; w = w + 2u; io[w] = ${nativeApprox(n, 'u')}; io[w + 1u] = ${helper}; }`;
  });
  const approxFtz = APPROX_NAMES.map((n) => `    { let u = f32r_ftz(a); w = w + 2u; io[w] = ${nativeApprox(n, 'u')}; io[w + 1u] = ${APPROX[n].helper}; }`);
  const body = [
    '@group(0) @binding(0) var<storage, read_write> io: array<u32>;',
    '@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) t: u32) {',
    `  for (var i = t; i < ${count}u; i = i + 64u) {`,
    '    let a = io[2u * i]; let b = io[2u * i + 1u];',
    '    let x = bitcast<f32>(a); let y = bitcast<f32>(b);',
    `    var w = ${input.length}u + i * ${WORDS}u;`,
    '    io[w] = bitcast<u32>(x + y); io[w + 1u] = fr_add(a, b, 0u, 23u, 8u);',
    '    w = w + 2u; io[w] = bitcast<u32>(x - y); io[w + 1u] = fr_add(a, b ^ 0x80000000u, 0u, 23u, 8u);',
    '    w = w + 2u; io[w] = bitcast<u32>(x * y); io[w + 1u] = fr_mul(a, b, 0u, 23u, 8u);',
    // fma: only its NaN results are compared (whether it fuses is probe-fma.ts's question)
    '    w = w + 2u; io[w] = bitcast<u32>(fma(x, y, x)); io[w + 1u] = f32r_canon(bitcast<f32>(f32_fma_exact(a, b, a)));',
    ...approx,
    '    let fa = f32r_ftz(a); let fb = f32r_ftz(b);',
    '    w = w + 2u; io[w] = f32r_ftz(fr_add(fa, fb, 0u, 23u, 8u)); io[w + 1u] = f32r_ftz(fr_add(fa, fb ^ 0x80000000u, 0u, 23u, 8u));',
    '    io[w + 2u] = f32r_ftz(fr_tiny(fr_mul(fa, fb, 0u, 23u, 8u), fa, fb, 0u, false, 23u, 8u));',
    '    io[w + 3u] = f32r_ftz(fr_tiny(f32r_canon(bitcast<f32>(f32_fma_exact(fa, fb, fa))), fa, fb, fa, true, 23u, 8u));',
    '    w = w + 2u;',
    ...approxFtz,
    `    w = ${input.length}u + i * ${WORDS}u + ${MINMAX_AT}u; io[w] = bitcast<u32>(max(x, y)); io[w + 1u] = bitcast<u32>(min(x, y));`,
    '  }',
    '}',
  ];
  const library = linkLibrary(['fr_add', 'fr_mul', 'fr_tiny', 'f32r_ftz', 'f32r_canon', 'f32_fma_exact', ...APPROX_NAMES.map((n) => APPROX[n].helper.replace(/\(.*$/, ''))]);
  return { code: [library, '', ...body, ''].join('\n'), input, bytes: (input.length + count * WORDS) * 4 };
}

const isNaNBits = (u: number): boolean => (u & 0x7fffffff) > 0x7f800000;

/**
 * PTX min/max.f32 on bits (no .NaN, no .xorsign.abs): a NaN operand yields the other, two NaNs
 * the canonical NaN, -0 < +0 (the reference the probe's native results are held to).
 */
export function ptxMinMax(a: number, b: number, isMax: boolean): number {
  const an = isNaNBits(a), bn = isNaNBits(b);
  if (an && bn) return 0x7fffffff;
  if (an) return b >>> 0;
  if (bn) return a >>> 0;
  const [x, y] = [valueOf(a), valueOf(b)];
  if (x === y) return (isMax ? a & b : a | b) >>> 0; // equal values: +0 and -0 differ only in sign
  return ((x > y) === isMax ? a : b) >>> 0;
}
const ftzBits = (u: number): number => ((u & 0x7f800000) === 0 ? u & 0x80000000 : u) >>> 0;
const valueOf = (u: number): number => ((U32[0] = u), F32[0] as number);

/**
 * Whether the built-in's result `native` may stand for the helper's `helper` on input bits `a`.
 * rsqrt and tanh: bit for bit (their helpers are the built-ins, special cases aside). ex2, lg2,
 * sin and cos, whose helpers compute the function themselves: the same bits for special
 * inputs and results; on the range the ISA states a bound for, within that bound of the helper
 * (the helper itself errs by an ulp or two); past it, any finite result where the helper's is.
 */
function approxAgrees(f: ApproxFunction, a: number, native: number, helper: number): boolean {
  if (native === helper || (isNaNBits(native) && isNaNBits(helper))) return true;
  if (f === 'rsqrt' || f === 'tanh') return false;
  const x = valueOf(a);
  const [n, h] = [valueOf(native), valueOf(helper)];
  if (!Number.isFinite(x) || x === 0 || !Number.isFinite(n) || !Number.isFinite(h) || h === 0) return false;
  switch (f) {
    case 'ex2': return x < -126 || x > 127 ? false : Math.abs(n - h) <= 2 ** -21.5 * Math.abs(h);
    case 'lg2': return x < 0 ? false : Math.abs(n - h) <= 2 ** -21 * Math.max(1, Math.abs(h));
    default: return Math.abs(x) > Math.PI || Math.abs(n - h) <= 2 ** -20;
  }
}

/** The facts the probe's output proves (see NativeFloat). */
export function readFloatProbe(probe: FloatProbe, out: Uint32Array): NativeFloat {
  const count = probe.input.length / 2;
  let addMul = true;
  let ftz = true;
  let ftzFma = true;
  let canonicalNaN = true;
  const approxOk = new Map<ApproxFunction, boolean>(APPROX_NAMES.map((n) => [n, true]));
  const approxFtzOk = new Map<ApproxFunction, boolean>(APPROX_NAMES.map((n) => [n, true]));
  for (let i = 0; i < count; i++) {
    const w = probe.input.length + i * WORDS;
    for (let k = 0; k < 4; k++) {
      const native = out[w + 2 * k] as number;
      const exact = out[w + 2 * k + 1] as number;
      if (isNaNBits(exact) && isNaNBits(native)) canonicalNaN &&= native === 0x7fffffff;
      else if (native !== exact && k < 3) addMul = false;
      const flushed = out[w + FTZ_AT + k] as number;
      if (!(isNaNBits(flushed) && isNaNBits(native)) && native !== flushed) {
        if (k < 3) ftz = false;
        else ftzFma = false;
      }
    }
    const a = probe.input[2 * i] as number;
    APPROX_NAMES.forEach((n, k) => {
      if (!approxAgrees(n, a, out[w + 8 + 2 * k] as number, out[w + 9 + 2 * k] as number)) approxOk.set(n, false);
      // the .ftz forms flush their results too (emit-float.ts), so only flushed results must agree
      if (!approxAgrees(n, ftzBits(a), ftzBits(out[w + APPROX_FTZ_AT + 2 * k] as number), ftzBits(out[w + APPROX_FTZ_AT + 1 + 2 * k] as number))) approxFtzOk.set(n, false);
    });
  }
  let minMaxExact = true;
  let minMaxChecked = true;
  for (let i = 0; i < count; i++) {
    const w = probe.input.length + i * WORDS + MINMAX_AT;
    const a = probe.input[2 * i] as number, b = probe.input[2 * i + 1] as number;
    for (const [k, isMax] of [[0, true], [1, false]] as const) {
      const native = out[w + k] as number;
      if (native === ptxMinMax(a, b, isMax)) continue;
      minMaxExact = false;
      if ((native & 0x7f800000) !== 0 && !isNaNBits(native)) minMaxChecked = false;
    }
  }
  const minMax = minMaxExact ? 'exact' : minMaxChecked ? 'checked' : 'none';
  return { addMul, ftz, ftzFma, canonicalNaN, approx: APPROX_NAMES.filter((n) => approxOk.get(n)), approxFtz: APPROX_NAMES.filter((n) => approxFtzOk.get(n)), minMax };
}
