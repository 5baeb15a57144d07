/**
 * The matrix path of each kernel (lowering/matrix-path.ts), chosen on the PTX before
 * translation because wmma is lowered while the IR is built: the tensor-core path needs the
 * fragment plan (wmma-fragment-flow.ts) and a device that offers the kernel's shapes.
 */
import type * as Ast from '../ptx/ast.js';
import type { CompileOptions, SubgroupMatrixConfig } from '../compile-types.js';
import { fragmentFlow } from './wmma-fragment-flow.js';
import type { FragmentPlan, MatrixShape } from './wmma-fragment-plan.js';

/** layout.matrix (lowering/matrix-path.ts's MatrixReport, which the frontend does not import). */
export interface MatrixReport { readonly path: 'tensor-core' | 'portable'; readonly reason: string }

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

const describe = (s: MatrixShape): string => `${s.input}->${s.result} ${s.m}x${s.n}x${s.k}`;

/** The device side of the choice: the reason the portable path is taken, or undefined. */
function deviceRefusal(options: CompileOptions, shapes: readonly MatrixShape[]): string | undefined {
  if (options.matrixPath === 'portable') return 'forced by the matrixPath option';
  if (options.matrixPath === 'tensor-core') return undefined;
  const configs = options.subgroupMatrixConfigs;
  if (!configs || configs.length === 0) return 'the device offers no subgroup matrices (chromium-experimental-subgroup-matrix; see the README for Dawn\'s flags)';
  if (options.warpPath === 'emulated') return 'the warp path is emulated: a warp is not one subgroup';
  if (options.subgroupSize !== 32) return options.subgroupSize === undefined ? 'the device has no subgroups of a known, fixed size' : `the device's subgroups have ${options.subgroupSize} lanes, not 32`;
  if (options.pinSubgroupSize === true) return 'the device runs 32-lane subgroups only when pinned, which subgroup matrices do not take';
  const missing = shapes.find((s) => !configs.some((c) => offers(c, s)));
  return missing ? `the device has no subgroup-matrix configuration ${describe(missing)}` : undefined;
}

function offers(c: SubgroupMatrixConfig, s: MatrixShape): boolean {
  return c.M === s.m && c.N === s.n && c.K === s.k && c.componentType === s.input && c.resultComponentType === s.result;
}

function tensorCoreReason(shapes: readonly MatrixShape[], forced: boolean): string {
  const list = [...new Set(shapes.map(describe))].join(', ');
  return forced ? `forced by the matrixPath option (${list})` : `the device offers subgroup matrices ${list} and every fragment flows only between wmma instructions`;
}
