/**
 * Compares a corpus run's buffers with what is expected: the native recording (the checks of the
 * table) or a JS reference (development mode: floats within the case's refTol). Buffers without a
 * check must come back exactly as generated. Host-agnostic: no Node, Deno or DOM imports.
 */
import { elementValue, isFloat, makeBuffer, type NumArray } from './inputs.ts';
import { checkOf, type BufferSpec, type CheckSpec, type CorpusCase, type ScalarType } from './table.ts';

export type ExpectMode = 'native' | 'ref';

const DEFAULT_REF_TOL = { rel: 1e-5, abs: 1e-6 };

/** Problems found (empty when the run matches), one line per buffer. */
export function compareRun(
  c: CorpusCase,
  variant: string,
  got: ReadonlyMap<string, NumArray>,
  expected: ReadonlyMap<string, NumArray>,
  mode: ExpectMode,
): string[] {
  const problems: string[] = [];
  for (const b of c.buffers) {
    const g = got.get(b.name);
    if (!g) {
      problems.push(`${b.name}: not read back`);
      continue;
    }
    const declared = checkOf(c, variant, b.name);
    if (declared?.cmp === 'ignore') continue;
    if (declared === undefined) {
      const msg = compareBuffer(b, g, makeBuffer(c.name, b), { cmp: 'exact' });
      if (msg) problems.push(`${b.name} is not written by the kernels but changed: ${msg}`);
      continue;
    }
    const e = expected.get(b.name);
    if (!e) {
      problems.push(`${b.name}: no expected contents (${mode === 'native' ? 'no native recording' : 'the JS reference does not produce it'})`);
      continue;
    }
    const chk = mode === 'ref' ? refCheck(b, declared, c.refTol ?? DEFAULT_REF_TOL) : declared;
    const msg = compareBuffer(b, g, e, chk);
    if (msg) problems.push(`${b.name} (${describeCheck(chk)}): ${msg}`);
  }
  return problems;
}

const EPSILON = { f16: 2 ** -10, f32: 2 ** -23, f64: 2 ** -52 } as const;

/** The JS reference follows the source in double: floats get refTol, widened to the declared tolerance. */
function refCheck(b: BufferSpec, declared: CheckSpec, tol: { rel: number; abs: number }): CheckSpec {
  if (!isFloat(b.type) || declared.cmp === 'multiset' || declared.cmp === 'ignore') return declared;
  const why = 'JS reference';
  const eps = EPSILON[b.type as keyof typeof EPSILON];
  const rel = declared.cmp === 'rel' ? declared.rel : declared.cmp === 'ulp' ? (declared.ulp + 2) * eps : 0;
  const abs = declared.cmp === 'exact' ? 0 : (declared.abs ?? 0);
  return { cmp: 'rel', rel: Math.max(rel, tol.rel), abs: Math.max(abs, tol.abs), why };
}

export function describeCheck(chk: CheckSpec): string {
  switch (chk.cmp) {
    case 'exact': return 'exact';
    case 'ulp': return `<= ${chk.ulp} ulp${chk.abs ? ` or abs ${chk.abs}` : ''}`;
    case 'rel': return `rel ${chk.rel}${chk.abs ? ` + abs ${chk.abs}` : ''}`;
    case 'multiset': return 'same elements, any order';
    case 'ignore': return 'ignored';
  }
}

/** Bits of element i as a bigint (for exact comparison and printing). */
function bitsOf(arr: NumArray, i: number): bigint {
  const size = arr.BYTES_PER_ELEMENT;
  const view = new DataView(arr.buffer, arr.byteOffset + i * size, size);
  if (size === 1) return BigInt(view.getUint8(0));
  if (size === 2) return BigInt(view.getUint16(0, true));
  if (size === 4) return BigInt(view.getUint32(0, true));
  return view.getBigUint64(0, true);
}

/** Distance in units in the last place between two floats of `type` given as bits. */
function ulpDistance(type: ScalarType, a: bigint, b: bigint): number {
  const bits = BigInt(type === 'f16' ? 16 : type === 'f32' ? 32 : 64);
  const sign = 1n << (bits - 1n);
  const ord = (x: bigint) => (x & sign ? -(x & (sign - 1n)) : x);
  const d = ord(a) - ord(b);
  return Number(d < 0n ? -d : d);
}

function show(type: ScalarType, arr: NumArray, i: number): string {
  const hex = bitsOf(arr, i).toString(16).padStart(arr.BYTES_PER_ELEMENT * 2, '0');
  return `${elementValue(type, arr, i)} (0x${hex})`;
}

/** null when `got` matches `exp` under `chk`, else a message with the count and the first mismatch. */
export function compareBuffer(b: BufferSpec, got: NumArray, exp: NumArray, chk: CheckSpec): string | null {
  if (got.length !== exp.length) return `length ${got.length}, expected ${exp.length}`;
  if (chk.cmp === 'multiset') return compareMultiset(b, got, exp);
  let count = 0;
  let first = -1;
  let worst = 0;
  for (let i = 0; i < exp.length; i++) {
    const gb = bitsOf(got, i);
    const eb = bitsOf(exp, i);
    if (gb === eb) continue;
    let ok = false;
    if (chk.cmp === 'ulp' || chk.cmp === 'rel') {
      const g = elementValue(b.type, got, i);
      const e = elementValue(b.type, exp, i);
      if (Number.isNaN(g) && Number.isNaN(e)) ok = true;
      else if (Number.isFinite(g) && Number.isFinite(e)) {
        const d = Math.abs(g - e);
        if (chk.cmp === 'ulp') {
          const u = ulpDistance(b.type, gb, eb);
          ok = u <= chk.ulp || d <= (chk.abs ?? 0);
          if (!ok) worst = Math.max(worst, u);
        } else {
          ok = d <= chk.rel * Math.abs(e) + (chk.abs ?? 0);
          if (!ok) worst = Math.max(worst, d / Math.max(Math.abs(e), 1e-30));
        }
      }
    }
    if (!ok) {
      if (first < 0) first = i;
      count++;
    }
  }
  if (count === 0) return null;
  const stat = chk.cmp === 'ulp' ? `, worst ${worst} ulp` : chk.cmp === 'rel' ? `, worst rel ${worst.toPrecision(3)}` : '';
  return `${count} of ${exp.length} differ${stat}; first [${first}]: got ${show(b.type, got, first)}, expected ${show(b.type, exp, first)}`;
}

function compareMultiset(b: BufferSpec, got: NumArray, exp: NumArray): string | null {
  const sorted = (a: NumArray) => Array.from({ length: a.length }, (_, i) => bitsOf(a, i)).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const g = sorted(got);
  const e = sorted(exp);
  let diff = 0;
  let first = -1;
  for (let i = 0; i < e.length; i++) {
    if (g[i] !== e[i]) {
      diff++;
      if (first < 0) first = i;
    }
  }
  if (diff === 0) return null;
  return `${diff} of ${e.length} differ as multisets (${b.type}); first sorted [${first}]: got 0x${g[first]?.toString(16)}, expected 0x${e[first]?.toString(16)}`;
}
