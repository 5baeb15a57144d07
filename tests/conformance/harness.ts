/**
 * Instruction conformance harness: runs single PTX instruction forms over many inputs on the
 * real WebGPU (runPtx), and emits the same kernels + inputs for a native CUDA recording.
 *
 * ## API (for every conformance suite: int, float, f64, ...)
 *
 *   const f = form('add.sat.s32 %d0, %a0, %a1;', ['b32', 'b32'], ['b32']);
 *
 * A `Form` is a PTX body (one or more instructions; `%a0..%aN` are the inputs, `%d0..%dM` the
 * outputs) with the register type of each input and output. Register types: `b16 b32 b64 pred`
 * and any PTX scalar type (`u32`, `f32`, `f16`, `f64`, ...), declared as `.reg .<type>`; `b8`
 * (and `u8`/`s8`) means a `.b16` register loaded with `ld.global.u8`. Floats travel as bit
 * patterns. `pred` inputs are 0/1 (nonzero = true); `pred` outputs come back as 0n/1n. Scratch
 * registers a body may use: `%t0..%t6` (`.b32`), `%u0..%u7` (`.b64`), `%h0..%h6` (`.b16`),
 * `%q0..%q3` (`.pred`) (`%t7`/`%h7` belong to the loads and stores). Each form may set `sm` /
 * `version` (third argument of `form`) when it needs a newer target than sm_80 / PTX 8.0.
 * In the kernel, threads past a form's case count redo its last case (no branch per form).
 *
 *   const outs = await runForm(f, inputs)      // inputs[k][i]: k-th input of case i (bigint)
 *   outs[m][i]                                 // m-th output of case i, bigint masked to its width
 *
 * `runForms([{form, inputs}, ...])` batches several forms into ONE kernel and one dispatch
 * (do this: every shader compile costs seconds on lavapipe). Inputs of one form all have the
 * same length; forms may differ in length.
 *
 * Inputs: `rng(seed)` (splitmix64), `edges(bits)` (0, +-1, min, max, powers of two and their
 * neighbours), `pairs(bits, n, seed)` / `triples(...)` (edge cross products, then seeded randoms),
 * `exhaustive16x(n, seed)` (every 16-bit value of the first operand x a sample of the second),
 * `all8Pairs()` (every pair of 8-bit values). Values are unsigned bit patterns (bigint).
 *
 * Native recording: a suite's `tests/conformance/<suite>.forms.ts` exports
 * `NATIVE_BATCHES: NativeBatch[]` ({name, keep, cases()}: the same FormCase lists its tests run).
 * `node scripts/gen-conformance.mjs <dir> [name-prefix]` writes each batch, cut to its first
 * `keep` cases per form, as <name>.ptx/.in.bin/.json; on the GPU machine
 * `python3 tests/conformance/record_native.py <dir> $OUT` runs them with cupy and writes
 * <name>.bin.gz + <name>.json, committed to tests/conformance/native/. In a test,
 * `loadNative(name, cases)` returns result[f][m][i] for those first cases (null if not committed,
 * an error if the forms changed since the recording). Keep recordings small (keep ~256-2048).
 */
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { runPtx } from '../../src/index.js';

export type RegType = string;

export interface Form {
  readonly body: string;
  readonly ins: readonly RegType[];
  readonly outs: readonly RegType[];
  /** Needs a newer target than sm_80 / PTX 8.0 (the batch takes the highest of its forms). */
  readonly sm?: number;
  readonly version?: string;
}

export interface FormCase {
  readonly form: Form;
  /** inputs[k][i]: operand k of case i. */
  readonly inputs: readonly (readonly bigint[])[];
}

export function form(body: string, ins: readonly RegType[], outs: readonly RegType[], target: { sm?: number; version?: string } = {}): Form {
  return { body: body.trim().endsWith(';') ? body : `${body};`, ins, outs, ...target };
}

/** Bit width of a register type (pred: 1; b8 family travels in 16-bit registers). */
export function widthOf(t: RegType): number {
  if (t === 'pred') return 1;
  const m = /(\d+)$/.exec(t);
  if (!m) throw new Error(`harness: bad register type ${t}`);
  return Number(m[1]);
}

/** The width an output comes back in (pred: its 0/1 word). */
const outBits = (t: RegType): number => (t === 'pred' ? 32 : widthOf(t));
const isByte = (t: RegType): boolean => widthOf(t) === 8;
const declType = (t: RegType): string => (isByte(t) ? 'b16' : t);

function loadInst(t: RegType, reg: string, addr: string): string[] {
  if (t === 'pred') return [`ld.global.u32 %t7, [${addr}];`, `setp.ne.u32 ${reg}, %t7, 0;`];
  if (isByte(t)) return [`ld.global.u8 ${reg}, [${addr}];`];
  return [`ld.global.b${widthOf(t)} ${reg}, [${addr}];`];
}

function storeInst(t: RegType, reg: string, addr: string): string[] {
  const w = widthOf(t);
  if (t === 'pred') return [`selp.u32 %t7, 1, 0, ${reg};`, `st.global.u32 [${addr}], %t7;`];
  if (w === 64) return [`st.global.b64 [${addr}], ${reg};`];
  if (w === 32) return [`st.global.b32 [${addr}], ${reg};`];
  return [`mov.b16 %h7, ${reg};`, `cvt.u32.u16 %t7, %h7;`, `st.global.b32 [${addr}], %t7;`];
}

interface Layout { readonly count: number; readonly inOff: number; readonly outOff: number }

function layoutOf(cases: readonly FormCase[]): { layouts: Layout[]; inSlots: number; outSlots: number; maxCount: number } {
  let inSlots = 0;
  let outSlots = 0;
  let maxCount = 0;
  const layouts = cases.map((c) => {
    const count = c.inputs[0]?.length ?? 0;
    if (c.inputs.length !== c.form.ins.length) throw new Error(`harness: ${c.form.body}: ${c.inputs.length} input arrays for ${c.form.ins.length} inputs`);
    for (const a of c.inputs) if (a.length !== count) throw new Error(`harness: ${c.form.body}: inputs differ in length`);
    const l = { count, inOff: inSlots, outOff: outSlots };
    inSlots += count * c.form.ins.length;
    outSlots += count * c.form.outs.length;
    maxCount = Math.max(maxCount, count);
    return l;
  });
  return { layouts, inSlots, outSlots, maxCount };
}

/** One kernel running every form of the batch; thread i computes case i of each form that has one. */
export function batchPtx(cases: readonly FormCase[]): string {
  const { layouts } = layoutOf(cases);
  const decls = new Map<string, number>();
  for (const c of cases) {
    const seen = new Map<string, number>();
    for (const t of [...c.form.ins, ...c.form.outs]) seen.set(declType(t), (seen.get(declType(t)) ?? 0) + 1);
    for (const [t, n] of seen) decls.set(t, Math.max(decls.get(t) ?? 0, n));
  }
  const sm = Math.max(80, ...cases.map((c) => c.form.sm ?? 80));
  const version = cases.map((c) => c.form.version ?? '8.0').sort((x, y) => Number(x) - Number(y)).pop() ?? '8.0';
  const lines: string[] = [
    `.version ${version}`, `.target sm_${sm}`, '.address_size 64', '',
    '.visible .entry conformance(.param .u64 pin, .param .u64 pout)', '{',
    '.reg .b32 %t<8>;', '.reg .b64 %u<8>;', '.reg .b16 %h<8>;', '.reg .pred %q<4>;',
    '.reg .pred %skip;', '.reg .b32 %gid, %gnt, %gcta, %fid;', '.reg .b64 %in, %out, %pa, %pb;',
  ];
  for (const [t, n] of decls) lines.push(`.reg .${t} %x_${t}_<${n}>;`);
  lines.push(
    'ld.param.u64 %in, [pin];', 'ld.param.u64 %out, [pout];',
    'cvta.to.global.u64 %in, %in;', 'cvta.to.global.u64 %out, %out;',
    'mov.u32 %gid, %tid.x;', 'mov.u32 %gnt, %ntid.x;', 'mov.u32 %gcta, %ctaid.x;',
    'mad.lo.s32 %gid, %gcta, %gnt, %gid;',
    `setp.ge.u32 %skip, %gid, ${Math.max(0, ...layouts.map((l) => l.count))};`, '@%skip bra DONE;',
  );
  cases.forEach((c, f) => {
    const l = layouts[f] as Layout;
    const used = new Map<string, number>();
    const reg = (t: RegType): string => {
      const d = declType(t);
      const k = used.get(d) ?? 0;
      used.set(d, k + 1);
      return `%x_${d}_${k}`;
    };
    const insR = c.form.ins.map(reg);
    const outsR = c.form.outs.map(reg);
    lines.push(`// form ${f}: ${c.form.body.replace(/\s+/g, ' ')}`);
    // Threads past this form's cases redo its last case (same values to the same slots): no branch
    // per form, which keeps big batches cheap to compile.
    lines.push(`min.u32 %fid, %gid, ${Math.max(l.count - 1, 0)};`);
    lines.push(`mul.wide.u32 %pa, %fid, ${8 * c.form.ins.length};`, `add.s64 %pa, %pa, %in;`);
    c.form.ins.forEach((t, k) => lines.push(...loadInst(t, insR[k] as string, `%pa+${8 * (l.inOff + k)}`)));
    let body = c.form.body;
    body = body.replace(/%a(\d+)\b/g, (_, k: string) => insR[Number(k)] ?? `%a${k}`);
    body = body.replace(/%d(\d+)\b/g, (_, k: string) => outsR[Number(k)] ?? `%d${k}`);
    lines.push(body);
    lines.push(`mul.wide.u32 %pb, %fid, ${8 * c.form.outs.length};`, `add.s64 %pb, %pb, %out;`);
    c.form.outs.forEach((t, k) => lines.push(...storeInst(t, outsR[k] as string, `%pb+${8 * (l.outOff + k)}`)));
  });
  lines.push('DONE:', 'ret;', '}', '');
  return lines.join('\n');
}

// Slots are 8 bytes; inside a form they are thread-major (case i's operands are adjacent) and forms
// follow each other, so slot (inOff + i*nIns + k) is at `in + i*8*nIns` plus the immediate 8*(inOff + k).
function packInputs(cases: readonly FormCase[]): BigUint64Array {
  const { layouts, inSlots } = layoutOf(cases);
  const buf = new BigUint64Array(Math.max(inSlots, 1));
  cases.forEach((c, f) => {
    const l = layouts[f] as Layout;
    const n = c.form.ins.length;
    c.inputs.forEach((arr, k) => arr.forEach((v, i) => { buf[l.inOff + i * n + k] = BigInt.asUintN(64, v); }));
  });
  return buf;
}

function unpackOutputs(cases: readonly FormCase[], buf: BigUint64Array): bigint[][][] {
  const { layouts } = layoutOf(cases);
  return cases.map((c, f) => {
    const l = layouts[f] as Layout;
    const n = c.form.outs.length;
    return c.form.outs.map((t, k) => Array.from({ length: l.count }, (_, i) => BigInt.asUintN(outBits(t), buf[l.outOff + i * n + k] as bigint)));
  });
}

export const POISON = 0xdeadbeefdeadbeefn;

/** Runs every form of the batch in one dispatch; result[f][m][i] is output m of case i of form f. */
export async function runForms(cases: readonly FormCase[]): Promise<bigint[][][]> {
  const { outSlots, maxCount } = layoutOf(cases);
  const input = packInputs(cases);
  const output = new BigUint64Array(Math.max(outSlots, 1)).fill(POISON);
  const block = 128;
  await runPtx(batchPtx(cases), [input, output], { grid: Math.max(1, Math.ceil(maxCount / block)), block, fileName: 'conformance.ptx' });
  return unpackOutputs(cases, output);
}

export async function runForm(f: Form, inputs: readonly (readonly bigint[])[]): Promise<bigint[][]> {
  return (await runForms([{ form: f, inputs }]))[0] as bigint[][];
}

/**
 * Up to `limit` readable mismatches between `got` (runForms output) and `want(f, inputs)` per case:
 * "form: inputs -> got, want". An empty list means every case of every form matched.
 */
export function mismatches(cases: readonly FormCase[], got: readonly (readonly (readonly bigint[])[])[], want: (f: number, ins: bigint[]) => readonly bigint[], limit = 12): string[] {
  const out: string[] = [];
  const hex = (v: bigint | undefined): string => (v === undefined ? 'missing' : `0x${v.toString(16)}`);
  cases.forEach((c, f) => {
    const n = got[f]?.[0]?.length ?? 0;
    let bad = 0;
    for (let i = 0; i < n; i++) {
      const ins = c.inputs.map((a) => a[i] as bigint);
      const w = want(f, ins);
      const g = c.form.outs.map((_, m) => got[f]?.[m]?.[i]);
      if (g.every((v, m) => v === BigInt.asUintN(outBits(c.form.outs[m] as RegType), w[m] as bigint))) continue;
      bad++;
      if (out.length < limit) out.push(`${c.form.body.replace(/\s+/g, ' ')}: (${ins.map(hex).join(', ')}) -> ${g.map(hex).join(', ')}; want ${w.map((v) => hex(v)).join(', ')}`);
    }
    if (bad > 0 && out.length < limit + 40) out.push(`  [${bad}/${n} wrong: ${c.form.body.replace(/\s+/g, ' ').slice(0, 80)}]`);
  });
  return out;
}

// ------------------------------------------------------------------ inputs

/** splitmix64: a fixed-seed generator of 64-bit values. */
export function rng(seed: number | bigint): () => bigint {
  let s = BigInt.asUintN(64, BigInt(seed) * 0x9e3779b97f4a7c15n + 1n);
  return () => {
    s = BigInt.asUintN(64, s + 0x9e3779b97f4a7c15n);
    let z = s;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}

/** 0, +-1, signed/unsigned min and max, powers of two and their neighbours (unsigned bit patterns). */
export function edges(bits: number): bigint[] {
  const m = (1n << BigInt(bits)) - 1n;
  const set = new Set<bigint>([0n, 1n, m, m - 1n, m >> 1n, (m >> 1n) + 1n, (m >> 1n) + 2n, (m >> 1n) - 1n]);
  for (let k = 1; k < bits; k++) {
    const p = 1n << BigInt(k);
    set.add(p); set.add(p - 1n); set.add((p + 1n) & m);
    set.add((-p) & m);
  }
  return [...set].map((v) => v & m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A short edge list for cross products: small values, extremes, shift-amount edges, patterns. */
export function fewEdges(bits: number): bigint[] {
  const m = (1n << BigInt(bits)) - 1n;
  const h = 1n << BigInt(bits - 1);
  const half = 1n << BigInt(bits >> 1);
  const vals = [0n, 1n, 2n, 3n, 7n, 8n, 31n, 32n, 33n, 64n, 255n, 256n, m, m - 1n, m - 2n, h - 1n, h, h + 1n,
    half - 1n, half, half + 1n, 0x5555555555555555n & m, 0xaaaaaaaaaaaaaaaan & m, (m - 255n) & m];
  return [...new Set(vals.map((v) => v & m))];
}

/** Random values of `bits` bits, biased so some are small, small negatives or narrow. */
export function randoms(bits: number, n: number, seed: number): bigint[] {
  const r = rng(seed);
  const out: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const v = r();
    const pick = Number(v & 7n);
    const w = pick === 0 ? 1 + Number((v >> 8n) % BigInt(bits)) : bits;
    let x = BigInt.asUintN(w, r());
    if (pick === 1) x = -BigInt.asUintN(8, x); // small negative
    out.push(BigInt.asUintN(bits, x));
  }
  return out;
}

/**
 * Operand pairs: fewEdges x fewEdges first (so a recording of the first ~600 cases has them), then
 * every edges() value against 4 random partners on each side, then `n` seeded random pairs.
 */
export function pairs(bits: number, n: number, seed: number, bitsB = bits): [bigint[], bigint[]] {
  const as: bigint[] = [];
  const bs: bigint[] = [];
  for (const a of fewEdges(bits)) for (const b of fewEdges(bitsB)) { as.push(a); bs.push(b); }
  const ea = edges(bits);
  const eb = edges(bitsB);
  const ra = randoms(bits, 4 * eb.length, seed + 1);
  const rb = randoms(bitsB, 4 * ea.length, seed + 2);
  ea.forEach((a, i) => { for (let k = 0; k < 4; k++) { as.push(a); bs.push(rb[4 * i + k] as bigint); } });
  eb.forEach((b, i) => { for (let k = 0; k < 4; k++) { as.push(ra[4 * i + k] as bigint); bs.push(b); } });
  as.push(...randoms(bits, n, seed));
  bs.push(...randoms(bitsB, n, seed + 7919));
  return [as, bs];
}

/** Every fewEdges triple (~14k), or a seeded sample of them when `cross` is smaller, then `n` random triples. */
export function triples(bits: readonly [number, number, number], n: number, seed: number, cross = 4096): [bigint[], bigint[], bigint[]] {
  const [ea, eb, ec] = bits.map(fewEdges) as [bigint[], bigint[], bigint[]];
  const out: [bigint[], bigint[], bigint[]] = [[], [], []];
  const total = ea.length * eb.length * ec.length;
  const r = rng(seed + 99);
  const step = Math.max(1, Math.floor(total / cross));
  for (let i = 0; i < total; i += step) {
    const j = step === 1 ? i : Math.min(total - 1, i + Number(r() % BigInt(step)));
    out[0].push(ea[j % ea.length] as bigint);
    out[1].push(eb[Math.floor(j / ea.length) % eb.length] as bigint);
    out[2].push(ec[Math.floor(j / (ea.length * eb.length))] as bigint);
  }
  bits.forEach((w, k) => out[k]?.push(...randoms(w, n, seed + 31 * k)));
  return out;
}

/** pairs(16, 2048) first, then every 16-bit value of the first operand crossed with `n` second operands. */
export function exhaustive16x(n: number, seed: number): [bigint[], bigint[]] {
  const [as, bs] = pairs(16, 2048, seed);
  const bsample = [...fewEdges(16), ...randoms(16, n, seed + 5)];
  for (let k = 0; k < n; k++) {
    const b = bsample[(k * 7 + seed) % bsample.length] as bigint;
    for (let a = 0n; a < 65536n; a++) { as.push(a); bs.push(b); }
  }
  return [as, bs];
}

/** Every pair of 8-bit values. */
export function all8Pairs(): [bigint[], bigint[]] {
  const as: bigint[] = [];
  const bs: bigint[] = [];
  for (let a = 0n; a < 256n; a++) for (let b = 0n; b < 256n; b++) { as.push(a); bs.push(b); }
  return [as, bs];
}

/** Every value of one 16-bit operand. */
export function all16(): bigint[] {
  return Array.from({ length: 65536 }, (_, i) => BigInt(i));
}

// ------------------------------------------------------------------ native recording

/** A batch a suite also records natively: `*.forms.ts` files export `NATIVE_BATCHES: NativeBatch[]`. */
export interface NativeBatch {
  readonly name: string;
  /** Cases per form that are recorded (the first `keep` of each form). */
  readonly keep: number;
  cases(): FormCase[];
}

export interface BatchManifest {
  readonly name: string;
  readonly keep: number;
  readonly forms: readonly { readonly body: string; readonly ins: readonly RegType[]; readonly outs: readonly RegType[]; readonly count: number }[];
  readonly inSlots: number;
  readonly outSlots: number;
  readonly threads: number;
}

const truncate = (cases: readonly FormCase[], keep: number): FormCase[] =>
  cases.map((c) => ({ form: c.form, inputs: c.inputs.map((a) => a.slice(0, keep)) }));

/** The kernel, manifest and packed inputs of a batch cut to its first `keep` cases per form. */
export function emitBatch(b: NativeBatch): { ptx: string; manifest: BatchManifest; inputBytes: Uint8Array } {
  const full = b.cases();
  const cases = truncate(full, b.keep);
  const { inSlots, outSlots, maxCount } = layoutOf(cases);
  const manifest: BatchManifest = {
    name: b.name, keep: b.keep, inSlots, outSlots, threads: maxCount,
    forms: full.map((c) => ({ body: c.form.body, ins: c.form.ins, outs: c.form.outs, count: c.inputs[0]?.length ?? 0 })),
  };
  const input = packInputs(cases);
  return { ptx: batchPtx(cases), manifest, inputBytes: new Uint8Array(input.buffer) };
}

/**
 * The committed native recording of a batch (record_native.py's output): result[f][m][i] for the
 * first min(keep, count) cases of form f, or null when none is committed. The .bin.gz holds the
 * output slots of the cut batch (little-endian u64, harness layout); the .json is the manifest,
 * checked against the test's forms so a stale recording is refused rather than misread.
 */
export function loadNative(name: string, cases: readonly FormCase[]): bigint[][][] | null {
  const dir = new URL('./native/', import.meta.url);
  const bin = new URL(`${name}.bin.gz`, dir);
  const meta = new URL(`${name}.json`, dir);
  if (!existsSync(bin) || !existsSync(meta)) return null;
  const m = JSON.parse(readFileSync(meta, 'utf8')) as BatchManifest;
  if (m.forms.length !== cases.length) throw new Error(`native recording ${name}: ${m.forms.length} forms, test has ${cases.length} (re-record)`);
  cases.forEach((c, f) => {
    if (m.forms[f]?.body !== c.form.body || m.forms[f]?.count !== (c.inputs[0]?.length ?? 0)) {
      throw new Error(`native recording ${name}: form ${f} (${c.form.body}) differs from the test (re-record)`);
    }
  });
  const raw = gunzipSync(readFileSync(bin));
  const words = new BigUint64Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  return unpackOutputs(truncate(cases, m.keep), words);
}

/**
 * Mismatches of a batch's JS reference against its native recording, on the cases the recording
 * kept; throws when the recording is missing (a reference check must not pass without it).
 */
export function referenceVsNative(name: string, cases: readonly FormCase[], ref: (f: number, ins: bigint[]) => readonly bigint[], limit = 30): string[] {
  const native = loadNative(name, cases);
  if (!native) throw new Error(`tests/conformance/native/${name}.bin.gz is missing`);
  const kept = cases.map((c, f) => ({ form: c.form, inputs: c.inputs.map((a) => a.slice(0, native[f]?.[0]?.length ?? 0)) }));
  return mismatches(kept, native, ref, limit);
}
