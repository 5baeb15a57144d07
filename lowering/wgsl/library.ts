/**
 * Links the hand-written WGSL helper library (shaders/*.wgsl) into a kernel: only the
 * functions the kernel calls, plus the functions those call, in library order.
 */
import { WGSL_LIBRARY } from '../../shaders/library.generated.js';

interface LibraryFunction { readonly name: string; readonly text: string; readonly calls: readonly string[] }

function splitFunctions(source: string): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const re = /^fn\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(/gm;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    let depth = 0;
    let i = source.indexOf('{', m.index);
    for (; i < source.length; i++) {
      if (source[i] === '{') depth++;
      else if (source[i] === '}' && --depth === 0) break;
    }
    out.push({ name: m[1] as string, text: source.slice(m.index, i + 1) });
  }
  return out;
}

function withCalls(fns: readonly { name: string; text: string }[]): LibraryFunction[] {
  const names = new Set(fns.map((f) => f.name));
  return fns.map((f) => ({
    ...f,
    calls: [...f.text.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*\(/g)].map((c) => c[1] as string).filter((n) => n !== f.name && names.has(n)),
  }));
}

const FUNCTIONS: readonly LibraryFunction[] = withCalls(Object.values(WGSL_LIBRARY).flatMap(splitFunctions));
const BY_NAME = new Map(FUNCTIONS.map((f) => [f.name, f]));

export function isLibraryFunction(name: string): boolean {
  return BY_NAME.has(name);
}

/** The WGSL text of `used` and everything they call, in library order. */
export function linkLibrary(used: Iterable<string>): string {
  const needed = new Set<string>();
  const visit = (name: string): void => {
    if (needed.has(name)) return;
    const f = BY_NAME.get(name);
    if (!f) return;
    needed.add(name);
    f.calls.forEach(visit);
  };
  for (const u of used) visit(u);
  return FUNCTIONS.filter((f) => needed.has(f.name)).map((f) => f.text).join('\n\n');
}

/** A kernel's linked library: its text and its line count (CompiledKernel.lineMap has a null per line). */
export interface LinkedLibrary { readonly text: string; readonly lines: number }

/**
 * Linked libraries by the sorted names a kernel calls. Kernels call few distinct sets of
 * helpers, and linking and line-counting one (6 KB on average, 40% of the WGSL text of the
 * repository's kernels) for every kernel of every compile cost 3% of a compile (issue 13).
 * Bounded, so a process compiling endless variety keeps its memory.
 */
const LINKED = new Map<string, LinkedLibrary>();
const LINKED_MAX = 256;

/** linkLibrary's text with its line count, built once per distinct set of called names. */
export function linkedLibrary(used: ReadonlySet<string>): LinkedLibrary {
  const key = [...used].sort().join(' ');
  let linked = LINKED.get(key);
  if (!linked) {
    const text = linkLibrary(used);
    let lines = 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    if (LINKED.size >= LINKED_MAX) LINKED.clear();
    LINKED.set(key, (linked = { text, lines }));
  }
  return linked;
}
