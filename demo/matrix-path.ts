/**
 * Which path a kernel's warp-level matrix products (`wmma`, `mma`) took, for the page's path
 * report: the layout's `matrix` report where the compiler gives one (wmma kernels: portable or
 * tensor cores), else, for kernels with mma, the portable path (whole-warp shuffles and arithmetic
 * in translation: src/translate/handlers-mma.ts).
 */
import { parsePtx, type CompiledKernel } from '../src/index.js';

type Module = ReturnType<typeof parsePtx>;
type PtxFunction = Extract<Module['items'][number], { kind: 'function' }>;
type Statement = NonNullable<PtxFunction['body']>[number];

const MATRIX_OPCODES: ReadonlySet<string> = new Set(['wmma', 'mma']);

export interface MatrixPath {
  readonly path: string;
  readonly reason: string;
}

/** The matrix path of `kernel` (compiled from `ptx`), or undefined when it has no matrix products. */
export function matrixPath(ptx: string, kernel: CompiledKernel): MatrixPath | undefined {
  const reported = reportOf((kernel.layout as { readonly matrix?: unknown }).matrix);
  if (reported) return reported;
  if (!usesMatrixProducts(parsePtx(ptx), kernel.layout.entry)) return undefined;
  return { path: 'portable (warp shuffles)', reason: 'each wmma/mma is whole-warp shuffles and f32 arithmetic, on any WebGPU' };
}

/** A layout's `matrix` report, a path name or `{ path, reason? }`. */
function reportOf(m: unknown): MatrixPath | undefined {
  if (typeof m === 'string') return { path: m, reason: '' };
  if (typeof m !== 'object' || m === null) return undefined;
  const { path, reason } = m as { path?: unknown; reason?: unknown };
  return typeof path === 'string' ? { path: PATH_NAMES[path] ?? path, reason: typeof reason === 'string' ? reason : '' } : undefined;
}

/** The page's names for the compiler's matrix paths (KernelLayout.matrix). */
const PATH_NAMES: Readonly<Record<string, string>> = { portable: 'portable (warp shuffles)', 'tensor-core': 'tensor cores (subgroup matrices)' };

/** Whether the entry, or a function it calls directly or through others, has a wmma or mma. */
function usesMatrixProducts(module: Module, entry: string): boolean {
  const functions = new Map(module.items.flatMap((it) => (it.kind === 'function' && it.body ? [[it.name, it.body] as const] : [])));
  const seen = new Set<string>();
  const visit = (name: string): boolean => {
    const body = functions.get(name);
    if (!body || seen.has(name)) return false;
    seen.add(name);
    return body.some((st) => statementUses(st, visit));
  };
  return visit(entry);
}

function statementUses(st: Statement, visit: (callee: string) => boolean): boolean {
  if (st.kind === 'scope') return st.body.some((s) => statementUses(s, visit));
  if (st.kind !== 'instruction') return false;
  if (MATRIX_OPCODES.has(st.opcode)) return true;
  return st.opcode === 'call' && st.operands.some((op) => op.kind === 'symbol' && visit(op.name));
}
