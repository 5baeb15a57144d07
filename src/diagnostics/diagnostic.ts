import type { SourceFile } from './source.js';
import type { Span } from './span.js';

export type Severity = 'error' | 'warning' | 'note';

/**
 * Stable codes, so tests and tools can match on them rather than on message text.
 * P = parse, S = semantic check of the AST, L = lowering, R = runtime.
 */
export const DiagnosticCode = {
  LexInvalidCharacter: 'P001',
  ParseExpected: 'P002',
  ParseUnknownDirective: 'P003',
  ParseUnknownOpcode: 'P004',
  ParseBadModifier: 'P005',
  ParseBadOperand: 'P006',
  ParseBadLiteral: 'P007',
  ParseUnterminated: 'P008',
  SemaUndefinedRegister: 'S001',
  SemaUndefinedSymbol: 'S002',
  SemaUndefinedLabel: 'S003',
  SemaDuplicate: 'S004',
  SemaTypeMismatch: 'S005',
  SemaNoEntry: 'S006',
  SemaOperandCount: 'S007',
  LowerUnsupportedInstruction: 'L001',
  LowerUnsupportedFeature: 'L002',
  LowerRecursion: 'L003',
  LowerLimit: 'L004',
  RuntimeLaunch: 'R001',
  RuntimeArgument: 'R002',
  RuntimeDevice: 'R003',
  RuntimeTrap: 'R004',
} as const;
export type DiagnosticCode = (typeof DiagnosticCode)[keyof typeof DiagnosticCode];

export interface DiagnosticNote {
  readonly message: string;
  readonly span?: Span;
}

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  /** Absent only for errors that belong to no place in the source (e.g. a launch argument). */
  readonly span?: Span;
  readonly notes?: readonly DiagnosticNote[];
}

/**
 * Renders `file:line:col: error[P002]: message`, the source line and a caret,
 * in the style of rustc and naga.
 */
export function renderDiagnostic(d: Diagnostic, source?: SourceFile): string {
  const head = `${d.severity}[${d.code}]: ${d.message}`;
  if (!source || !d.span) return source ? `${source.name}: ${head}` : head;
  const { line, column } = source.position(d.span.start);
  const text = source.lineText(line);
  const gutter = String(line).length;
  const pad = ' '.repeat(gutter);
  const width = Math.max(1, Math.min(d.span.end - d.span.start, text.length - column + 1));
  const caretLine = ' '.repeat(Math.max(0, column - 1)) + '^'.repeat(width);
  const out = [
    `${source.name}:${line}:${column}: ${head}`,
    `${pad} |`,
    `${line} | ${text}`,
    `${pad} | ${caretLine}`,
  ];
  for (const n of d.notes ?? []) {
    if (n.span) {
      const p = source.position(n.span.start);
      out.push(`${pad} = note: ${n.message} (${source.name}:${p.line}:${p.column})`);
    } else out.push(`${pad} = note: ${n.message}`);
  }
  return out.join('\n');
}
