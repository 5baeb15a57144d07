/**
 * Listing a module's `.entry` names without compiling it, so the default entry can be chosen
 * (and several entries reported) even when another entry would fail to compile.
 */

/** Removes comments and string literals, which could contain the text `.entry`. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"/g, ' ');
}

/** PTX identifiers: `[a-zA-Z][a-zA-Z0-9_$]*` or `[_$%][a-zA-Z0-9_$]+`. */
const ENTRY = /\.entry\s+([A-Za-z_$%][\w$]*)/g;

/** The `.entry` names in source order. */
export function listEntries(source: string): string[] {
  return [...stripComments(source).matchAll(ENTRY)].map((m) => m[1] ?? '');
}
