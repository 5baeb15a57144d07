/**
 * Rejects a launch whose pointer argument is shorter than what the kernel certainly accesses
 * through it (the layout's `extents`, lowering/param-extents.ts): the common
 * `i = ctaid.x * ntid.x + tid.x; if (i < n) a[i] ...` with `a` shorter than `min(n, threads)`
 * elements, before it runs out of bounds. The bound is read from the packed parameters, as the
 * kernel reads it. Only accesses every launch makes are checked, so a rejected launch is one
 * that accesses memory outside its allocation; other accesses are not checked (README.md).
 */
import { LAUNCH_HEADER_BYTES, type ExtentIndex, type KernelLayout, type ParamExtent } from '../lowering/layout.js';
import { argumentError } from './errors.js';
import type { LaunchShape } from './launch-checks.js';
import type { DeviceBuffer } from './memory.js';

/** Threads of a launch with each index, or undefined where its 32-bit computation could wrap. */
function indexCount(index: ExtentIndex, shape: LaunchShape): number | undefined {
  if (index === 'tid.x') return shape.block[0];
  const threads = shape.grid[0] * shape.block[0];
  return threads <= 2 ** 31 ? threads : undefined;
}

const INDEX_TEXT: Record<ExtentIndex, string> = { 'tid.x': 'tid.x', 'global.x': 'ctaid.x * ntid.x + tid.x' };

/** The largest index that makes the access in this launch, and how to describe it; undefined: none. */
function lastIndex(e: ParamExtent, layout: KernelLayout, shape: LaunchShape, params: DataView): { index: number; why: string } | undefined {
  const g = e.guard;
  if (!g) {
    if (e.index === 'none') return { index: 0, why: 'every thread' };
    const count = indexCount(e.index, shape);
    return count === undefined ? undefined : { index: count - 1, why: `thread ${INDEX_TEXT[e.index]} = ${count - 1} (the launch's last)` };
  }
  const count = indexCount(g.index, shape);
  const p = layout.params[g.param];
  if (count === undefined || !p) return undefined;
  const at = LAUNCH_HEADER_BYTES + p.offset + g.offset;
  const bound = g.bits === 32
    ? BigInt(g.signed ? params.getInt32(at, true) : params.getUint32(at, true))
    : g.signed ? params.getBigInt64(at, true) : params.getBigUint64(at, true);
  const limit = bound + (g.inclusive ? 1n : 0n);
  const admitted = limit <= 0n ? 0 : Number(limit < BigInt(count) ? limit : BigInt(count));
  if (admitted === 0) return undefined;
  const test = `${INDEX_TEXT[g.index]} ${g.inclusive ? '<=' : '<'} ${p.name} = ${bound}`;
  if (e.index === 'none') return { index: 0, why: `every thread with ${test}` };
  return { index: admitted - 1, why: `thread ${INDEX_TEXT[g.index]} = ${admitted - 1} (the last with ${test})` };
}

export function checkExtents(layout: KernelLayout, shape: LaunchShape, uniforms: Uint8Array, allocationOf: (param: number) => DeviceBuffer | null): void {
  const params = new DataView(uniforms.buffer, uniforms.byteOffset, uniforms.byteLength);
  for (const e of layout.extents ?? []) {
    const allocation = allocationOf(e.param);
    const p = layout.params[e.param];
    const last = allocation && p ? lastIndex(e, layout, shape, params) : undefined;
    if (!allocation || !p || !last) continue;
    const end = last.index * e.stride + e.offset + e.bytes;
    const offset = Number(params.getBigUint64(LAUNCH_HEADER_BYTES + p.offset, true) & 0xffff_ffffn);
    const available = allocation.size - offset;
    if (end <= available) continue;
    const into = offset === 0 ? `a ${allocation.size}-byte allocation` : `${offset} bytes into a ${allocation.size}-byte allocation`;
    throw argumentError(
      `kernel '${layout.entry}' accesses ${end} bytes from parameter '${p.name}', but its argument points to ${Math.max(0, available)} (${into}): ` +
        `${last.why} accesses bytes ${end - e.bytes}..${end - 1} at ${e.site}`,
    );
  }
}
