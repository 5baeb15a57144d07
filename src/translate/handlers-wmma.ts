/**
 * `wmma.load`, `wmma.store` and `wmma.mma` (ISA "Warp Level Matrix Multiply-Accumulate
 * Instructions: wmma"), lowered during translation with NVIDIA's recorded fragment layouts
 * (wmma-fragments.ts): each thread loads and stores exactly the elements its fragment holds,
 * with ordinary memory accesses, and wmma.mma becomes shuffles and arithmetic (wmma-mma.ts).
 *
 * Forms (ptxas's own checks agree):
 *  - shapes m16n16k16, m32n8k16, m8n32k16 with .f16 (.f16 or .f32 C and D, in any pairing),
 *    .bf16 (.f32), .s8/.u8 (.s32, A and B of one type); m16n16k8 .tf32 (.f32); m8n8k4 .f64
 *    (.f64, `.rn .rz .rm .rp`); m8n8k32 .s4/.u4 and m8n8k128 .b1 (`.xor.popc`/`.and.popc`),
 *    .s32, only as row-major A and column-major B;
 *  - `.row`/`.col` for A, B and C/D; the stride operand (in elements; without it, the matrix's
 *    own row or column length); `.global`, `.shared{::cta}` or generic addresses;
 *  - `.satfinite` for the integer forms but .b1 (the floating-point one left the ISA in PTX 6.5).
 * The address and stride must be the same in every lane (ISA), and each row or column start 16
 * bytes aligned, so the elements of one register that are adjacent in memory are one 32-bit
 * access. Anything else is L001 naming the instruction as written; a fragment with the wrong
 * number of registers is L002.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import type { MemorySpace } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { notSupported, operand, unsupported } from './handler.js';
import { registerList } from './handlers-matrix.js';
import { LaneTables } from './lane-table.js';
import {
  ELEMENT_BITS, WMMA_SHAPES, accumulatorLayout, accumulatorsOf, inputLayout, isSubByte,
  type FragmentLayout, type WmmaAccumulator, type WmmaElement, type WmmaInput,
} from './wmma-fragments.js';
import { WmmaMma } from './wmma-mma.js';
import { WarpExchange } from './warp-exchange.js';

type Layout = 'row' | 'col';

function memorySpace(cx: BuildContext, inst: Ast.Instruction): MemorySpace | undefined {
  const s = inst.modifiers.space;
  if (!s) return 'generic';
  if (s.space === 'global' && s.qualifier === undefined) return 'global';
  if (s.space === 'shared' && (s.qualifier === undefined || s.qualifier === 'cta')) return 'shared';
  notSupported(cx, inst, 'wmma matrices are in `.global`, `.shared{::cta}` or addressed generically');
  return undefined;
}

export interface Access {
  readonly layout: FragmentLayout;
  readonly type: WmmaElement;
  readonly order: Layout;
  readonly space: MemorySpace;
}

/** The fragment of a load or store, after its form's checks (L001 and undefined otherwise). */
export function accessForm(cx: BuildContext, inst: Ast.Instruction, use: string): Access | undefined {
  const m = inst.modifiers;
  const fail = (note: string): undefined => { notSupported(cx, inst, note); return undefined; };
  const shape = m.shape ? WMMA_SHAPES[m.shape] : undefined;
  const type = m.types[0];
  const order = m.layouts?.[0];
  if (!m.sync || !m.aligned) return fail('wmma needs `.sync.aligned`');
  if (!shape || !m.shape) return fail(`wmma shapes are ${Object.keys(WMMA_SHAPES).map((s) => `.${s}`).join(', ')}`);
  if (m.types.length !== 1 || !type || !order || m.layouts?.length !== 1) return fail('needs one layout and one type');
  let layout: FragmentLayout | undefined;
  if (use === 'a' || use === 'b') {
    if (!shape.inputs.includes(type as WmmaInput)) return fail(`.${m.shape} inputs are ${shape.inputs.map((t) => `.${t}`).join(', ')}`);
    if (isSubByte(type as WmmaInput) && order !== (use === 'a' ? 'row' : 'col')) return fail(`sub-byte ${use === 'a' ? 'A is .row' : 'B is .col'} only`);
    layout = inputLayout(use, m.shape, type as WmmaInput, order);
  } else {
    const accs = new Set(shape.inputs.flatMap(accumulatorsOf));
    if (!accs.has(type as WmmaAccumulator)) return fail(`.${m.shape} accumulators are ${[...accs].map((t) => `.${t}`).join(', ')}`);
    layout = accumulatorLayout(m.shape, type as WmmaAccumulator);
  }
  const space = memorySpace(cx, inst);
  if (!layout || !space) return layout ? undefined : fail('no recorded fragment layout for this form');
  return { layout, type: type as WmmaElement, order, space };
}

function checkedRegisters(cx: BuildContext, inst: Ast.Instruction, i: number, count: number): readonly Ast.Operand[] | undefined {
  const list = registerList(operand(inst, i));
  if (list.length === count) return list;
  unsupported(cx, inst, `needs ${count} registers in operand ${i + 1} (it has ${list.length})`);
  return undefined;
}

/** Byte offsets and accesses of one load or store, per register. */
class Addressing {
  private readonly x: WarpExchange;
  private readonly tables: LaneTables;
  /** The stride: a constant, or a register's value (ValueIds are numbers too, hence the wrapper). */
  private readonly stride: { readonly k: number } | { readonly v: ValueId };
  private readonly bits: number;
  private readonly elementOffsets = new Map<number, ValueId>();

  constructor(private readonly cx: BuildContext, private readonly inst: Ast.Instruction, private readonly a: Access, private readonly base: ValueId) {
    this.x = new WarpExchange(cx, inst.span);
    this.tables = new LaneTables(this.x);
    this.bits = ELEMENT_BITS[a.type];
    const given = inst.operands[2];
    const own = a.order === 'row' ? a.layout.cols : a.layout.rows;
    this.stride = given === undefined ? { k: own } : given.kind === 'integer' ? { k: Number(given.value) } : { v: cx.read(given, T.i32) };
  }

  /** The element offset of (row, col) in memory, per lane. */
  private offsets(e: number): readonly number[][] {
    const { cols } = this.a.layout;
    const at = this.a.layout.at.map((row) => row[e] as number);
    const rc = at.map((i) => [Math.floor(i / cols), i % cols] as const);
    return this.a.order === 'row' ? [rc.map((p) => p[0]), rc.map((p) => p[1])] : [rc.map((p) => p[1]), rc.map((p) => p[0])];
  }

  /**
   * The offset in elements of element e, per lane: major * stride + minor, or that of an
   * earlier element plus a constant where they differ by the same rows and columns in every lane.
   */
  private elementOffset(e: number): ValueId {
    const x = this.x;
    const [major, minor] = this.offsets(e) as [number[], number[]];
    const stride = this.stride;
    for (const [earlier, id] of this.elementOffsets) {
      const [m0, n0] = this.offsets(earlier) as [number[], number[]];
      const dm = (major[0] as number) - (m0[0] as number);
      const dn = (minor[0] as number) - (n0[0] as number);
      if (major.every((v, l) => v - (m0[l] as number) === dm) && minor.every((v, l) => v - (n0[l] as number) === dn)) {
        const delta = 'k' in stride ? x.k(dm * stride.k + dn) : x.bin('add', x.bin('mul', stride.v, x.k(dm)), x.k(dn));
        const v = x.bin('add', id, delta);
        this.elementOffsets.set(e, v);
        return v;
      }
    }
    const m = this.tables.get(major);
    const v = x.bin('add', x.bin('mul', m, 'k' in stride ? x.k(stride.k) : stride.v), this.tables.get(minor));
    this.elementOffsets.set(e, v);
    return v;
  }

  /** The byte address of element e (or of the 32-bit word holding it, for sub-word elements, with its bit position in `shift`). */
  address(e: number, wordOfBit: boolean): { address: ValueId; shift?: ValueId } {
    const x = this.x;
    const elements = this.elementOffsets.get(e) ?? this.elementOffset(e);
    if (this.bits >= 8 && !wordOfBit) return { address: this.plus(x.bin('mul', elements, x.k(this.bits / 8))) };
    const bit = this.bits === 1 ? elements : x.bin('mul', elements, x.k(this.bits));
    const word = x.bin('shl', x.bin('shr_u', bit, x.k(5)), x.k(2));
    return { address: this.plus(word), shift: x.bin('and', bit, x.k(31)) };
  }

  private plus(bytes: ValueId): ValueId {
    const t = this.cx.fn.typeOf(this.base);
    const b = t === T.i32 ? bytes : this.cx.emit({ op: 'extend', type: t, signed: false, value: bytes }, this.inst.span);
    return this.cx.emit({ op: 'ibinary', kind: 'add', type: t, a: this.base, b }, this.inst.span);
  }

  /** Whether register r's elements are consecutive in memory from a 32-bit boundary, in every lane. */
  wholeWord(r: number): boolean {
    const { per } = this.a.layout;
    if (per === 1) return true;
    const first = this.offsets(r * per);
    return Array.from({ length: per }, (_, s) => this.offsets(r * per + s)).every(([major, minor], s) =>
      (major as number[]).every((v, l) => v === (first[0] as number[])[l] && (minor as number[])[l] === ((first[1] as number[])[l] as number) + s))
      && (first[1] as number[]).every((v) => (v * this.bits) % 32 === 0);
  }

  get exchange(): WarpExchange { return this.x; }
}

/** `wmma.load.{a,b,c}.sync.aligned.layout.shape{.ss}.type r, [p]{, stride}`. */
const load: Handler = (cx, inst) => {
  const use = inst.modifiers.extra?.[0] ?? '';
  const a = accessForm(cx, inst, use);
  if (!a) return;
  const dst = checkedRegisters(cx, inst, 0, a.layout.regs);
  if (!dst) return;
  const ad = new Addressing(cx, inst, a, cx.address(operand(inst, 1), a.space));
  const x = ad.exchange;
  const bits = ELEMENT_BITS[a.type];
  const { per } = a.layout;
  const loadAt = (address: ValueId, type: T.IrType): ValueId => cx.emit({ op: 'load', type, space: a.space, address, region: null }, inst.span);
  dst.forEach((d, r) => {
    if (bits === 64) { cx.write(d, loadAt(ad.address(r, false).address, T.f64)); return; }
    if (ad.wholeWord(r)) { cx.write(d, loadAt(ad.address(r * per, false).address, T.i32)); return; }
    let word: ValueId | undefined;
    for (let s = 0; s < per; s++) {
      const at = ad.address(r * per + s, true);
      const piece = x.bin('and', x.bin('shr_u', loadAt(at.address, T.i32), at.shift as ValueId), x.k(2 ** bits - 1));
      const placed = s === 0 ? piece : x.bin('shl', piece, x.k(s * bits));
      word = word === undefined ? placed : x.bin('or', word, placed);
    }
    cx.write(d, word as ValueId);
  });
};

/** `wmma.store.d.sync.aligned.layout.shape{.ss}.type [p], r{, stride}`. */
const store: Handler = (cx, inst) => {
  const a = accessForm(cx, inst, 'd');
  if (!a) return;
  const src = checkedRegisters(cx, inst, 1, a.layout.regs);
  if (!src) return;
  const ad = new Addressing(cx, inst, a, cx.address(operand(inst, 0), a.space));
  const x = ad.exchange;
  const storeAt = (address: ValueId, type: T.IrType, value: ValueId): void => cx.effect({ op: 'store', type, space: a.space, address, region: null, value }, inst.span);
  src.forEach((op, r) => {
    if (a.type === 'f64') { storeAt(ad.address(r, false).address, T.f64, cx.read(op, T.f64)); return; }
    const word = cx.read(op, T.i32);
    if (ad.wholeWord(r)) { storeAt(ad.address(r * a.layout.per, false).address, T.i32, word); return; }
    // .f16 halves apart in memory: one 16-bit store each
    for (let s = 0; s < 2; s++) {
      const half = cx.emit({ op: 'truncate', type: T.i16, value: s === 0 ? word : x.bin('shr_u', word, x.k(16)) }, inst.span);
      storeAt(ad.address(2 * r + s, false).address, T.i16, half);
    }
  });
};

/** `wmma.mma{.op.popc}.sync.aligned.alayout.blayout.shape.types{.rnd}{.satfinite} d, a, b, c`. */
const mma: Handler = (cx, inst) => {
  const form = mmaForm(cx, inst);
  if (!form) return;
  const d = checkedRegisters(cx, inst, 0, form.dLayout.regs);
  const aOps = checkedRegisters(cx, inst, 1, form.a.regs);
  const bOps = checkedRegisters(cx, inst, 2, form.b.regs);
  const cOps = checkedRegisters(cx, inst, 3, form.cLayout.regs);
  if (!d || !aOps || !bOps || !cOps) return;
  const word = (t: WmmaElement): T.IrType => (t === 'f64' ? T.f64 : t === 'f32' ? T.f32 : T.i32);
  const results = new WmmaMma(cx, inst.span, form).run(
    aOps.map((o) => cx.read(o, word(form.input))), bOps.map((o) => cx.read(o, word(form.input))), cOps.map((o) => cx.read(o, word(form.c))));
  d.forEach((op, r) => cx.write(op, results[r] as ValueId));
};

export function mmaForm(cx: BuildContext, inst: Ast.Instruction): ConstructorParameters<typeof WmmaMma>[2] | undefined {
  const m = inst.modifiers;
  const fail = (note: string): undefined => { notSupported(cx, inst, note); return undefined; };
  const shape = m.shape ? WMMA_SHAPES[m.shape] : undefined;
  if (!m.sync || !m.aligned) return fail('wmma needs `.sync.aligned`');
  if (!shape || !m.shape) return fail(`wmma shapes are ${Object.keys(WMMA_SHAPES).map((s) => `.${s}`).join(', ')}`);
  const [al, bl] = m.layouts ?? [];
  if (!al || !bl || m.layouts?.length !== 2) return fail('wmma.mma needs `.alayout.blayout`');
  const t = m.types;
  const [dt, at, bt, ct] = t.length === 2 ? [t[0], 'f16', 'f16', t[1]] : t;
  if ((t.length !== 2 && t.length !== 4) || !dt || !at || !bt || !ct) return fail('types are `.dtype.ctype` (f16 inputs) or `.dtype.atype.btype.ctype`');
  const input = at as WmmaInput;
  if (at !== bt || !shape.inputs.includes(input) || (t.length === 2) !== (input === 'f16')) return fail(`.${m.shape} inputs are ${shape.inputs.map((x) => `.${x}`).join(', ')}, A and B of one type`);
  const accs = accumulatorsOf(input);
  if (!accs.includes(dt as WmmaAccumulator) || !accs.includes(ct as WmmaAccumulator)) return fail(`.${at} inputs take ${accs.map((x) => `.${x}`).join(' or ')} accumulators`);
  if (isSubByte(input) && (al !== 'row' || bl !== 'col')) return fail('sub-byte inputs are `.row.col` only');
  const floating = input === 'f16' || input === 'bf16' || input === 'tf32' || input === 'f64';
  if (m.satfinite && (floating || input === 'b1')) return fail(floating ? '`.satfinite` on floating-point wmma.mma left the ISA in PTX 6.5' : '`.satfinite` is not allowed with .b1');
  if (m.rounding !== undefined && input !== 'f64') return fail('a rounding modifier is .f64 only');
  const bitOp = m.boolOp === 'and' || m.boolOp === 'xor' ? m.boolOp : null;
  const popc = (m.extra ?? []).includes('popc');
  if (input === 'b1' ? !bitOp || !popc : bitOp !== null || popc) return fail('`.xor.popc`/`.and.popc` go with .b1, and .b1 needs one');
  const a = inputLayout('a', m.shape, input, al);
  const b = inputLayout('b', m.shape, input, bl);
  const dLayout = accumulatorLayout(m.shape, dt as WmmaAccumulator);
  const cLayout = accumulatorLayout(m.shape, ct as WmmaAccumulator);
  if (!a || !b || !dLayout || !cLayout) return fail('no recorded fragment layout for this form');
  return {
    m: shape.m, n: shape.n, k: shape.k, input, d: dt as WmmaAccumulator, c: ct as WmmaAccumulator,
    a, b, dLayout, cLayout, satfinite: !!m.satfinite, rounding: (m.rounding ?? 'rn') as 'rn' | 'rz' | 'rm' | 'rp', bitOp,
  };
}

const BY_MODE: Readonly<Record<string, Handler>> = { load, store, mma };

export const wmma: Handler = (cx, inst) => BY_MODE[inst.modifiers.mode ?? '']?.(cx, inst);
