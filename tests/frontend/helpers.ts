/** Test helpers: strip spans from ASTs so parse(print(x)) can be compared with parse(x). */
import { parsePtx } from '../../src/ptx/parse.js';
import type { Instruction, Module } from '../../src/ptx/ast.js';

const SPAN_KEYS = new Set(['span', 'opcodeSpan', 'nameSpan']);

export function stripSpans(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(stripSpans);
  if (x && typeof x === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) if (!SPAN_KEYS.has(k)) out[k] = stripSpans(v);
    return out;
  }
  return x;
}

export const HEADER = '.version 8.0\n.target sm_90a\n.address_size 64\n';

/** Parses `body` as the body of one kernel and returns its statements. */
export function parseBody(body: string): Module {
  return parsePtx(`${HEADER}.visible .entry k()\n{\n${body}\n}\n`, 'test.ptx');
}

/** Parses one instruction (inside a kernel) and returns it. */
export function parseInstruction(text: string): Instruction {
  const m = parseBody(text);
  const f = m.items[0];
  if (f?.kind !== 'function' || !f.body) throw new Error('no function');
  const i = f.body.find((s) => s.kind === 'instruction');
  if (!i || i.kind !== 'instruction') throw new Error('no instruction');
  return i;
}
