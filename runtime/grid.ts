/**
 * Grid and block shapes, and how a CUDA grid maps onto a WebGPU dispatch.
 *
 * CUDA grids reach 2^31-1 blocks in x; WebGPU allows `maxComputeWorkgroupsPerDimension`
 * (typically 65535) per dimension. A grid whose three sizes fit is dispatched as it is, and the
 * workgroup id is %ctaid (the pipeline constant `ptx_grid_direct` says so). Any other grid is
 * linearised: G = gx*gy*gz blocks are dispatched as (ceil(G / rows), rows, 1) workgroups with
 * rows = ceil(G / max), which pads fewer than `rows` workgroups (min(G, max) wide rows would pad
 * up to a whole row: a 65536-block grid ran twice its workgroups, half of them returning at
 * once); the shader computes lin = wid.x + wid.y * dispatchX, returns when lin >= G, and derives
 * %ctaid from the grid size in the launch header. Linearising every grid cost each thread of a
 * 2D grid three integer divisions by run-time values (issue 13: the 5-point stencil).
 */
import { argumentError } from './errors.js';

export type Dim3 = readonly [number, number, number];

/** `grid` / `block` as users write them: `n`, `[x]`, `[x, y]` or `[x, y, z]`. */
export type DimInput = number | readonly [number, number?, number?];

/** Normalises to three dimensions, missing ones 1. */
export function toDim3(input: DimInput | undefined, what: string): Dim3 {
  const [x = 1, y = 1, z = 1] = typeof input === 'number' ? [input] : (input ?? []);
  for (const d of [x, y, z]) {
    if (!Number.isSafeInteger(d) || d < 0) throw argumentError(`${what} dimensions must be non-negative integers, got [${x}, ${y}, ${z}]`);
  }
  return [x, y, z];
}

export function volume([x, y, z]: Dim3): number {
  return x * y * z;
}

export interface DispatchPlan {
  /** Workgroups to dispatch in x, y and z. */
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** The grid is dispatched as it is: workgroup id = %ctaid, and no padding. */
  readonly direct: boolean;
  /** Blocks in the grid; the shader skips the `x*y - blocks` padding workgroups. */
  readonly blocks: number;
}

/** The largest grid volume a linearised dispatch can cover. */
export function maxGridBlocks(maxPerDimension: number): number {
  return maxPerDimension * maxPerDimension;
}

/** The dispatch covering `grid`'s blocks; callers check the grid against `maxGridBlocks` first. */
export function planDispatch(grid: Dim3, maxPerDimension: number): DispatchPlan {
  const blocks = volume(grid);
  if (grid.every((d) => d <= maxPerDimension)) return { x: grid[0], y: grid[1], z: grid[2], direct: true, blocks };
  const y = Math.max(1, Math.ceil(blocks / maxPerDimension));
  return { x: Math.ceil(blocks / y), y, z: 1, direct: false, blocks };
}

/** What the shader computes for workgroup (wx, wy, wz): the block's %ctaid, or null for padding. */
export function ctaidOf(wx: number, wy: number, plan: DispatchPlan, grid: Dim3, wz = 0): Dim3 | null {
  if (plan.direct) return [wx, wy, wz];
  const lin = wx + wy * plan.x;
  if (lin >= plan.blocks) return null;
  const [gx, gy] = grid;
  return [lin % gx, Math.floor(lin / gx) % gy, Math.floor(lin / (gx * gy))];
}
