/**
 * AST module -> IR module: lays out kernel parameters as PTX's `.param` space does,
 * collects variables that live in memory windows (shared, local, const, global) with
 * their sizes and initial bytes, and builds each function's SSA body: the kernels (all, or
 * `only`) and every `.func` with a body, which lowering/inline-calls.ts inlines at its calls.
 * `.param` variables of `.func`s and of call sequences live in the local window under
 * module-unique names (scoped-symbols.ts), so a call passes its arguments through memory
 * that the inliner then shares between caller and callee.
 */
import { RESERVED_SMEM_BYTES, RESERVED_SMEM_SYMBOL } from './special-registers.js';
import type * as Ast from '../ptx/ast.js';
import { DiagnosticCode, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../diagnostics/source.js';
import type { IrModule, KernelParam, MemoryVariable } from '../ir/function.js';
import type { MemorySpace } from '../ir/inst.js';
import { buildFunction } from './build-function.js';
import type { ModuleSymbols } from './context.js';
import { sizeOf } from './ptx-types.js';
import { initialBytes } from './initializers.js';
import { renameFunctionSymbols } from './scoped-symbols.js';
import { calleeIndex, callTargetsOf, candidates, functionTable, targetsLabel, type FunctionTable } from './function-pointers.js';
import { STACK_BYTES, STACK_DEPTH_SYMBOL, STACK_MIN_ALIGN, STACK_OPCODES, STACK_SYMBOL } from './handlers-stack.js';
import type { IrFunction } from '../ir/function.js';
import type { ValueId } from '../ir/entities.js';
import type { Span } from '../diagnostics/span.js';
import * as T from '../ir/types.js';
import { paramType } from './vocabulary.js';
import type { FragmentPlan } from './wmma-fragment-plan.js';

/** `fragments`: the entries whose wmma takes the tensor-core path, with their fragment plans; `mmaTensorCores`: those whose mma does. */
export function buildModule(ast: Ast.Module, source: SourceFile, diagnostics: Diagnostic[], only?: string, fragments?: ReadonlyMap<string, FragmentPlan>, mmaTensorCores?: ReadonlySet<string>): IrModule {
  const functions = functionTable(ast);
  const { variables, spaces } = moduleVariables(ast, diagnostics, functions);
  const module: IrModule = { source, addressSize: ast.addressSize, functions: [], variables };
  const reachable = calledFunctions(ast, only, functions);
  const built = ast.items.filter((item): item is Ast.FunctionDeclaration & { body: readonly Ast.Statement[] } =>
    item.kind === 'function' && !!item.body && (item.isEntry ? only === undefined || item.name === only : reachable.has(item.name)));
  const stackUsers = declareStack(built, variables, spaces, diagnostics);
  if (source.text.includes('%reserved_smem_offset_')) {
    variables.push({ name: RESERVED_SMEM_SYMBOL, space: 'shared', size: RESERVED_SMEM_BYTES, align: 16, dynamic: false });
    spaces.set(RESERVED_SMEM_SYMBOL, 'shared');
  }
  for (const item of built) {
    if (item.isEntry) checkClusterShape(item, diagnostics);
    const renamed = renameFunctionSymbols(item);
    const fnSpaces = new Map(spaces);
    for (const p of [...renamed.returns, ...renamed.params]) addVariable({ ...p, space: { ...p.space, space: 'local' } }, variables, fnSpaces, diagnostics);
    collectFunctionVariables(renamed.body, variables, fnSpaces, diagnostics);
    const params = item.isEntry ? layoutParams(item.params) : [];
    const symbols: ModuleSymbols = {
      addressSize: ast.addressSize,
      text: source.text,
      kernelParams: new Map(params.map((p, i) => [p.name, i])),
      variables: fnSpaces,
      elementBytes: elementSizes(ast, renamed.body),
      functions,
      ...(item.isEntry && fragments?.has(item.name) ? { fragments: fragments.get(item.name) as FragmentPlan } : {}),
      ...(item.isEntry && mmaTensorCores?.has(item.name) ? { mmaTensorCores: true } : {}),
    };
    const fn = buildFunction({ ...item, body: renamed.body }, params, symbols, diagnostics);
    if (!item.isEntry) fn.formals = { params: renamed.params.map((p) => p.name), returns: renamed.returns.map((p) => p.name) };
    if (!item.isEntry && stackUsers.has(item.name)) releaseStackOnReturn(fn, item.span);
    module.functions.push(fn);
  }
  return module;
}

/** Element sizes of the variables a function sees (the module's, then its own), for `a[i]` operands. */
function elementSizes(ast: Ast.Module, body: readonly Ast.Statement[]): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (list: readonly (Ast.Statement | Ast.ModuleItem)[]): void => {
    for (const st of list) {
      if (st.kind === 'variable' && st.space.space !== 'reg') out.set(st.name, sizeOf(st.type) * (st.vector ?? 1));
      else if (st.kind === 'scope') visit(st.body);
    }
  };
  visit(ast.items);
  visit(body);
  return out;
}

/**
 * Kernels run in clusters of one CTA (the cluster special registers say so, `mapa` to another
 * rank traps): a kernel that requires a larger cluster would run silently wrong, so it is an
 * error. `.maxclusterrank` is an upper bound, which one CTA meets.
 */
function checkClusterShape(item: Ast.FunctionDeclaration, diagnostics: Diagnostic[]): void {
  const dims = item.directives.reqnctapercluster;
  const ctas = dims?.reduce((a, b) => a * b, 1) ?? 1;
  if (ctas <= 1) return;
  diagnostics.push({
    code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span: item.span,
    message: `kernel \`${item.name}\` requires clusters of ${ctas} CTAs (.reqnctapercluster ${dims?.join(', ')}); clusters of more than one CTA are not supported (kernels run in clusters of one CTA)`,
  });
}

/**
 * The module-scope variables, in declaration order: the first of `IrModule.variables`, so their
 * layout (lowering/module-memory.ts) is the same for every kernel and for the host's view of
 * them (runtime/module.ts, getGlobal).
 */
export function moduleVariables(ast: Ast.Module, diagnostics: Diagnostic[], functions = functionTable(ast)): { variables: MemoryVariable[]; spaces: Map<string, MemorySpace> } {
  const variables: MemoryVariable[] = [];
  const spaces = new Map<string, MemorySpace>();
  for (const item of ast.items) {
    if (item.kind === 'variable') addVariable(item, variables, spaces, diagnostics, functions.addresses);
  }
  return { variables, spaces };
}

/**
 * The alloca stack (handlers-stack.ts) of a module whose built functions use alloca,
 * stacksave or stackrestore: two module-wide `.local` variables, the stack aligned to the
 * largest immAlign. Returns the names of the functions that use them.
 */
function declareStack(functions: readonly Ast.FunctionDeclaration[], out: MemoryVariable[], spaces: Map<string, MemorySpace>, diags: Diagnostic[]): Set<string> {
  const users = new Set<string>();
  let align = STACK_MIN_ALIGN;
  const visit = (fn: string, body: readonly Ast.Statement[]): void => {
    for (const st of body) {
      if (st.kind === 'scope') { visit(fn, st.body); continue; }
      if (st.kind !== 'instruction' || !STACK_OPCODES.has(st.opcode)) continue;
      users.add(fn);
      const a = st.opcode === 'alloca' ? st.operands[2] : undefined;
      if (!a) continue;
      const value = a.kind === 'integer' ? Number(a.value) : NaN;
      if (!Number.isInteger(value) || value < 1 || (value & (value - 1)) !== 0 || value > 1 << 23) {
        diags.push({ code: DiagnosticCode.ParseBadOperand, severity: 'error', span: a.span, message: '`alloca` alignment must be a constant power of 2 no larger than 2^23' });
      } else if (value > STACK_BYTES) {
        diags.push({ code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span: a.span, message: `\`alloca\` alignment ${value} is larger than the ${STACK_BYTES}-byte per-thread stack` });
      } else align = Math.max(align, value);
    }
  };
  for (const f of functions) if (f.body) visit(f.name, f.body);
  if (users.size === 0) return users;
  out.push({ name: STACK_SYMBOL, space: 'local', size: STACK_BYTES, align, dynamic: false });
  out.push({ name: STACK_DEPTH_SYMBOL, space: 'local', size: 4, align: 4, dynamic: false });
  spaces.set(STACK_SYMBOL, 'local');
  spaces.set(STACK_DEPTH_SYMBOL, 'local');
  return users;
}

/** A `.func`'s allocations end with it: the stack depth at entry is restored at every `ret`. */
function releaseStackOnReturn(fn: IrFunction, span: Span): void {
  const entry = fn.block(fn.entry);
  const addr = fn.createDetached(fn.entry, { op: 'address_of', type: T.i32, symbol: STACK_DEPTH_SYMBOL, space: 'local' }, span);
  const saved = fn.createDetached(fn.entry, { op: 'load', type: T.i32, space: 'local', address: addr.results[0] as ValueId, region: null }, span);
  entry.insts.unshift(addr.id, saved.id);
  for (const b of fn.blockIds()) {
    if (fn.block(b).term?.op !== 'return') continue;
    fn.append(b, { op: 'store', type: T.i32, space: 'local', address: addr.results[0] as ValueId, region: null, value: saved.results[0] as ValueId }, span, []);
  }
}

/**
 * The `.func`s the built kernels call, directly or through a function pointer (the candidates
 * of each indirect call, function-pointers.ts): only those are built, so a module's unused
 * device functions cannot make its kernels fail to compile.
 */
function calledFunctions(ast: Ast.Module, only: string | undefined, functions: FunctionTable): Set<string> {
  const bodies = new Map<string, readonly Ast.Statement[]>();
  for (const item of ast.items) if (item.kind === 'function' && item.body) bodies.set(item.name, item.body);
  const seen = new Set<string>();
  const reach = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const b = bodies.get(name);
    if (b) visit(b, b);
  };
  const visit = (body: readonly Ast.Statement[], whole: readonly Ast.Statement[]): void => {
    for (const st of body) {
      if (st.kind === 'scope') { visit(st.body, whole); continue; }
      if (st.kind !== 'instruction' || st.opcode !== 'call') continue;
      const callee = st.operands[calleeIndex(st)];
      if (callee?.kind === 'symbol') { reach(callee.name); continue; }
      const label = targetsLabel(st);
      const targets = label === undefined ? undefined : callTargetsOf(whole).get(label);
      if (targets) candidates(functions, targets).forEach(reach);
    }
  };
  for (const item of ast.items) {
    if (item.kind === 'function' && item.isEntry && item.body && (only === undefined || item.name === only)) visit(item.body, item.body);
  }
  return seen;
}

/** PTX `.param` layout: each parameter at the next multiple of its alignment. */
export function layoutParams(params: readonly Ast.VariableDeclaration[]): KernelParam[] {
  let offset = 0;
  return params.map((p) => {
    const elem = sizeOf(p.type) * (p.vector ?? 1);
    const count = (p.arrayDims ?? []).reduce<number>((n, d) => n * (d ?? 0), 1);
    const align = p.align ?? elem;
    offset = alignTo(offset, align);
    const param: KernelParam = {
      name: p.name, ptxType: paramType(p.type), offset, size: elem * count, align,
      ...(p.arrayDims ? { arrayLength: count } : {}),
    };
    offset += elem * count;
    return param;
  });
}

export function alignTo(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

function collectFunctionVariables(body: readonly Ast.Statement[], out: MemoryVariable[], spaces: Map<string, MemorySpace>, diags: Diagnostic[]): void {
  for (const st of body) {
    if (st.kind === 'variable' && st.space.space === 'param') addVariable({ ...st, space: { ...st.space, space: 'local' } }, out, spaces, diags);
    else if (st.kind === 'variable' && st.space.space !== 'reg') addVariable(st, out, spaces, diags);
    else if (st.kind === 'scope') collectFunctionVariables(st.body, out, spaces, diags);
  }
}

function addVariable(v: Ast.VariableDeclaration, out: MemoryVariable[], spaces: Map<string, MemorySpace>, diags: Diagnostic[], functions?: ReadonlyMap<string, bigint>): void {
  const space = v.space.space;
  if (space !== 'shared' && space !== 'local' && space !== 'const' && space !== 'global') {
    if (space === 'tex') diags.push({ code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span: v.span, message: `\`.${space}\` variables (textures) are not supported yet` });
    return;
  }
  const elem = sizeOf(v.type) * (v.vector ?? 1);
  const dims = v.arrayDims ?? [];
  const dynamic = dims.some((d) => d === null);
  const count = dims.reduce<number>((n, d) => n * (d ?? 0), 1);
  const init = v.initializer ? initialBytes(v, elem * count, diags, functions) : undefined;
  out.push({
    name: v.name, space, size: dynamic ? 0 : elem * count, align: v.align ?? elem, dynamic,
    ...(init ? { init: init.bytes, relocations: init.relocations } : {}),
  });
  spaces.set(v.name, space);
}
