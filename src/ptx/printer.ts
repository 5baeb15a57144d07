/**
 * AST → PTX text. The output reparses to the same AST (spans aside): literals print
 * as exact bits, modifiers print in the opcode table's group order (the ISA's syntax
 * order), call operands use their parenthesised lists, verbatim directives print as kept.
 */
import type {
  FunctionDeclaration, Initializer, Instruction, Module, ModuleItem, Modifiers, Operand, PerformanceDirectives,
  SpaceRef, Statement, VariableDeclaration,
} from './ast.js';
import { groupAccepts, rowOf, type ModifierGroup } from './opcodes.js';

const hex = (v: bigint, digits: number): string => v.toString(16).toUpperCase().padStart(digits, '0');
const space = (s: SpaceRef): string => (s.qualifier ? `${s.space}::${s.qualifier}` : s.space);

export function printOperand(o: Operand): string {
  switch (o.kind) {
    case 'register':
      return o.selector ? `${o.name}.${o.selector}` : o.component !== undefined ? `${o.name}.${'xyzw'[o.component]}` : o.name;
    case 'special':
      return `%${o.name}${o.index ?? ''}${o.component ? '.' + o.component : ''}`;
    case 'integer':
      return o.value.toString();
    case 'float':
      return o.width === 32 ? `0f${hex(o.bits, 8)}` : `0d${hex(o.bits, 16)}`;
    case 'symbol':
      return o.name;
    case 'address': {
      const off = o.offset === 0n ? '' : `+${o.offset}`; // `[%rd1+-4]`, as nvcc writes it
      return `[${printOperand(o.base)}${off}]`;
    }
    case 'vector': {
      const inner = o.elements.map(printOperand).join(', ');
      const last = o.elements[o.elements.length - 1];
      if (last?.kind === 'vector') return `[${printBracketHead(o.elements[0])}${inner.slice(inner.indexOf(','))}]`;
      return o.predicate ? `{${inner}}|${o.predicate.name}` : `{${inner}}`;
    }
    case 'sink':
      return '_';
    case 'negated':
      return `!${o.operand.name}`;
    case 'pair':
      return `${printOperand(o.first)}|${printOperand(o.second)}`;
    case 'expression':
      return printExpression(o.op, o.args);
  }
}

/** The head of a bracket list `[tex+4, {x}]` prints without its own brackets. */
function printBracketHead(o: Operand | undefined): string {
  if (!o) return '';
  if (o.kind !== 'address') return printOperand(o);
  return printOperand(o).slice(1, -1);
}

function printExpression(op: string, args: readonly Operand[]): string {
  const [a, b] = args.map(printOperand);
  if (op === 'generic') return `generic(${a})`;
  if (op === 'index') {
    // a register index plus or minus a constant prints bare: `a[%r1-1]` (parser-operand.ts)
    const i = args[1];
    const [r, k] = i?.kind === 'expression' && i.args[0]?.kind === 'register' ? i.args.map(printOperand) : [];
    return r !== undefined && k !== undefined ? `${a}[${r}${i?.kind === 'expression' ? i.op : ''}${k}]` : `${a}[${b}]`;
  }
  if (op === 'neg') return args[0]?.kind === 'register' ? `-${a}` : `-(${a})`;
  if (args.length === 1) return `${op}(${a})`;
  return `(${a} ${op} ${b})`;
}

function encode(field: string, value: unknown, group: ModifierGroup): string {
  if (value === true) return group.words[0] ?? field;
  if (field === 'space') return space(value as SpaceRef);
  if (field === 'vector') return `v${String(value)}`;
  if (field === 'count') return `x${String(value)}`;
  return String(value);
}

/** `.rn.ftz.f32`: the modifiers in the row's group order. */
export function printModifiers(opcode: string, m: Modifiers): string {
  const row = rowOf(opcode, m.mode);
  if (!row) return [...(m.mode ? [m.mode] : []), ...m.types].map((w) => '.' + w).join('');
  const out: string[] = row.mode !== undefined ? [row.mode] : [];
  const done = new Set<string>();
  const used = new Map<string, Set<number>>();
  const fields = m as unknown as Record<string, unknown>;
  for (const g of row.groups) {
    const value = fields[g.field];
    if (value === undefined || (g.field === 'mode' && row.mode !== undefined)) continue;
    if (Array.isArray(value)) {
      const taken = used.get(g.field) ?? new Set<number>();
      used.set(g.field, taken);
      value.forEach((w: string, i) => {
        if (!taken.has(i) && (g.field === 'types' || groupAccepts(g, w))) {
          taken.add(i);
          out.push(w);
        }
      });
    } else if (!done.has(g.field) && value !== false) {
      const w = encode(g.field, value, g);
      if (groupAccepts(g, w)) {
        done.add(g.field);
        out.push(w);
      }
    }
  }
  return out.map((w) => '.' + w).join('');
}

function printCallOperands(ops: readonly Operand[]): string {
  const [rets, target, params, proto] = ops;
  const list = (o: Operand | undefined): string =>
    o?.kind === 'vector' ? `(${o.elements.map(printOperand).join(', ')})` : o ? printOperand(o) : '()';
  const parts: string[] = [];
  if (rets?.kind === 'vector' && rets.elements.length > 0) parts.push(list(rets));
  if (target) parts.push(printOperand(target));
  if ((params?.kind === 'vector' && params.elements.length > 0) || proto) parts.push(list(params));
  if (proto) parts.push(printOperand(proto));
  return parts.join(', ');
}

export function printInstruction(i: Instruction): string {
  const guard = i.guard ? `@${i.guard.negated ? '!' : ''}${i.guard.register.name} ` : '';
  const ops = i.opcode === 'call' ? printCallOperands(i.operands) : i.operands.map(printOperand).join(', ');
  return `${guard}${i.opcode}${printModifiers(i.opcode, i.modifiers)}${ops ? ' ' + ops : ''};`;
}

function printInitializer(init: Initializer): string {
  if (init.kind === 'value') return printOperand(init.value);
  return `{${init.elements.map(printInitializer).join(', ')}}`;
}

/** A declaration without its `;` (parameters have none). */
export function printVariable(v: VariableDeclaration): string {
  const words: string[] = [];
  if (v.linkage) words.push('.' + v.linkage);
  words.push('.' + space(v.space));
  if (v.align !== undefined) words.push(`.align ${v.align}`);
  if (v.vector) words.push(`.v${v.vector}`);
  words.push('.' + (v.opaque ?? v.type));
  if (v.pointer) {
    words.push('.ptr');
    if (v.pointer.space) words.push('.' + v.pointer.space);
    if (v.pointer.align !== undefined) words.push(`.align ${v.pointer.align}`);
  }
  let name = v.name;
  if (v.parameterizedCount !== undefined) name += `<${v.parameterizedCount}>`;
  for (const d of v.arrayDims ?? []) name += `[${d ?? ''}]`;
  if (v.initializer) name += ` = ${printInitializer(v.initializer)}`;
  if (v.fields) name += ` = { ${v.fields.map((f) => `${f.name} = ${f.value}`).join(', ')} }`;
  return `${words.join(' ')} ${name}`;
}

function printStatement(s: Statement, indent: string): string {
  switch (s.kind) {
    case 'instruction':
      return indent + printInstruction(s);
    case 'label':
      return `${s.name}:`;
    case 'variable':
      return `${indent}${printVariable(s)};`;
    case 'scope':
      return `${indent}{\n${printBody(s.body, indent + '\t')}\n${indent}}`;
    case 'directive':
      return indent + printDirective(s);
    case 'targets':
      return `${s.label}: .${s.directive} ${s.targets.join(', ')};`;
    case 'callprototype': {
      const rets = s.returns.length ? `(${s.returns.map(printVariable).join(', ')}) ` : '';
      return `${s.label}: .callprototype ${rets}_ (${s.params.map(printVariable).join(', ')});`;
    }
  }
}

function printBody(body: readonly Statement[], indent: string): string {
  return body.map((s) => printStatement(s, indent)).join('\n');
}

function printDirective(d: { name: string; args: readonly Operand[]; text?: string }): string {
  if (d.name === 'section') return `.section ${d.args.map(printOperand).join(' ')}\n{${d.text ?? ''}}`;
  if (d.name === 'pragma') return `.pragma ${d.text ?? ''};`;
  return `.${d.name}${d.text ? ' ' + d.text : ''}`;
}

function printPerformance(p: PerformanceDirectives): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(p)) {
    if (k === 'pragmas') for (const t of v as string[]) out.push(`.pragma ${t};`);
    else if (Array.isArray(v)) out.push(`.${k} ${v.join(', ')}`);
    else if (v === true) out.push(`.${k}`);
    else out.push(`.${k} ${String(v)}`);
  }
  return out.map((l) => l + '\n').join('');
}

export function printFunction(f: FunctionDeclaration): string {
  const head = `${f.linkage ? '.' + f.linkage + ' ' : ''}${f.isEntry ? '.entry' : '.func'} `;
  const rets = f.returns.length ? `(${f.returns.map(printVariable).join(', ')}) ` : '';
  const params = f.params.map((p) => '\t' + printVariable(p)).join(',\n');
  const sig = `${head}${rets}${f.name}(\n${params}\n)\n${printPerformance(f.directives)}`;
  if (!f.body) return `${sig};`;
  return `${sig}{\n${printBody(f.body, '\t')}\n}`;
}

function printItem(item: ModuleItem): string {
  switch (item.kind) {
    case 'function':
      return printFunction(item);
    case 'variable':
      return `${printVariable(item)};`;
    case 'file':
      return `.file ${item.index} "${item.path}"`;
    case 'directive':
      return printDirective(item);
  }
}

/** The whole module as PTX text. */
export function printPtx(m: Module): string {
  const header = `.version ${m.version.major}.${m.version.minor}\n.target ${m.target.join(', ')}\n.address_size ${m.addressSize}\n`;
  return `${header}\n${m.items.map(printItem).join('\n\n')}\n`;
}
