// Every JS reference by the name cases.json gives in `ref`, and the helper that runs one.
import { makeBuffer, type NumArray } from '../inputs.ts';
import type { CorpusCase } from '../table.ts';
import { algorithms } from './algorithms.ts';
import { apps } from './apps.ts';
import { grid } from './grid.ts';
import { llm } from './llm.ts';
import { Bufs, strictDims, type Ref } from './types.ts';

export const references: Readonly<Record<string, Ref>> = { ...llm, ...algorithms, ...grid, ...apps };

/** The reference's final buffers for case `c`, or undefined when the case has no reference. */
export function referenceOutputs(c: CorpusCase): Map<string, NumArray> | undefined {
  const ref = c.ref === undefined ? undefined : references[c.ref];
  if (!ref) return undefined;
  const bufs = new Map([...c.buffers, ...(c.symbols ?? [])].map((b) => [b.name, makeBuffer(c.name, b)] as const));
  ref(new Bufs(bufs), strictDims(c.dims ?? {}, c.name));
  return bufs;
}
