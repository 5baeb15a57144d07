/**
 * Function pointers (ISA "Labels and Function Names as Operands", `call`'s indirect form).
 *
 * A `.func`'s address (`mov.u64 %rd, fname;`, or a name in a variable's initializer) is a tag:
 * FUNCTION_ADDRESS_TAG in the high word and the function's position among the module's `.func`s
 * plus one in the low word (never 0, so it is never a null pointer; with `.address_size 32` the
 * low word alone). WGSL has no function pointers, so an indirect call
 * `call (r), %rd, (a), proto;` compares %rd with the address of each candidate and calls the one
 * it equals directly (handlers-memory.ts; lowering/inline-calls.ts then inlines it). The
 * candidates of a `.callprototype` are the module's functions whose address is taken and whose
 * parameter and return lists have the prototype's sizes; those of a `.calltargets` list are the
 * functions it names. An address that is none of them traps.
 */
import type * as Ast from '../ptx/ast.js';
import { sizeOf } from './ptx-types.js';

/** Next to the address tags of lowering/pass.ts and lowering/layout.ts; allocation ids stay below. */
export const FUNCTION_ADDRESS_TAG = 0xfffffff4n;

/** The sizes of a parameter list, in bytes, in order. */
type Shape = readonly number[];

export interface FunctionTable {
  /** The address of every `.func` of the module, by name. */
  readonly addresses: ReadonlyMap<string, bigint>;
  /** Names of the `.entry` functions (whose address is for CUDA dynamic parallelism). */
  readonly kernels: ReadonlySet<string>;
  /** The `.func`s whose address is taken, in declaration order, with their parameter and return shapes. */
  readonly addressTaken: readonly { readonly name: string; readonly params: Shape; readonly returns: Shape }[];
}

const shape = (list: readonly Ast.VariableDeclaration[]): Shape =>
  list.map((p) => sizeOf(p.type) * (p.vector ?? 1) * (p.arrayDims ?? []).reduce<number>((n, d) => n * (d ?? 0), 1));

export function functionTable(ast: Ast.Module): FunctionTable {
  const decls = new Map<string, Ast.FunctionDeclaration>();
  const kernels = new Set<string>();
  for (const item of ast.items) {
    if (item.kind !== 'function') continue;
    if (item.isEntry) kernels.add(item.name);
    else if (!decls.has(item.name) || item.body) decls.set(item.name, item);
  }
  const addresses = new Map([...decls.keys()].map((name, i) => [name, (FUNCTION_ADDRESS_TAG << 32n) | BigInt(i + 1)]));
  const taken = new Set<string>();
  const note = (op: Ast.Operand): void => {
    if (op.kind === 'symbol' && decls.has(op.name)) taken.add(op.name);
    else if (op.kind === 'vector') op.elements.forEach(note);
    else if (op.kind === 'expression') op.args.forEach(note);
  };
  const noteInit = (init: Ast.Initializer): void => (init.kind === 'value' ? note(init.value) : init.elements.forEach(noteInit));
  const visit = (body: readonly Ast.Statement[]): void => {
    for (const st of body) {
      if (st.kind === 'scope') visit(st.body);
      else if (st.kind === 'variable' && st.initializer) noteInit(st.initializer);
      else if (st.kind === 'instruction') st.operands.forEach((op, i) => { if (st.opcode !== 'call' || i !== calleeIndex(st)) note(op); });
    }
  };
  // Without `.func`s no address can be taken: most modules skip the walk over every operand.
  for (const item of decls.size === 0 ? [] : ast.items) {
    if (item.kind === 'variable' && item.initializer) noteInit(item.initializer);
    if (item.kind === 'function' && item.body) visit(item.body);
  }
  const addressTaken = [...decls.values()].filter((d) => taken.has(d.name)).map((d) => ({ name: d.name, params: shape(d.params), returns: shape(d.returns) }));
  return { addresses, kernels, addressTaken };
}

/** The operand index of a call's target: the first operand that is not a list. */
export function calleeIndex(call: Ast.Instruction): number {
  return call.operands.findIndex((o) => o.kind !== 'vector');
}

/** What an indirect call may reach: a `.callprototype`'s shape or a `.calltargets` list. */
export type CallTargets = { readonly params: Shape; readonly returns: Shape } | { readonly names: readonly string[] };

/** The `.callprototype` and `.calltargets` statements of a function body, by label. */
export function callTargetsOf(body: readonly Ast.Statement[]): Map<string, CallTargets> {
  const out = new Map<string, CallTargets>();
  const visit = (list: readonly Ast.Statement[]): void => {
    for (const st of list) {
      if (st.kind === 'scope') visit(st.body);
      else if (st.kind === 'callprototype') out.set(st.label, { params: shape(st.params), returns: shape(st.returns) });
      else if (st.kind === 'targets' && st.directive === 'calltargets') out.set(st.label, { names: st.targets });
    }
  };
  visit(body);
  return out;
}

const sameShape = (a: Shape, b: Shape): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** The functions an indirect call with these targets may reach, in declaration order. */
export function candidates(table: FunctionTable, targets: CallTargets): string[] {
  if ('names' in targets) return targets.names.filter((n) => table.addresses.has(n));
  return table.addressTaken.filter((f) => sameShape(f.params, targets.params) && sameShape(f.returns, targets.returns)).map((f) => f.name);
}

/** The label naming an indirect call's prototype or target list: its last operand. */
export function targetsLabel(call: Ast.Instruction): string | undefined {
  const last = call.operands.at(-1);
  return last?.kind === 'symbol' && call.operands.length > calleeIndex(call) + 1 ? last.name : undefined;
}
