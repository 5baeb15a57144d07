/**
 * JS references of atom/red, written from the PTX ISA ("atom": the operation table, inc/dec
 * wrap formulas, atom.add.f32 flushing subnormals on global memory but not on shared memory,
 * atom.add.noftz on f16/bf16 lanes rounding to nearest even). Values are bigint raw bits.
 */
export type Bits = bigint;

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export const f32FromBits = (b: number): number => { u32[0] = b; return f32[0] as number; };
export const f64FromBits = (b: bigint): number => { u64[0] = b; return f64[0] as number; };
export const f64Bits = (x: number): bigint => { f64[0] = x; return u64[0] as bigint; };
export const f32Bits = (x: number): number => { f32[0] = x; return u32[0] as number; };

/** Value of an IEEE-style binary format (fraction `mant` bits, exponent `exp` bits). */
export function decode(bits: number, mant: number, exp: number): number {
  const bias = 2 ** (exp - 1) - 1;
  const s = bits >>> (mant + exp) ? -1 : 1;
  const e = (bits >>> mant) & (2 ** exp - 1);
  const m = bits & (2 ** mant - 1);
  if (e === 2 ** exp - 1) return m ? NaN : s * Infinity;
  return s * (e === 0 ? m * 2 ** (1 - bias - mant) : (1 + m / 2 ** mant) * 2 ** (e - bias));
}

/** Rounds a double to the format, nearest even, overflow to infinity; NaN -> the all-ones-fraction quiet NaN 0x7f..f. */
export function encode(x: number, mant: number, exp: number): number {
  const total = mant + exp;
  if (Number.isNaN(x)) return 2 ** total - 1;
  const sign = x < 0 || Object.is(x, -0) ? 2 ** total : 0;
  const a = Math.abs(x);
  const bias = 2 ** (exp - 1) - 1;
  const inf = sign + (2 ** exp - 1) * 2 ** mant;
  if (a === Infinity) return inf;
  if (a === 0) return sign;
  let e = Math.max(Math.floor(Math.log2(a)), 1 - bias);
  while (e > 1 - bias && 2 ** e > a) e--;
  while (2 ** (e + 1) <= a) e++;
  const q = a / 2 ** (e - mant);
  let r = Math.floor(q);
  const d = q - r;
  if (d > 0.5 || (d === 0.5 && r % 2 === 1)) r++;
  if (r === 2 ** (mant + 1)) { r = 2 ** mant; e++; }
  if (e > bias) return inf;
  if (r < 2 ** mant) return sign + r;
  return sign + (e + bias) * 2 ** mant + (r - 2 ** mant);
}

const ftz32 = (b: number): number => ((b & 0x7f800000) === 0 ? b & 0x80000000 : b) >>> 0;

/** atom.add.f32: one rounding to nearest even; global memory flushes subnormals (ISA). */
export function addF32(a: number, b: number, flush: boolean): number {
  const x = flush ? ftz32(a) : a;
  const y = flush ? ftz32(b) : b;
  const r = encode(f32FromBits(x) + f32FromBits(y), 23, 8) >>> 0;
  if ((r & 0x7fffffff) > 0x7f800000) return 0x7fffffff;
  return flush ? ftz32(r) : r;
}

/** One f16 (10/5) or bf16 (7/8) lane of atom.add.noftz: the exact sum rounded once. */
export function addHalf(a: number, b: number, bf: boolean): number {
  const [m, e] = bf ? [7, 8] : [10, 5];
  const r = encode(decode(a, m, e) + decode(b, m, e), m, e);
  return Number.isNaN(decode(r, m, e)) ? 0x7fff : r;
}

export type Op = 'add' | 'min' | 'max' | 'inc' | 'dec' | 'cas' | 'exch' | 'and' | 'or' | 'xor';

/** The new memory value of `atom.<op>.<type>` from the old one (all raw bits). */
export function apply(op: Op, type: string, old: Bits, v: Bits, cmp: Bits, flush = true): Bits {
  const bits = type.endsWith('64') ? 64 : type === 'b16' || type === 'bf16' || type === 'f16' ? 16 : 32;
  const mask = (1n << BigInt(bits)) - 1n;
  const signed = (x: Bits): bigint => (x >> BigInt(bits - 1) ? x - (1n << BigInt(bits)) : x);
  switch (op) {
    case 'exch': return v;
    case 'cas': return old === cmp ? v : old;
    case 'and': return old & v;
    case 'or': return old | v;
    case 'xor': return old ^ v;
    case 'inc': return old >= v ? 0n : old + 1n;
    case 'dec': return old === 0n || old > v ? v : old - 1n;
    case 'min': case 'max': {
      if (type === 'f64') {
        const [x, y] = [f64FromBits(old), f64FromBits(v)];
        return f64Bits(op === 'min' ? Math.min(x, y) : Math.max(x, y));
      }
      const [x, y] = type.startsWith('s') ? [signed(old), signed(v)] : [old, v];
      return (op === 'min' ? (y < x) : (y > x)) ? v : old;
    }
    case 'add':
      if (type === 'f32') return BigInt(addF32(Number(old), Number(v), flush));
      if (type === 'f64') return f64Bits(f64FromBits(old) + f64FromBits(v));
      if (type === 'f16x2' || type === 'bf16x2') {
        const bf = type === 'bf16x2';
        const [o, w] = [Number(old), Number(v)];
        return BigInt((addHalf(o & 0xffff, w & 0xffff, bf) | (addHalf(o >>> 16, w >>> 16, bf) << 16)) >>> 0);
      }
      if (type === 'bf16' || type === 'f16') return BigInt(addHalf(Number(old), Number(v), type === 'bf16'));
      return (old + v) & mask;
  }
}

/**
 * Checks that the values `olds[t]` returned to the threads and the final memory value come
 * from some sequential order of the operations on one address (linearisability). Each
 * operation that changes the value is an edge old -> new; an order exists exactly when these
 * edges form one Eulerian trail from the initial to the final value (states may repeat, e.g.
 * inc wrapping around), and every operation that left the value unchanged saw a value on
 * that trail. Returns an error text, or null.
 */
export function linearise(init: Bits, olds: readonly Bits[], final: Bits, step: (t: number, s: Bits) => Bits): string | null {
  const balance = new Map<Bits, number>();
  const parent = new Map<Bits, Bits>();
  const find = (x: Bits): Bits => { let r = x; while (parent.has(r) && parent.get(r) !== r) r = parent.get(r) as Bits; return r; };
  const unite = (a: Bits, b: Bits): void => { if (!parent.has(a)) parent.set(a, a); if (!parent.has(b)) parent.set(b, b); parent.set(find(a), find(b)); };
  const visited = new Set<Bits>([init, final]);
  const still: number[] = [];
  olds.forEach((o, t) => {
    const n = step(t, o);
    if (n === o) { still.push(t); return; }
    balance.set(o, (balance.get(o) ?? 0) + 1);
    balance.set(n, (balance.get(n) ?? 0) - 1);
    unite(o, n);
    visited.add(o).add(n);
  });
  if (balance.size === 0 && init !== final) return `no operation changed the value, but it went from ${init.toString(16)} to ${final.toString(16)}`;
  for (const [v, b] of balance) {
    const want = init === final ? 0 : v === init ? 1 : v === final ? -1 : 0;
    if (b !== want) return `value ${v.toString(16)} is left ${b} more times than reached (expected ${want}): no sequential order gives these results`;
  }
  if (balance.size > 0) {
    const root = find(init);
    for (const v of balance.keys()) if (find(v) !== root) return `value ${v.toString(16)} is not reachable from the initial value`;
  }
  for (const t of still) if (!visited.has(olds[t] as Bits)) return `thread ${t} saw ${olds[t]?.toString(16)}, which memory never held`;
  return null;
}
