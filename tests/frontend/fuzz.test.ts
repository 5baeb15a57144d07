/**
 * Fuzzing with a fixed seed: corpus files mutated by deletions, duplications, token swaps,
 * truncations and random bytes. Every run must return an AST or throw a PtxError whose
 * diagnostics all carry a span inside the text (so they render with file:line:col) —
 * never another exception, never a hang (each parse is timed, and the whole test has a
 * time limit). A failing case prints its seed and mutation so it can be replayed.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { PtxError } from '../../src/diagnostics/ptx-error.js';
import { parsePtx } from '../../src/ptx/parse.js';
import { mulberry32 } from '../e2e/reference.js';

const dir = new URL('./corpus/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ptx'))
  .sort()
  .map((f) => ({ name: f, text: readFileSync(new URL(f, dir), 'utf8') }));

/** Uniform in [0, 1) from the suites' shared seeded generator (tests/e2e/reference.ts). */
function rng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

type Mutation = (text: string, r: () => number) => string;
const int = (r: () => number, n: number): number => Math.floor(r() * n);
const TOKEN = /%?[\w$.:]+|\S/g;
/** Bytes that stress the lexer: punctuation PTX uses, quotes, comment openers, non-ASCII, NUL. */
const ODD = ['{', '}', '(', ')', '[', ']', ';', ',', '.', '%', '@', '!', '|', '"', '/*', '//', '<', '>', '-', '0x', '0f', '\0', 'é', '\u00a0', '\n', '::', '_'];

const MUTATIONS: Record<string, Mutation> = {
  delete: (t, r) => {
    const at = int(r, t.length);
    return t.slice(0, at) + t.slice(at + 1 + int(r, 40));
  },
  duplicate: (t, r) => {
    const at = int(r, t.length);
    const piece = t.slice(at, at + 1 + int(r, 200));
    const to = int(r, t.length);
    return t.slice(0, to) + piece + t.slice(to);
  },
  swapTokens: (t, r) => {
    const toks = [...t.matchAll(TOKEN)];
    if (toks.length < 2) return t;
    let [a, b] = [toks[int(r, toks.length)], toks[int(r, toks.length)]];
    if (!a || !b || a.index === b.index) return t;
    if (a.index > b.index) [a, b] = [b, a];
    return t.slice(0, a.index) + b[0] + t.slice(a.index + a[0].length, b.index) + a[0] + t.slice(b.index + b[0].length);
  },
  truncate: (t, r) => t.slice(0, int(r, t.length)),
  randomBytes: (t, r) => {
    let out = t;
    for (let k = 0, n = 1 + int(r, 4); k < n; k++) {
      const at = int(r, out.length);
      const s = r() < 0.5 ? (ODD[int(r, ODD.length)] ?? '') : String.fromCharCode(int(r, 256));
      out = out.slice(0, at) + s + out.slice(at + (r() < 0.5 ? 1 : 0));
    }
    return out;
  },
};
const NAMES = Object.keys(MUTATIONS);

const SEED = 20261122;
const RUNS = 3000;
const PER_PARSE_MS = 2000;

describe('fuzzing the parser with mutated corpus files', () => {
  test(`${RUNS} mutations (seed ${SEED}) give an AST or a positioned PtxError`, () => {
    const r = rng(SEED);
    const outcomes = { parsed: 0, errors: 0 };
    for (let run = 0; run < RUNS; run++) {
      const file = files[int(r, files.length)];
      if (!file) continue;
      let text = file.text;
      const steps: string[] = [];
      for (let k = 0, n = 1 + int(r, 3); k < n; k++) {
        const name = NAMES[int(r, NAMES.length)] ?? 'delete';
        steps.push(name);
        text = (MUTATIONS[name] as Mutation)(text, r);
      }
      const what = `run ${run} (${file.name}: ${steps.join(', ')})`;
      const t0 = performance.now();
      try {
        parsePtx(text, file.name);
        outcomes.parsed++;
      } catch (e) {
        if (!(e instanceof PtxError)) throw new Error(`${what}: threw ${String(e)}\n${(e as Error).stack ?? ''}`);
        expect(e.diagnostics.length, what).toBeGreaterThan(0);
        for (const d of e.diagnostics) {
          expect(d.span, `${what}: ${d.message}`).toBeDefined();
          const { start, end } = d.span ?? { start: -1, end: -1 };
          if (!(start >= 0 && start <= end && end <= text.length)) throw new Error(`${what}: span ${start}..${end} outside the text`);
        }
        expect(e.message, what).toMatch(/:\d+:\d+: error\[P\d{3}\]/);
        outcomes.errors++;
      }
      const ms = performance.now() - t0;
      if (ms > PER_PARSE_MS) throw new Error(`${what}: parse took ${ms.toFixed(0)} ms`);
    }
    // Both outcomes occur: the mutations neither always break nor never break the files.
    expect(outcomes.parsed).toBeGreaterThan(RUNS / 50);
    expect(outcomes.errors).toBeGreaterThan(RUNS / 2);
  }, 240_000);
});
