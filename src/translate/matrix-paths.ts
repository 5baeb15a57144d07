/**
 * The matrix path of each kernel (lowering/matrix-path.ts), chosen on the PTX before
 * translation because wmma is lowered while the IR is built: the tensor-core path needs the
 * fragment plan (wmma-fragment-flow.ts) and a device that offers the kernel's shapes.
 */
import type * as Ast from '../ptx/ast.js';
import type { CompileOptions } from '../compile-types.js';
import { deviceRefusal, tensorCoreReason, type MatrixReport } from '../../lowering/matrix-path.js';
import { fragmentFlow, type FragmentPlan } from './wmma-fragment-flow.js';

export interface MatrixPaths {
  /** Entries that take the tensor-core path. */
  readonly plans: ReadonlyMap<string, FragmentPlan>;
  /** The report of every entry with matrix instructions. */
  readonly reports: ReadonlyMap<string, MatrixReport>;
}

const MATRIX_OPCODES: ReadonlySet<string> = new Set(['wmma', 'mma', 'ldmatrix', 'stmatrix', 'movmatrix']);

function uses(body: readonly Ast.Statement[], opcodes: ReadonlySet<string>): boolean {
  return body.some((st) => (st.kind === 'instruction' && opcodes.has(st.opcode)) || (st.kind === 'scope' && uses(st.body, opcodes)));
}

export function chooseMatrixPaths(module: Ast.Module, options: CompileOptions, text: string): MatrixPaths {
  const plans = new Map<string, FragmentPlan>();
  const reports = new Map<string, MatrixReport>();
  const functions = module.items.filter((i): i is Ast.FunctionDeclaration => i.kind === 'function' && !!i.body);
  const wmmaInFuncs = functions.some((f) => !f.isEntry && uses(f.body ?? [], new Set(['wmma'])));
  for (const decl of functions) {
    if (!decl.isEntry || !uses(decl.body ?? [], MATRIX_OPCODES)) continue;
    const portable = (reason: string): void => { reports.set(decl.name, { path: 'portable', reason }); };
    if (!uses(decl.body ?? [], new Set(['wmma']))) { portable('only wmma has a tensor-core lowering so far'); continue; }
    if (uses(decl.body ?? [], new Set(['mma', 'ldmatrix', 'stmatrix', 'movmatrix']))) { portable('the kernel also uses mma/ldmatrix/stmatrix/movmatrix, which have no tensor-core lowering yet'); continue; }
    if (wmmaInFuncs) { portable('a .func of the module uses wmma: fragments would cross calls'); continue; }
    const device = deviceRefusal(options, []);
    if (device) { portable(device); continue; }
    const flow = fragmentFlow(decl, text);
    if ('refusal' in flow) { portable(flow.refusal); continue; }
    const refusal = deviceRefusal(options, flow.plan.shapes);
    if (refusal) { portable(refusal); continue; }
    plans.set(decl.name, flow.plan);
    reports.set(decl.name, { path: 'tensor-core', reason: tensorCoreReason(flow.plan.shapes, options.matrixPath === 'tensor-core') });
  }
  return { plans, reports };
}
