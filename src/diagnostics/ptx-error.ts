import { renderDiagnostic, type Diagnostic } from './diagnostic.js';
import type { SourceFile } from './source.js';

/** What every user-facing failure throws: one or more rendered diagnostics. */
export class PtxError extends Error {
  override readonly name = 'PtxError';
  readonly diagnostics: readonly Diagnostic[];
  /** The diagnostics with file, line, column and code frame, one block each. */
  readonly rendered: readonly string[];

  constructor(diagnostics: readonly Diagnostic[], source?: SourceFile) {
    const rendered = diagnostics.map((d) => renderDiagnostic(d, source));
    super(rendered.join('\n\n'));
    this.diagnostics = diagnostics;
    this.rendered = rendered;
  }
}

/** Internal compiler bugs: never a user's fault, so they say so. */
export function invariant(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(`ptx-wgsl internal error: ${message} (please report this with the PTX input)`);
}
