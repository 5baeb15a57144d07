/**
 * A PTX source text with lazily computed line starts, so spans stay plain byte
 * offsets until someone needs a line and column (AssemblyScript `Source.lineAt`).
 */
export class SourceFile {
  private lineStarts: number[] | undefined;

  constructor(readonly name: string, readonly text: string) {}

  /** 1-based line and column of a character offset. */
  position(offset: number): { line: number; column: number } {
    const starts = this.starts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
  }

  /** The text of a 1-based line, without its line terminator. */
  lineText(line: number): string {
    const starts = this.starts();
    const start = starts[line - 1] ?? this.text.length;
    let end = starts[line] ?? this.text.length;
    while (end > start && (this.text[end - 1] === '\n' || this.text[end - 1] === '\r')) end--;
    return this.text.slice(start, end);
  }

  private starts(): number[] {
    if (this.lineStarts) return this.lineStarts;
    const starts = [0];
    const t = this.text;
    for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) === 10) starts.push(i + 1);
    this.lineStarts = starts;
    return starts;
  }
}
