// The carry-matrices pass (lowering/carry-matrices.ts) on small mma.sync m16n8k16 loops written
// here, compiled for a device with f16 16x8x16 subgroup matrices: where the loop only multiplies
// into its accumulators, the loop body neither stages C nor unstages D, the header carries a
// matrix, and D is unstaged once after the loop; where the loop reads the accumulators itself
// (a ReLU each iteration, a running sum) or leaves through two exits, the staging stays. The IR
// verifier runs after every pass here (tests/setup/verify-ir.ts). Results on tensor cores are the
// device tests' (tests/matrix/tensor-core-kernels-device.gpu.test.ts and this file's kernels in
// tests/matrix/carry-matrices-device.gpu.test.ts).
import { describe, expect, it } from 'vitest';
import { SourceFile } from '../../src/diagnostics/source.js';
import { parsePtx } from '../../src/ptx/parse.js';
import { buildModule } from '../../src/translate/build-module.js';
import { chooseMatrixPaths } from '../../src/translate/matrix-paths.js';
import { chooseWarpPath } from '../../lowering/warp-path.js';
import { runPasses } from '../../src/pipeline.js';
import { compile } from '../../src/compile.js';
import type { CompileOptions } from '../../src/compile-types.js';
import type { BlockId } from '../../src/ir/entities.js';
import type { IrFunction } from '../../src/ir/function.js';
import type { Inst } from '../../src/ir/inst.js';
import { dominates, dominators, predecessors, reversePostorder } from '../../src/ir/cfg.js';
import { typeName } from '../../src/ir/types.js';
import { CARRY_KERNELS, carryPtx } from '../matrix/carry-matrices-cases.js';

const config = (componentType: string, resultComponentType: string, M: number, N: number, K: number) => ({ componentType, resultComponentType, M, N, K });
const OPTIONS: CompileOptions = { subgroupSize: 32, subgroupMatrixConfigs: [config('f16', 'f32', 16, 8, 16), config('f16', 'f16', 16, 8, 16)], warpPath: 'auto' };

/** The kernel's IR after every pass, as compile() runs them. */
function passed(entry: string): IrFunction {
  const ptx = carryPtx();
  const module = parsePtx(ptx, 'carry.ptx');
  const matrix = chooseMatrixPaths(module, OPTIONS, ptx);
  expect(matrix.reports.get(entry)?.path).toBe('tensor-core');
  const ir = buildModule(module, new SourceFile('carry.ptx', ptx), [], entry, matrix.plans, matrix.staged);
  const fn = ir.functions.find((f) => f.name === entry) as IrFunction;
  const warp = chooseWarpPath(fn, OPTIONS);
  runPasses(fn, { module: ir, options: warp.path === 'none' ? OPTIONS : { ...OPTIONS, warpPath: warp.path }, diagnostics: [] });
  return fn;
}

/** The blocks of the loop whose header is labelled LOOP (its natural loop), and the rest. */
function split(fn: IrFunction): { header: BlockId; inLoop: Set<BlockId>; outside: BlockId[] } {
  const rpo = reversePostorder(fn);
  const preds = predecessors(fn);
  const idom = dominators(fn, rpo, preds);
  const header = rpo.find((b) => fn.block(b).label === 'LOOP') as BlockId;
  expect(header).toBeDefined();
  const inLoop = new Set<BlockId>([header]);
  const work = (preds.get(header) ?? []).filter((p) => dominates(idom, header, p));
  expect(work.length).toBeGreaterThan(0);
  while (work.length) {
    const b = work.pop() as BlockId;
    if (inLoop.has(b)) continue;
    inLoop.add(b);
    work.push(...(preds.get(b) ?? []));
  }
  return { header, inLoop, outside: rpo.filter((b) => !inLoop.has(b)) };
}

const insts = (fn: IrFunction, blocks: Iterable<BlockId>): Inst[] => [...blocks].flatMap((b) => fn.block(b).insts.map((id) => fn.inst(id).inst));
const count = (list: readonly Inst[], f: (i: Inst) => boolean): number => list.filter(f).length;
const stageC = (i: Inst): boolean => i.op === 'matrix_stage' && i.fragment === 'c';
const unstage = (i: Inst): boolean => i.op === 'matrix_unstage';
const mma = (i: Inst): boolean => i.op === 'matrix_mma';

describe('carry-matrices: accumulators stay subgroup matrices across the loop', () => {
  it.each([
    // kernel, accumulator matrix type, what enters the loop (fill of zeros or a stage of loaded C)
    ['carry_f32_zero', 'matrix.result.f32.16x8', 'matrix_fill'],
    ['carry_f32_loaded', 'matrix.result.f32.16x8', 'matrix_stage'],
    ['carry_f16_zero', 'matrix.result.f16.16x8', 'matrix_fill'],
    ['carry_b32_guarded', 'matrix.result.f32.16x8', 'matrix_fill'],
    ['carry_f32_top_test', 'matrix.result.f32.16x8', 'matrix_fill'],
    // the inner loop labelled LOOP; "after" includes the outer loop, which carries the matrix too
    ['carry_f32_nested', 'matrix.result.f32.16x8', 'matrix_fill'],
  ] as const)('%s', (entry, type, entering) => {
    const fn = passed(entry);
    const { header, inLoop, outside } = split(fn);
    const body = insts(fn, inLoop);
    const after = insts(fn, outside);
    // the loop multiplies and nothing more goes through workgroup memory for C or D
    expect(count(body, mma)).toBe(1);
    expect(count(body, stageC)).toBe(0);
    expect(count(body, unstage)).toBe(0);
    // the header carries the matrix instead of the four (two) registers
    const params = fn.block(header).params.map((p) => typeName(fn.typeOf(p)));
    expect(params.filter((t) => t === type)).toHaveLength(1);
    expect(params.filter((t) => t === 'f32')).toHaveLength(0);
    // one initial matrix before the loop, one unstage after it for the epilogue's stores
    expect(count(after, (i) => i.op === entering && (i.op !== 'matrix_stage' || i.fragment === 'c'))).toBe(1);
    expect(count(after, unstage)).toBe(1);
    expect(count(after, stageC)).toBe(entering === 'matrix_stage' ? 1 : 0);
  });

  it.each([
    ['keep_relu', 'a ReLU of D each iteration feeds the next C'],
    ['keep_running_sum', 'the loop adds an accumulator element to a running sum'],
    ['keep_two_exits', 'the loop leaves through two exit edges'],
  ])('leaves %s alone (%s)', (entry) => {
    const fn = passed(entry);
    const { header, inLoop } = split(fn);
    const body = insts(fn, inLoop);
    expect(count(body, mma)).toBe(1);
    expect(count(body, stageC)).toBe(1);
    expect(count(body, unstage)).toBe(1);
    expect(fn.block(header).params.some((p) => fn.typeOf(p).kind === 'matrix')).toBe(false);
  });

  it('every kernel of the file compiles to WGSL on the tensor-core path', () => {
    for (const k of compile(carryPtx(), { ...OPTIONS, fileName: 'carry.ptx' }).kernels) {
      expect(k.layout.matrix?.path).toBe('tensor-core');
      expect(k.wgsl).toContain('subgroupMatrixMultiplyAccumulate(');
    }
    expect(CARRY_KERNELS.length).toBe(9);
  });
});
