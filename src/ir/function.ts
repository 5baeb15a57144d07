/**
 * IR containers: a function is an arena of values, instructions and basic blocks with
 * block parameters instead of phis (Cranelift `ValueDef::Param`). Every instruction has
 * a source span, and every value has a type and exactly one definition.
 */
import type { Span } from '../diagnostics/span.js';
import type { SourceFile } from '../diagnostics/source.js';
import { blockId, instId, valueId, type BlockId, type InstId, type ValueId } from './entities.js';
import { mapOperands, someOperand, type Inst } from './inst.js';
import type { IrType } from './types.js';
import type { StructuredBody } from './structured.js';
import type { ParamType } from './vocabulary.js';

export type ValueDef =
  | { readonly kind: 'inst'; readonly inst: InstId; readonly index: number }
  | { readonly kind: 'param'; readonly block: BlockId; readonly index: number };

export interface ValueData {
  readonly type: IrType;
  readonly def: ValueDef;
  /** The PTX register this value came from, for readable IR and WGSL. */
  readonly hint?: string;
}

export interface InstData {
  inst: Inst;
  readonly results: readonly ValueId[];
  readonly span: Span;
  block: BlockId;
}

export interface BlockCall {
  readonly block: BlockId;
  readonly args: readonly ValueId[];
}

export type Terminator =
  | { readonly op: 'jump'; readonly target: BlockCall; readonly span: Span }
  | { readonly op: 'branch'; readonly cond: ValueId; readonly then: BlockCall; readonly else: BlockCall; readonly span: Span }
  | { readonly op: 'switch'; readonly index: ValueId; readonly targets: readonly BlockCall[]; readonly fallback: BlockCall; readonly span: Span }
  | { readonly op: 'return'; readonly values: readonly ValueId[]; readonly span: Span }
  | { readonly op: 'trap'; readonly span: Span }
  | { readonly op: 'unreachable'; readonly span: Span };

export interface BlockData {
  readonly params: ValueId[];
  insts: InstId[];
  term: Terminator | null;
  /** The PTX label that starts this block, if any. */
  readonly label?: string;
}

/** A kernel parameter as PTX lays it out in the `.param` space. */
export interface KernelParam {
  readonly name: string;
  readonly ptxType: ParamType;
  readonly offset: number;
  readonly size: number;
  readonly align: number;
  readonly arrayLength?: number;
}

export class IrFunction {
  readonly values: ValueData[] = [];
  readonly insts: InstData[] = [];
  readonly blocks: BlockData[] = [];
  entry: BlockId = blockId(0);
  /** Set by the structurize pass; the emitter walks it. */
  structured: StructuredBody | null = null;
  /** Set by address-space lowering: where each memory region lives and how WGSL views it. */
  memory: FunctionMemory | null = null;
  /** Blocks whose `return` is PTX `exit`: it ends the thread even inside an inlined `.func`. */
  readonly exits = new Set<BlockId>();
  /** A `.func`'s parameter and return variables (local-window symbols), in declaration order. */
  formals: { readonly params: readonly string[]; readonly returns: readonly string[] } | null = null;

  constructor(
    readonly name: string,
    readonly isEntry: boolean,
    readonly kernelParams: readonly KernelParam[],
    readonly span: Span,
  ) {}

  addBlock(label?: string): BlockId {
    this.blocks.push(label === undefined ? { params: [], insts: [], term: null } : { params: [], insts: [], term: null, label });
    return blockId(this.blocks.length - 1);
  }

  block(b: BlockId): BlockData {
    const data = this.blocks[b];
    if (!data) throw new Error(`ptx-wgsl internal error: no block ${b}`);
    return data;
  }

  addBlockParam(b: BlockId, type: IrType, hint?: string): ValueId {
    const block = this.block(b);
    const v = this.newValue({ type, def: { kind: 'param', block: b, index: block.params.length }, ...(hint ? { hint } : {}) });
    block.params.push(v);
    return v;
  }

  /** Appends an instruction with one result (or none when `type` is void-like and `results` is 0). */
  append(b: BlockId, inst: Inst, span: Span, resultTypes: readonly IrType[] = [inst.type], hint?: string): ValueId[] {
    const id = instId(this.insts.length);
    const results = resultTypes.map((type, index) =>
      this.newValue({ type, def: { kind: 'inst', inst: id, index }, ...(hint ? { hint } : {}) }),
    );
    this.insts.push({ inst, results, span, block: b });
    this.block(b).insts.push(id);
    return results;
  }

  /** Creates an instruction that belongs to `b` but is not placed; the caller positions it. */
  createDetached(b: BlockId, inst: Inst, span: Span, resultTypes: readonly IrType[] = [inst.type]): { id: InstId; results: ValueId[] } {
    const id = instId(this.insts.length);
    const results = resultTypes.map((type, index) => this.newValue({ type, def: { kind: 'inst', inst: id, index } }));
    this.insts.push({ inst, results, span, block: b });
    return { id, results };
  }

  inst(i: InstId): InstData {
    const data = this.insts[i];
    if (!data) throw new Error(`ptx-wgsl internal error: no instruction ${i}`);
    return data;
  }

  value(v: ValueId): ValueData {
    const data = this.values[v];
    if (!data) throw new Error(`ptx-wgsl internal error: no value ${v}`);
    return data;
  }

  typeOf(v: ValueId): IrType {
    return this.value(v).type;
  }

  /** The instruction defining `v`, or undefined for block parameters. */
  defOf(v: ValueId): Inst | undefined {
    const def = this.value(v).def;
    return def.kind === 'inst' ? this.inst(def.inst).inst : undefined;
  }

  blockIds(): BlockId[] {
    return this.blocks.map((_, i) => blockId(i));
  }

  successors(b: BlockId): BlockCall[] {
    const t = this.block(b).term;
    if (!t) return [];
    switch (t.op) {
      case 'jump': return [t.target];
      case 'branch': return [t.then, t.else];
      case 'switch': return [...t.targets, t.fallback];
      default: return [];
    }
  }

  /** Rewrites every use of values in `subst` (instructions and terminators). */
  substitute(subst: ReadonlyMap<ValueId, ValueId>): void {
    if (subst.size === 0) return;
    const f = (v: ValueId): ValueId => {
      let cur = v;
      for (let seen = 0; subst.has(cur) && seen < 1000; seen++) cur = subst.get(cur) as ValueId;
      return cur;
    };
    // Most instructions use none of the substituted values: only those that do are copied.
    const hit = (v: ValueId): boolean => subst.has(v);
    for (const data of this.insts) if (someOperand(data.inst, hit)) data.inst = mapOperands(data.inst, f);
    for (const block of this.blocks) if (block.term && someTerminatorOperand(block.term, hit)) block.term = mapTerminator(block.term, f);
  }

  private newValue(data: ValueData): ValueId {
    this.values.push(data);
    return valueId(this.values.length - 1);
  }
}

/** Whether `f` holds for some value a terminator uses (its condition, index, returns or edge arguments). */
export function someTerminatorOperand(t: Terminator, f: (v: ValueId) => boolean): boolean {
  switch (t.op) {
    case 'jump': return t.target.args.some(f);
    case 'branch': return f(t.cond) || t.then.args.some(f) || t.else.args.some(f);
    case 'switch': return f(t.index) || t.targets.some((c) => c.args.some(f)) || t.fallback.args.some(f);
    case 'return': return t.values.some(f);
    default: return false;
  }
}

export function mapTerminator(t: Terminator, f: (v: ValueId) => ValueId): Terminator {
  const call = (c: BlockCall): BlockCall => ({ block: c.block, args: c.args.map(f) });
  switch (t.op) {
    case 'jump': return { ...t, target: call(t.target) };
    case 'branch': return { ...t, cond: f(t.cond), then: call(t.then), else: call(t.else) };
    case 'switch': return { ...t, index: f(t.index), targets: t.targets.map(call), fallback: call(t.fallback) };
    case 'return': return { ...t, values: t.values.map(f) };
    default: return t;
  }
}

/** A shared, local or const variable with its byte offset in its region. */
export interface MemoryVariable {
  readonly name: string;
  readonly space: 'shared' | 'local' | 'const' | 'global';
  readonly size: number;
  readonly align: number;
  /** Unsized `.extern .shared` arrays: the launch's dynamic shared memory. */
  readonly dynamic: boolean;
  /** Initial bytes for `.const`/`.global` variables with initializers. */
  readonly init?: Uint8Array;
  /** Symbols whose addresses are stored at byte offsets of `init` (`generic(sym)`, `sym`). */
  readonly relocations?: readonly { readonly offset: number; readonly symbol: string; readonly generic: boolean; readonly addend?: number }[];
}

export interface IrModule {
  readonly source: SourceFile;
  readonly addressSize: 32 | 64;
  readonly functions: IrFunction[];
  readonly variables: MemoryVariable[];
}

/** How WGSL views a memory region: the widest access decides, atomics or sub-word stores force atomics. */
export type MemoryView = 'u32' | 'vec2<u32>' | 'vec4<u32>' | 'atomic<u32>' | MatrixView;
/** A global slot holding only wmma fragments on the tensor-core path (lowering/wgsl/emit-matrix.ts). */
export type MatrixView = 'f16' | 'f32';

export interface GlobalSlot {
  /** The kernel parameter whose allocation is bound, and parameters merged into it. */
  readonly param: number;
  readonly aliases: readonly number[];
  readonly view: MemoryView;
  readonly writable: boolean;
}

export interface WindowRegion {
  readonly view: MemoryView;
  /** Static bytes (variables laid out at `offsets`); the dynamic part follows at `dynamicOffset`. */
  readonly staticBytes: number;
  readonly offsets: ReadonlyMap<string, number>;
  readonly dynamic: boolean;
  readonly dynamicOffset: number;
  readonly used: boolean;
  /** Module `.global`/`.const` images (lowering/module-memory.ts): the initial bytes. */
  readonly init?: Uint8Array;
}

export interface FunctionMemory {
  readonly slots: readonly GlobalSlot[];
  readonly shared: WindowRegion;
  readonly local: WindowRegion;
  readonly constant: WindowRegion;
  /** The module's `.global` variables (lowering/module-memory.ts). */
  readonly moduleGlobal: WindowRegion;
  readonly dynamicGlobal: boolean;
  readonly dynamicGeneric: boolean;
}
