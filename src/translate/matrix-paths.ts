/**
 * The matrix path of each kernel (lowering/matrix-path.ts), chosen on the PTX before
 * translation because wmma is lowered while the IR is built: the tensor-core path needs the
 * fragment plan (wmma-fragment-flow.ts) and a device that offers the kernel's shapes.
 */
import type * as Ast from '../ptx/ast.js';
import type { CompileOptions, SubgroupMatrixConfig } from '../compile-types.js';
import { fragmentFlow } from './wmma-fragment-flow.js';
import { stagedShape } from './mma-tensor-core.js';
import { instructionName } from './handler.js';
import type { FragmentPlan, MatrixShape } from './wmma-fragment-plan.js';

/** layout.matrix (lowering/matrix-path.ts's MatrixReport, which the frontend does not import). */
export interface MatrixReport { readonly path: 'tensor-core' | 'portable'; readonly reason: string }

export interface MatrixPaths {
  /** Entries that take the tensor-core path. */
  readonly plans: ReadonlyMap<string, FragmentPlan>;
  /** Entries whose mma takes the tensor-core path (mma-tensor-core.ts). */
  readonly staged: ReadonlySet<string>;
  /** The report of every entry with matrix instructions. */
  readonly reports: ReadonlyMap<string, MatrixReport>;
}

const MATRIX_OPCODES: ReadonlySet<string> = new Set(['wmma', 'mma', 'ldmatrix', 'stmatrix', 'movmatrix']);

function instructionsOf(body: readonly Ast.Statement[], opcode: string, out: Ast.Instruction[] = []): Ast.Instruction[] {
  for (const st of body) {
    if (st.kind === 'instruction' && st.opcode === opcode) out.push(st);
    else if (st.kind === 'scope') instructionsOf(st.body, opcode, out);
  }
  return out;
}

function uses(body: readonly Ast.Statement[], opcodes: ReadonlySet<string>): boolean {
  return body.some((st) => (st.kind === 'instruction' && opcodes.has(st.opcode)) || (st.kind === 'scope' && uses(st.body, opcodes)));
}

export function chooseMatrixPaths(module: Ast.Module, options: CompileOptions, text: string): MatrixPaths {
  const plans = new Map<string, FragmentPlan>();
  const staged = new Set<string>();
  const reports = new Map<string, MatrixReport>();
  const functions = module.items.filter((i): i is Ast.FunctionDeclaration => i.kind === 'function' && !!i.body);
  const wmmaInFuncs = functions.some((f) => !f.isEntry && uses(f.body ?? [], new Set(['wmma'])));
  const mmaInFuncs = functions.some((f) => !f.isEntry && uses(f.body ?? [], new Set(['mma'])));
  for (const decl of functions) {
    if (!decl.isEntry || !uses(decl.body ?? [], MATRIX_OPCODES)) continue;
    const portable = (reason: string): void => { reports.set(decl.name, { path: 'portable', reason }); };
    const wmma = uses(decl.body ?? [], new Set(['wmma']));
    const mmas = instructionsOf(decl.body ?? [], 'mma');
    if (wmma && mmas.length > 0) { portable('the kernel uses both wmma and mma'); continue; }
    if (!wmma) {
      if (mmas.length === 0) { portable('ldmatrix/stmatrix/movmatrix alone move registers: nothing for tensor cores'); continue; }
      const shapes = mmas.map(stagedShape);
      const at = shapes.findIndex((s) => typeof s === 'string');
      if (at >= 0) { portable(`\`${instructionName(mmas[at] as Ast.Instruction, text)}\` has no tensor-core lowering: ${shapes[at] as string}`); continue; }
      if (mmaInFuncs) { portable('a .func of the module uses mma: its calls would need the staging area'); continue; }
      const refusal = deviceRefusal(options, shapes as MatrixShape[]);
      if (refusal) { portable(refusal); continue; }
      staged.add(decl.name);
      const list = [...new Set((shapes as MatrixShape[]).map(describe))].join(', ');
      reports.set(decl.name, { path: 'tensor-core', reason: options.matrixPath === 'tensor-core' ? `forced by the matrixPath option (${list})` : `the device offers subgroup matrices ${list}; mma fragments are staged through workgroup memory` });
      continue;
    }
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
  return { plans, staged, reports };
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
