/** A half-open range of character offsets into one SourceFile. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export const NO_SPAN: Span = { start: 0, end: 0 };

export function joinSpans(a: Span, b: Span): Span {
  return { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
}
