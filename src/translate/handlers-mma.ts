/**
 * `mma.sync.aligned` (ISA "Warp-level matrix multiply-accumulate instructions: mma") without
 * tensor cores: each thread computes its own D fragment elements from the A, B and C elements
 * they need, gathered from the lanes that hold them with whole-warp shuffles (warp-exchange.ts;
 * where each element is: mma-operands.ts, from the layouts of matrix-fragments.ts and
 * mma-quad-pair.ts), then a loop over k unrolled into ordinary IR arithmetic. Later passes see
 * only shfl, arithmetic and selects. The forms: mma-form.ts.
 * Arithmetic, where the ISA leaves it open (it documents neither the order of the sums nor their
 * internal precision):
 *  - f16/bf16/tf32/e4m3/e5m2: inputs widen exactly to f32, so every product is exact in f32 (at
 *    most 11-bit significands; fp8 products lie between 2^-32 and 2^32; bf16 and tf32 products
 *    of huge or tiny values may leave f32's range, which the hardware does not document either).
 *    D = C + a0*b0 + a1*b1 + ... in increasing k, each addition rounded to nearest even in f32
 *    (.f16 C widened exactly first; .f16 D is the f32 result rounded to nearest even). tf32
 *    operands are f32 bit patterns of which the low 13 bits are ignored (truncated), as the
 *    tensor cores read them. The hardware adds with other internal precision and order, so
 *    results may differ from it in the last bits of f32. For fp8 what is known is measured, not
 *    documented: DeepSeek-V3's report (arXiv 2412.19437, section 3.3.2) found that Hopper's
 *    FP8 tensor-core GEMMs keep about 14 bits when they add the aligned products, so long fp8
 *    sums there lose low bits that ours keeps; tests/matrix/native/ holds the H100's results.
 *  - f64: D = fma(a3, b3, fma(a2, b2, fma(a1, b1, fma(a0, b0, C)))), each .rn.
 *  - s8/u8/s4/u4: exact; the products sum into 32 bits (|sum| < 2^22), then C is added wrapping
 *    modulo 2^32, or with .satfinite clamped to the s32 range. b1: D = C + the popc of A's row
 *    AND/XOR B's column, modulo 2^32.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { operand, unsupported } from './handler.js';
import { packLanes, unpackLanes } from './handlers-float.js';
import { registerList } from './handlers-matrix.js';
import { INPUT_BITS } from './matrix-fragments.js';
import { isIntegerInput, mmaForm, type Accumulator, type MmaForm } from './mma-form.js';
import { isOwnLane, type ElementRef, type LaneExpr, type RegisterShape } from './mma-operands.js';
import { WarpExchange } from './warp-exchange.js';
import { mmaStaged, stagedShape } from './mma-tensor-core.js';

type Role = 'a' | 'b' | 'c';

/**
 * Inputs whose products are exact, normal (or zero) f32 values: f16 (at most 2^32, at least
 * 2^-48) and fp8. For them the fused a*b + acc and the rounded sum of the exact product are the
 * same number, so the product is marked `exact`, which contract-mul-add leaves alone: a device
 * without a fused fma() (lavapipe) then multiplies and adds natively instead of running the integer
 * fma emulation 64 times per m16n8k16.
 * bf16 and tf32 products can leave f32's range and keep the fused form.
 */
const EXACT_PRODUCTS: ReadonlySet<string> = new Set(['f16', 'e4m3', 'e5m2']);
type ElementType = MmaForm['a'] | Accumulator;

/** The register operands of `inst`'s operand i, checked against the fragment's count. */
function registers(cx: BuildContext, inst: Ast.Instruction, i: number, count: number): readonly Ast.Operand[] | undefined {
  const list = registerList(operand(inst, i));
  if (list.length === count) return list;
  unsupported(cx, inst, `needs ${count} registers in operand ${i + 1} (it has ${list.length})`);
  return undefined;
}

const registerType = (t: ElementType): T.IrType => (t === 'f64' ? T.f64 : t === 'f32' ? T.f32 : T.i32);

/** Lowers one mma: gathers, computes and writes D. */
class MmaLowering {
  private readonly x: WarpExchange;
  private readonly cache = new Map<string, ValueId>();
  private readonly halves = new Map<ValueId, [ValueId, ValueId]>();
  private readonly regs: Record<Role, readonly ValueId[]> = { a: [], b: [], c: [] };

  constructor(private readonly cx: BuildContext, private readonly inst: Ast.Instruction, private readonly f: MmaForm) {
    this.x = new WarpExchange(cx, inst.span);
  }

  private get s(): Ast.Instruction['span'] { return this.inst.span; }

  private memo(key: string, build: () => ValueId): ValueId {
    let v = this.cache.get(key);
    if (v === undefined) this.cache.set(key, (v = build()));
    return v;
  }

  private typeOf(role: Role): ElementType { return this.f[role]; }
  private shapeOf(role: Role): RegisterShape { return this.f.operands[role]; }

  /** The lane ((laneid & mask) << shl) | or. */
  private laneOf(l: LaneExpr): ValueId {
    const x = this.x;
    return x.memo(`lane${l.mask}<<${l.shl}|${l.or}`, () => {
      let v = l.mask === 0 ? x.k(0) : l.mask === 31 ? x.lane : x.bin('and', x.lane, x.k(l.mask));
      if (l.shl) v = x.bin('shl', v, x.k(l.shl));
      return l.or ? x.bin('or', v, x.k(l.or)) : v;
    });
  }

  /** Register `reg` of the lane `l`, in the register's own type. */
  private word(role: Role, reg: number, l: LaneExpr): ValueId {
    const own = this.regs[role][reg] as ValueId;
    if (isOwnLane(l)) return own;
    return this.memo(`${role}${reg}@${l.mask},${l.shl},${l.or}`, () => {
      const w = this.x.shuffleWide(own, this.laneOf(l));
      const t = this.cx.fn.typeOf(own);
      return this.cx.fn.typeOf(w) === t ? w : this.cx.emit({ op: 'bitcast', type: t, value: w }, this.s);
    });
  }

  /** The element `ref` of operand `role`, as f32 (f64 for .f64, i32 for .s32 C). */
  private elementAt(role: Role, ref: ElementRef): ValueId {
    const bits = ref.elem.mask;
    if (bits === 0) return this.staticElement(role, ref.lane, ref.elem.add);
    // the element index depends on the reading lane: select among the candidates, bit by bit
    const pick = (value: number, from: number): ValueId => {
      const bit = [1, 2, 4, 8, 16].find((b) => b >= from && (bits & b) !== 0);
      if (bit === undefined) return this.staticElement(role, ref.lane, ref.elem.add + value);
      const x = this.x;
      const set = x.memo(`bit${bit}`, () => this.cx.emit({ op: 'icmp', type: T.pred, cond: 'ne', a: x.bin('and', x.lane, x.k(bit)), b: x.k(0) }, this.s));
      const one = pick(value | bit, bit << 1);
      const zero = pick(value, bit << 1);
      return this.cx.emit({ op: 'select', type: this.cx.fn.typeOf(one), cond: set, a: one, b: zero }, this.s);
    };
    return pick(0, 1);
  }

  private staticElement(role: Role, l: LaneExpr, e: number): ValueId {
    const { perReg } = this.shapeOf(role);
    return this.memo(`${role}.${e}@${l.mask},${l.shl},${l.or}`, () => this.convert(this.word(role, Math.floor(e / perReg), l), e % perReg, this.typeOf(role)));
  }

  /** Element s of a register, widened exactly. */
  private convert(word: ValueId, s: number, t: ElementType): ValueId {
    const { cx } = this;
    if (t === 'f64' || t === 'f32' || t === 's32') return word;
    if (t === 'tf32') {
      const bits = cx.emit({ op: 'ibinary', kind: 'and', type: T.i32, a: word, b: cx.constant(T.i32, 0xffffe000n, this.s) }, this.s);
      return cx.emit({ op: 'bitcast', type: T.f32, value: bits }, this.s);
    }
    if (t === 'e4m3' || t === 'e5m2') {
      const byte = s === 0 ? word : this.x.bin('shr_u', word, this.x.k(8 * s));
      const narrow = cx.emit({ op: 'truncate', type: T.i16, value: this.x.bin('and', byte, this.x.k(0xff)) }, this.s);
      const half = cx.emit({ op: 'convert', type: T.f16, value: narrow, fromSigned: false, toSigned: false, rounding: 'rn', sat: false, ftz: false, minifloat: { format: t, tiesAway: false } }, this.s);
      return this.widen(half);
    }
    // both halves of a word at once: another element reads the other one
    let pair = this.halves.get(word);
    if (!pair) this.halves.set(word, (pair = unpackLanes(cx, word, t === 'bf16' ? T.bf16 : T.f16, this.s)));
    return this.widen(pair[s] as ValueId);
  }

  private widen(half: ValueId): ValueId {
    return this.cx.emit({ op: 'convert', type: T.f32, value: half, fromSigned: false, toSigned: false, rounding: 'default', sat: false, ftz: false }, this.s);
  }

  /** D element i: C + the sum over k of A[row][k] * B[k][col]. */
  private result(i: number): ValueId {
    const { cx, f } = this;
    const c = this.elementAt('c', f.operands.cAt(i));
    if (isIntegerInput(f.a)) return this.integerResult(i, c);
    let acc = c;
    for (let k = 0; k < f.operands.k; k++) {
      const a = this.elementAt('a', f.operands.aAt(i, k));
      const b = this.elementAt('b', f.operands.bAt(i, k));
      acc = f.a === 'f64'
        ? cx.emit({ op: 'fma', type: T.f64, a, b, c: acc, rounding: 'rn', ftz: false, sat: false }, this.s)
        : this.float('add', acc, this.float('mul', a, b, EXACT_PRODUCTS.has(f.a)));
    }
    return acc;
  }

  private float(kind: 'add' | 'mul', a: ValueId, b: ValueId, exact = false): ValueId {
    return this.cx.emit({ op: 'fbinary', kind, type: T.f32, a, b, rounding: 'default', ftz: false, sat: false, ...(exact ? { exact } : {}) }, this.s);
  }

  /**
   * Integer and .b1 inputs: a register of A and one of B hold the same run of k in the same
   * order (the quad figures), so whole registers meet: dp4a per 4 bytes, per 8 nibbles two dp4a
   * on the even and the odd nibbles widened to bytes, popc per 32 bits.
   */
  private integerResult(i: number, c: ValueId): ValueId {
    const { cx, f, x } = this;
    const perReg = 32 / INPUT_BITS[f.a];
    let dot = x.k(0);
    for (let k = 0; k < f.operands.k; k += perReg) {
      const ra = f.operands.aAt(i, k);
      const rb = f.operands.bAt(i, k);
      const aw = this.word('a', ra.elem.add / perReg, ra.lane);
      const bw = this.word('b', rb.elem.add / perReg, rb.lane);
      if (f.a === 'b1') {
        const bits = x.bin(f.bitOp === 'and' ? 'and' : 'xor', aw, bw);
        dot = x.bin('add', dot, cx.emit({ op: 'iunary', kind: 'popc', type: T.i32, value: bits }, this.s));
      } else if (perReg === 4) {
        dot = this.dp4a(aw, bw, dot);
      } else {
        for (const shift of [0, 4]) dot = this.dp4a(this.nibbles(aw, shift, f.a === 's4'), this.nibbles(bw, shift, f.b === 's4'), dot);
      }
    }
    return f.satfinite ? this.addSaturated(c, dot) : x.bin('add', c, dot);
  }

  private dp4a(a: ValueId, b: ValueId, acc: ValueId): ValueId {
    const signed = (t: MmaForm['a']): boolean => t === 's8' || t === 's4';
    return this.cx.emit({ op: 'ibits', type: T.i32, fn: { kind: 'dp4a', aSigned: signed(this.f.a), bSigned: signed(this.f.b) }, args: [a, b, acc] }, this.s);
  }

  /** The nibbles at bit `shift` of each byte as bytes, sign-extended for .s4 (bit 3 times 0x1e is 0xf0). */
  private nibbles(word: ValueId, shift: number, signed: boolean): ValueId {
    const x = this.x;
    return this.memo(`n${word}.${shift}.${signed}`, () => {
      const low = x.bin('and', shift ? x.bin('shr_u', word, x.k(shift)) : word, x.k(0x0f0f0f0f));
      return signed ? x.bin('or', low, x.bin('mul', x.bin('and', low, x.k(0x08080808)), x.k(0x1e))) : low;
    });
  }

  /** c + dot clamped to the s32 range (overflow: c and dot of one sign, the sum of the other). */
  private addSaturated(c: ValueId, dot: ValueId): ValueId {
    const { cx, s, x } = this;
    const zero = x.k(0);
    const sum = x.bin('add', c, dot);
    const overflow = cx.emit({ op: 'icmp', type: T.pred, cond: 'slt', a: x.bin('and', x.bin('xor', sum, c), x.bin('xor', sum, dot)), b: zero }, s);
    const negative = cx.emit({ op: 'icmp', type: T.pred, cond: 'slt', a: c, b: zero }, s);
    const clamp = cx.emit({ op: 'select', type: T.i32, cond: negative, a: x.k(0x80000000), b: x.k(0x7fffffff) }, s);
    return cx.emit({ op: 'select', type: T.i32, cond: overflow, a: clamp, b: sum }, s);
  }

  run(): void {
    const { cx, inst, f } = this;
    const ops = f.operands;
    const d = registers(cx, inst, 0, ops.d.regs);
    const a = registers(cx, inst, 1, ops.a.regs);
    const b = registers(cx, inst, 2, ops.b.regs);
    const c = registers(cx, inst, 3, ops.c.regs);
    if (!d || !a || !b || !c) return;
    this.regs.a = a.map((o) => cx.read(o, registerType(f.a)));
    this.regs.b = b.map((o) => cx.read(o, registerType(f.b)));
    this.regs.c = c.map((o) => cx.read(o, registerType(f.c)));
    const results = Array.from({ length: ops.d.regs * ops.d.perReg }, (_, i) => this.result(i));
    d.forEach((op, r) => {
      if (ops.d.perReg === 1) { cx.write(op, results[r] as ValueId); return; }
      const half = (e: number): ValueId => cx.emit({ op: 'convert', type: T.f16, value: results[2 * r + e] as ValueId, fromSigned: false, toSigned: false, rounding: 'rn', sat: false, ftz: false }, this.s);
      cx.write(op, packLanes(cx, half(0), half(1), this.s));
    });
  }
}

export const mma: Handler = (cx, inst) => {
  const form = mmaForm(cx, inst);
  if (!form) return;
  const staged = cx.symbols.mmaTensorCores ? stagedShape(inst) : undefined;
  if (staged !== undefined && typeof staged !== 'string') mmaStaged(cx, inst, staged);
  else new MmaLowering(cx, inst, form).run();
};
