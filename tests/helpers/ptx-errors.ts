// The PtxError a compile (or any call) throws, for the diagnostic tests; other errors propagate.
import { compile } from '../../src/compile.js';
import { PtxError } from '../../src/diagnostics/ptx-error.js';

/** The PtxError `f` throws, or null when it returns normally. */
export function ptxErrorOf(f: () => unknown): PtxError | null {
  try {
    f();
  } catch (e) {
    if (e instanceof PtxError) return e;
    throw e;
  }
  return null;
}

/** The PtxError compiling `src` throws, or null when it compiles. */
export function compileErrorOf(src: string, fileName = 'kernel.ptx'): PtxError | null {
  return ptxErrorOf(() => compile(src, { fileName }));
}

/** The PtxError compiling `src` throws; throws itself when `src` compiles. */
export function expectCompileError(src: string, fileName = 'kernel.ptx'): PtxError {
  const e = compileErrorOf(src, fileName);
  if (!e) throw new Error('expected a PtxError');
  return e;
}
