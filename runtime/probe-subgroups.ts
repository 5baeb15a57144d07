/**
 * The subgroup size a device runs compute shaders with, and whether its subgroups are laid out
 * as consecutive local_invocation_index (lane i of subgroup k is invocation 32k + i for size 32).
 * Only then is a CUDA warp a subgroup and the compiler's native warp path exact. Probed once per
 * device with a 256-invocation workgroup; any failure (no `subgroups` feature, mixed sizes,
 * another layout) reports no usable size.
 */
import { runProbe } from './probe-dispatch.js';
export interface SubgroupProbe {
  /** The one subgroup size seen, or undefined (no subgroups, or sizes vary). */
  readonly size: number | undefined;
  /** Every invocation's subgroup_invocation_id equals local_invocation_index % size. */
  readonly consecutive: boolean;
}

const probes = new WeakMap<GPUDevice, Promise<SubgroupProbe>>();
const THREADS = 256;

const SHADER = `
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32, ${2 * THREADS}>;
@compute @workgroup_size(${THREADS}) fn main(@builtin(local_invocation_index) t: u32,
    @builtin(subgroup_size) size: u32, @builtin(subgroup_invocation_id) id: u32) {
  out[2u * t] = size;
  out[2u * t + 1u] = id;
}`;

const NONE: SubgroupProbe = { size: undefined, consecutive: false };

export function probeSubgroups(device: GPUDevice): Promise<SubgroupProbe> {
  let p = probes.get(device);
  if (!p) probes.set(device, (p = device.features.has('subgroups') ? run(device).catch(() => NONE) : Promise.resolve(NONE)));
  return p;
}

/** The subgroup size `compile()` may rely on: the probed size when the layout is consecutive. */
export async function reliableSubgroupSize(device: GPUDevice): Promise<number | undefined> {
  const probe = await probeSubgroups(device);
  if (!probe.consecutive || probe.size === undefined) return undefined;
  // A device that may pick another size for another pipeline is not relied on.
  const info = (device as { adapterInfo?: { subgroupMinSize?: number; subgroupMaxSize?: number } }).adapterInfo;
  if (info?.subgroupMinSize !== undefined && info.subgroupMinSize !== info.subgroupMaxSize) return undefined;
  return probe.size;
}

async function run(device: GPUDevice): Promise<SubgroupProbe> {
  const data = new Uint32Array(await runProbe(device, 'ptx-wgsl subgroup probe', SHADER, 8 * THREADS));
  const size = data[0] ?? 0;
  let consecutive = size > 0;
  for (let t = 0; t < THREADS; t++) {
    if (data[2 * t] !== size) return NONE;
    consecutive &&= data[2 * t + 1] === t % size;
  }
  return { size, consecutive };
}
