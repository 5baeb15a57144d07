/**
 * The pass interface: each pass is a small function IR -> IR with a stated contract at
 * the top of its file (what it expects, what it guarantees, what it does not do).
 */
import type { Diagnostic } from '../src/diagnostics/diagnostic.js';
import type { IrFunction, IrModule } from '../src/ir/function.js';
import type { CompileOptions } from '../src/compile-types.js';

export interface PassContext {
  readonly module: IrModule;
  readonly options: CompileOptions;
  readonly diagnostics: Diagnostic[];
}

export interface Pass {
  readonly name: string;
  run(fn: IrFunction, cx: PassContext): void;
}

/**
 * Generic-address tags in the high word: allocation ids handed out by the runtime stay below them.
 * `param` tags a kernel parameter's generic address (`cvta.param`), which generic loads whose
 * provenance address-spaces.ts traces read from the launch uniform.
 */
export const GENERIC_TAG = { shared: 0xfffffff0, local: 0xfffffff1, const: 0xfffffff2, param: 0xfffffff5 } as const;
