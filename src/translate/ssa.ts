/**
 * On-the-fly SSA construction (Braun et al. 2013, "Simple and Efficient Construction of
 * Static Single Assignment Form"), with block parameters in place of phis as in
 * Cranelift's frontend `ssa.rs`. PTX registers are the variables.
 *
 * Contract: every block's predecessors are declared (addEdge) before it is sealed; reads
 * in unsealed blocks create provisional block parameters completed at sealing. Trivial
 * parameters (all incoming values equal) are removed by `finish`.
 */
import type { Span } from '../diagnostics/span.js';
import type { BlockId, ValueId } from '../ir/entities.js';
import type { IrFunction } from '../ir/function.js';
import type { IrType } from '../ir/types.js';

/** A mutable edge during construction: its args grow as block parameters are added. */
export interface PendingEdge {
  readonly from: BlockId;
  readonly to: BlockId;
  readonly args: ValueId[];
}

export interface Variable { readonly key: string; readonly type: IrType; readonly hint: string }

export class SsaBuilder {
  private readonly defs = new Map<string, Map<BlockId, ValueId>>();
  private readonly sealed = new Set<BlockId>();
  private readonly incomplete = new Map<BlockId, { variable: Variable; param: ValueId }[]>();
  private readonly edgesTo = new Map<BlockId, PendingEdge[]>();
  /** Incoming value of each block parameter we created, per edge. */
  private readonly operands = new Map<ValueId, Map<PendingEdge, ValueId>>();

  constructor(private readonly fn: IrFunction, private readonly undefValue: (type: IrType, span: Span) => ValueId) {}

  addEdge(edge: PendingEdge): void {
    let list = this.edgesTo.get(edge.to);
    if (!list) this.edgesTo.set(edge.to, (list = []));
    list.push(edge);
  }

  write(variable: Variable, block: BlockId, value: ValueId): void {
    let m = this.defs.get(variable.key);
    if (!m) this.defs.set(variable.key, (m = new Map()));
    m.set(block, value);
  }

  read(variable: Variable, block: BlockId, span: Span): ValueId {
    const v = this.defs.get(variable.key)?.get(block);
    return v ?? this.readRecursive(variable, block, span);
  }

  seal(block: BlockId, span: Span): void {
    if (this.sealed.has(block)) return;
    this.sealed.add(block);
    for (const { variable, param } of this.incomplete.get(block) ?? []) this.addOperands(variable, block, param, span);
    this.incomplete.delete(block);
  }

  /**
   * Completes construction: removes trivial block parameters (Braun's tryRemoveTrivialPhi,
   * run to a fixed point) and writes the arguments of every edge.
   */
  finish(): void {
    const replaced = new Map<ValueId, ValueId>();
    const resolve = (v: ValueId): ValueId => {
      let cur = v;
      while (replaced.has(cur)) cur = replaced.get(cur) as ValueId;
      return cur;
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const [param, incoming] of this.operands) {
        if (replaced.has(param)) continue;
        let same: ValueId | undefined;
        let trivial = true;
        for (const raw of incoming.values()) {
          const v = resolve(raw);
          if (v === param || v === same) continue;
          if (same !== undefined) { trivial = false; break; }
          same = v;
        }
        if (trivial && same !== undefined) { replaced.set(param, same); changed = true; }
      }
    }
    for (const b of this.fn.blockIds()) {
      const block = this.fn.block(b);
      const kept = block.params.filter((p) => !replaced.has(p));
      block.params.splice(0, block.params.length, ...kept);
      kept.forEach((p, index) => { this.fn.values[p] = { ...this.fn.value(p), def: { kind: 'param', block: b, index } }; });
      for (const edge of this.edgesTo.get(b) ?? []) {
        edge.args.splice(0, edge.args.length, ...kept.map((p) => resolve(this.operands.get(p)?.get(edge) ?? p)));
      }
    }
    const subst = new Map<ValueId, ValueId>();
    for (const k of replaced.keys()) subst.set(k, resolve(k));
    this.fn.substitute(subst);
  }

  private readRecursive(variable: Variable, block: BlockId, span: Span): ValueId {
    const preds = this.edgesTo.get(block) ?? [];
    let value: ValueId;
    if (!this.sealed.has(block)) {
      value = this.fn.addBlockParam(block, variable.type, variable.hint);
      let list = this.incomplete.get(block);
      if (!list) this.incomplete.set(block, (list = []));
      list.push({ variable, param: value });
    } else if (preds.length === 0) {
      // Read before any write: PTX leaves the register undefined; we define it as zero.
      value = this.undefValue(variable.type, span);
    } else if (preds.length === 1 && preds[0]) {
      value = this.read(variable, preds[0].from, span);
    } else {
      value = this.fn.addBlockParam(block, variable.type, variable.hint);
      this.write(variable, block, value);
      this.addOperands(variable, block, value, span);
    }
    this.write(variable, block, value);
    return value;
  }

  private addOperands(variable: Variable, block: BlockId, param: ValueId, span: Span): void {
    const incoming = new Map<PendingEdge, ValueId>();
    this.operands.set(param, incoming);
    for (const edge of this.edgesTo.get(block) ?? []) incoming.set(edge, this.read(variable, edge.from, span));
  }
}
