/**
 * IR text form for tests and `--dump-after`: one line per instruction, block parameters
 * in the block header, e.g. `v7 = ibinary.add i32 v3, v5`.
 */
import type { ValueId } from './entities.js';
import type { BlockCall, IrFunction, IrModule, Terminator } from './function.js';
import { OPERANDS, type Inst } from './inst.js';
import { typeName } from './types.js';

const v = (x: ValueId): string => `v${x}`;
const call = (c: BlockCall): string => `block${c.block}(${c.args.map(v).join(', ')})`;

function attributes(inst: Inst): string {
  const skip = new Set<string>(['op', 'type', ...(OPERANDS[inst.op] as readonly string[])]);
  const parts: string[] = [];
  for (const [k, val] of Object.entries(inst)) {
    if (skip.has(k) || val === null || val === false) continue;
    if (k === 'kind' || k === 'cond' || k === 'register' || k === 'mode') continue;
    parts.push(`${k}=${typeof val === 'object' ? JSON.stringify(val) : String(val)}`);
  }
  return parts.length ? ` [${parts.join(' ')}]` : '';
}

export function printInst(inst: Inst): string {
  const sub = 'kind' in inst ? `.${inst.kind}` : 'cond' in inst ? `.${inst.cond}` : 'register' in inst ? `.${inst.register}` : 'mode' in inst ? `.${inst.mode}` : '';
  const ops: string[] = [];
  const rec = inst as unknown as Record<string, ValueId | readonly ValueId[] | null>;
  for (const f of OPERANDS[inst.op] as readonly string[]) {
    const x = rec[f];
    if (x === null || x === undefined) continue;
    ops.push(typeof x === 'number' ? v(x) : `[${x.map(v).join(', ')}]`);
  }
  return `${inst.op}${sub} ${typeName(inst.type)}${ops.length ? ' ' + ops.join(', ') : ''}${attributes(inst)}`;
}

export function printTerminator(t: Terminator | null): string {
  if (!t) return '<no terminator>';
  switch (t.op) {
    case 'jump': return `jump ${call(t.target)}`;
    case 'branch': return `branch ${v(t.cond)}, ${call(t.then)}, ${call(t.else)}`;
    case 'switch': return `switch ${v(t.index)}, [${t.targets.map(call).join(', ')}], ${call(t.fallback)}`;
    case 'return': return `return${t.values.length ? ' ' + t.values.map(v).join(', ') : ''}`;
    default: return t.op;
  }
}

export function printFunction(fn: IrFunction): string {
  const lines = [`function ${fn.name}${fn.isEntry ? ' (entry)' : ''} {`];
  for (const b of fn.blockIds()) {
    const block = fn.block(b);
    const params = block.params.map((p) => `${v(p)}: ${typeName(fn.typeOf(p))}`).join(', ');
    lines.push(`block${b}(${params}):${block.label ? `  ; ${block.label}` : ''}`);
    for (const id of block.insts) {
      const data = fn.inst(id);
      const lhs = data.results.length ? data.results.map(v).join(', ') + ' = ' : '';
      lines.push(`  ${lhs}${printInst(data.inst)}`);
    }
    lines.push(`  ${printTerminator(block.term)}`);
  }
  lines.push('}');
  return lines.join('\n');
}

export function printModule(m: IrModule): string {
  return m.functions.map(printFunction).join('\n\n');
}
