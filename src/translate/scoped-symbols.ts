/**
 * Gives every variable declared inside a function body (`.param` call-sequence variables,
 * `.local` depots, function-scope `.shared`) and every `.func` parameter and return variable
 * a module-unique name, and rewrites the symbol operands that refer to them. nvcc reuses
 * `param0`, `retval0` and `func_retval0` in every call sequence and every function; after
 * renaming, each is its own variable in the module's variable list (and, for `.param`, its
 * own slot in the local window), while inner scopes still shadow outer ones as PTX says.
 * Also replaces the `.branchtargets` name operand of `brx.idx` with the list of labels, and
 * turns a symbol operand that names a `.reg` declared without `%` (`.reg .b8 __$temp1;`, which
 * nvcc's inline asm from cuda_fp4.h writes) into the register operand it is.
 */
import type * as Ast from '../ptx/ast.js';

export interface RenamedFunction {
  readonly body: readonly Ast.Statement[];
  /** `.func` parameters and returns with their unique names (empty for entries). */
  readonly params: readonly Ast.VariableDeclaration[];
  readonly returns: readonly Ast.VariableDeclaration[];
}

export function renameFunctionSymbols(fn: Ast.FunctionDeclaration): RenamedFunction {
  let counter = 0;
  const unique = (name: string): string => `${name}$${fn.name}$${counter++}`;
  const outer = new Map<string, string>();
  const formals = (list: readonly Ast.VariableDeclaration[]): Ast.VariableDeclaration[] =>
    list.map((p) => {
      const name = unique(p.name);
      outer.set(p.name, name);
      return { ...p, name };
    });
  // Entry parameters keep their names: they are the kernel's launch parameters.
  const returns = fn.isEntry ? [] : formals(fn.returns);
  const params = fn.isEntry ? [] : formals(fn.params);

  const tables = new Map<string, Ast.TargetList>();
  const collect = (body: readonly Ast.Statement[]): void => {
    for (const st of body) {
      if (st.kind === 'targets' && st.directive === 'branchtargets') tables.set(st.label, st);
      else if (st.kind === 'scope') collect(st.body);
    }
  };
  collect(fn.body ?? []);
  // `brx.idx %r, table;` names a `.branchtargets` list: the builder reads the labels in place.
  const inlineTable = (st: Ast.Instruction): Ast.Instruction => {
    const t = st.operands[1];
    const table = st.opcode === 'brx' && t?.kind === 'symbol' ? tables.get(t.name) : undefined;
    if (!table || !t) return st;
    const elements = table.targets.map((name): Ast.Operand => ({ kind: 'symbol', name, span: table.span }));
    return { ...st, operands: [st.operands[0] as Ast.Operand, { kind: 'vector', elements, span: t.span }, ...st.operands.slice(2)] };
  };
  const scope = (body: readonly Ast.Statement[], parent: ReadonlyMap<string, string | typeof REGISTER>): Ast.Statement[] => {
    const names = new Map(parent);
    for (const st of body) {
      if (st.kind !== 'variable') continue;
      if (st.space.space !== 'reg') names.set(st.name, unique(st.name));
      else if (!st.name.startsWith('%')) names.set(st.name, REGISTER);
    }
    return body.map((st): Ast.Statement => {
      switch (st.kind) {
        case 'variable': {
          const n = names.get(st.name);
          return st.space.space === 'reg' || typeof n !== 'string' ? st : { ...st, name: n };
        }
        case 'instruction': return inlineTable({ ...st, operands: st.operands.map((o) => renameOperand(o, names)) });
        case 'scope': return { ...st, body: scope(st.body, names) };
        default: return st;
      }
    });
  };
  return { body: scope(fn.body ?? [], outer), params, returns };
}

/** Marks, in the name map, a register whose name has no `%`. */
const REGISTER = Symbol('register');

function renameOperand(op: Ast.Operand, names: ReadonlyMap<string, string | typeof REGISTER>): Ast.Operand {
  switch (op.kind) {
    case 'symbol': {
      const n = names.get(op.name);
      if (n === REGISTER) return { kind: 'register', name: op.name, span: op.span };
      return n === undefined ? op : { ...op, name: n };
    }
    case 'address': return { ...op, base: renameOperand(op.base, names) as Ast.AddressOperand['base'] };
    case 'vector': return { ...op, elements: op.elements.map((e) => renameOperand(e, names)) as typeof op.elements };
    case 'expression': return { ...op, args: op.args.map((a) => renameOperand(a, names)) };
    default: return op;
  }
}
