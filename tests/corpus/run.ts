/**
 * Runs one corpus case on a ptx-wgsl context, the way a CUDA host program would: allocate and
 * fill every buffer, copy the symbols (cudaMemcpyToSymbol), launch the kernels in order, read
 * every buffer back. Host-agnostic: no Node, Deno or DOM imports.
 */
import type { Context, Module } from '../../src/index.js';
import { bytesOf, halfBits, makeBuffer, type NumArray } from './inputs.ts';
import { dim3, flatLaunches, scalarsOf, type CorpusCase, type ScalarArg } from './table.ts';

type Dims = Readonly<Record<string, number>>;

type KernelArg = number | bigint | Uint8Array | { readonly address: bigint };

/** A scalar's value and C layout (size = alignment, except structs). */
function packScalar(a: ScalarArg, dims: Dims): { bytes: Uint8Array; align: number } {
  if ('struct' in a) {
    const parts = a.struct.map((f) => packScalar(f, dims));
    const align = Math.max(1, ...parts.map((p) => p.align));
    let size = 0;
    const at: number[] = [];
    for (const p of parts) {
      size = Math.ceil(size / p.align) * p.align;
      at.push(size);
      size += p.bytes.byteLength;
    }
    const bytes = new Uint8Array(Math.ceil(size / align) * align);
    parts.forEach((p, k) => bytes.set(p.bytes, at[k]));
    return { bytes, align };
  }
  const [[type, value]] = scalarsOf(a, dims) as [[string, number]];
  const size = { u8: 1, f16: 2, f32: 4, f64: 8, i32: 4, u32: 4, i64: 8, u64: 8 }[type] ?? 0;
  const view = new DataView(new ArrayBuffer(size));
  if (type === 'u8') view.setUint8(0, value);
  else if (type === 'f16') view.setUint16(0, halfBits(value), true);
  else if (type === 'f32') view.setFloat32(0, value, true);
  else if (type === 'f64') view.setFloat64(0, value, true);
  else if (type === 'i32' || type === 'u32') view.setUint32(0, value >>> 0, true);
  else view.setBigUint64(0, BigInt.asUintN(64, BigInt(value)), true);
  return { bytes: new Uint8Array(view.buffer), align: size };
}

/** What a scalar argument is passed as: a number/bigint for plain parameters, bytes for aggregates. */
export function scalarValue(a: ScalarArg, dims: Dims): number | bigint | Uint8Array {
  if ('struct' in a || 'f16' in a) return packScalar(a, dims).bytes;
  const [[type, value]] = scalarsOf(a, dims) as [[string, number]];
  return type === 'i64' || type === 'u64' ? BigInt(value) : value;
}

export interface RunOptions {
  /** Passed to loadModule (e.g. force the emulated warp path). */
  warpPath?: 'auto' | 'subgroups' | 'emulated';
  /**
   * Modules already loaded in `ctx`, by PTX file: cases that share a file share its compiled
   * kernels and pipelines, as one CUDA program loading a module once would.
   */
  modules?: Map<string, Module>;
}

/** Runs the case's launches on `ctx`; returns every buffer's contents afterwards, by name. */
export async function runCorpusCase(
  ctx: Context,
  c: CorpusCase,
  ptx: string,
  ptxFile: string,
  opts: RunOptions = {},
): Promise<Map<string, NumArray>> {
  let mod = opts.modules?.get(ptxFile);
  if (!mod) {
    mod = ctx.loadModule(ptx, { fileName: ptxFile, ...(opts.warpPath ? { warpPath: opts.warpPath } : {}) });
    opts.modules?.set(ptxFile, mod);
  }
  const host = new Map(c.buffers.map((b) => [b.name, makeBuffer(c.name, b)] as const));
  const dev = new Map<string, ReturnType<Context['malloc']>>();
  try {
    for (const b of c.buffers) {
      const h = host.get(b.name) as NumArray;
      const d = ctx.malloc(Math.max(h.byteLength, 4));
      ctx.memcpyHtoD(d, bytesOf(h));
      dev.set(b.name, d);
    }
    for (const s of c.symbols ?? []) mod.copyToSymbol(s.name, bytesOf(makeBuffer(c.name, s)));
    for (const l of flatLaunches(c.launches)) {
      const fn = mod.getFunction(l.entry);
      const args: KernelArg[] = l.args.map((a) => (typeof a === 'string' ? (dev.get(a) as KernelArg) : scalarValue(a, c.dims ?? {})));
      const config = { grid: dim3(l.grid), block: dim3(l.block), sharedBytes: l.shared ?? 0 };
      await fn.prepareAsync(config, args as never);
      fn.launch(config, args as never);
    }
    await ctx.synchronize();
    for (const b of c.buffers) {
      const h = host.get(b.name) as NumArray;
      await ctx.memcpyDtoH(bytesOf(h), dev.get(b.name) as KernelArg as never);
    }
    return host;
  } finally {
    for (const d of dev.values()) ctx.free(d);
  }
}
