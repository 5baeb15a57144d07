/**
 * The subgroup size a device runs compute shaders with, and whether its subgroups are laid out
 * as consecutive local_invocation_index (lane i of subgroup k is invocation 32k + i for size 32).
 * Only then is a CUDA warp a subgroup and the compiler's native warp path exact. Probed once per
 * device with a 256-invocation workgroup; any failure (no `subgroups` feature, mixed sizes,
 * another layout) reports no usable size.
 *
 * A device whose subgroup size varies between pipelines (adapter subgroupMinSize <
 * subgroupMaxSize: Intel, AMD) is relied on only with `@subgroup_size(32)` (WGSL
 * `subgroup_size_control`), and then only if the probe run with that attribute sees 32
 * consecutive lanes: the attribute fixes the size, not the layout.
 */
import { runProbe } from './probe-dispatch.js';
export interface SubgroupProbe {
  /** The one subgroup size seen, or undefined (no subgroups, or sizes vary). */
  readonly size: number | undefined;
  /** Every invocation's subgroup_invocation_id equals local_invocation_index % size. */
  readonly consecutive: boolean;
}

/**
 * When the native warp path pins the subgroup size with `@subgroup_size(32)`: `auto` only on
 * devices whose size varies; `always` wherever the device accepts it (tests on fixed-size
 * devices exercise the pinned path this way); `never`.
 */
export type SubgroupSizeControl = 'auto' | 'always' | 'never';

/** What the compiler may rely on: a subgroup size, and whether kernels must pin it. */
export interface ReliableSubgroups {
  readonly size: number;
  readonly pinned: boolean;
}

const THREADS = 256;
const PINNED = 32;

const shader = (pin: boolean): string => `
enable subgroups;
${pin ? 'enable subgroup_size_control;' : ''}
@group(0) @binding(0) var<storage, read_write> out: array<u32, ${2 * THREADS}>;
@compute @workgroup_size(${THREADS}) ${pin ? `@subgroup_size(${PINNED})` : ''} fn main(@builtin(local_invocation_index) t: u32,
    @builtin(subgroup_size) size: u32, @builtin(subgroup_invocation_id) id: u32) {
  out[2u * t] = size;
  out[2u * t + 1u] = id;
}`;

const NONE: SubgroupProbe = { size: undefined, consecutive: false };

const probes = new WeakMap<GPUDevice, Promise<SubgroupProbe>>();
const pinnedProbes = new WeakMap<GPUDevice, Promise<SubgroupProbe>>();

/** The subgroups of a pipeline without `@subgroup_size`. */
export function probeSubgroups(device: GPUDevice): Promise<SubgroupProbe> {
  return cached(probes, device, device.features.has('subgroups'), false);
}

/** The subgroups of a pipeline with `@subgroup_size(32)`; NONE where the device cannot pin 32. */
export function probePinnedSubgroups(device: GPUDevice): Promise<SubgroupProbe> {
  const range = subgroupRange(device);
  const can = device.features.has('subgroups') && device.features.has('subgroup-size-control')
    && range !== undefined && range.min <= PINNED && PINNED <= range.max;
  return cached(pinnedProbes, device, can, true);
}

/** The subgroup size `compile()` may rely on, and whether kernels must pin it. */
export async function reliableSubgroups(device: GPUDevice, control: SubgroupSizeControl = 'auto'): Promise<ReliableSubgroups | undefined> {
  const range = subgroupRange(device);
  const varies = range !== undefined && range.min !== range.max;
  if (control !== 'always' && !varies) {
    const probe = await probeSubgroups(device);
    if (probe.consecutive && probe.size !== undefined) return { size: probe.size, pinned: false };
  }
  if (control === 'never') return undefined;
  const pinned = await probePinnedSubgroups(device);
  return pinned.consecutive && pinned.size === PINNED ? { size: PINNED, pinned: true } : undefined;
}

/** The adapter's subgroup size range, where the host reports it. */
function subgroupRange(device: GPUDevice): { min: number; max: number } | undefined {
  const info = (device as { adapterInfo?: { subgroupMinSize?: number; subgroupMaxSize?: number } }).adapterInfo;
  const min = info?.subgroupMinSize;
  const max = info?.subgroupMaxSize;
  return min !== undefined && max !== undefined && min > 0 ? { min, max } : undefined;
}

function cached(map: WeakMap<GPUDevice, Promise<SubgroupProbe>>, device: GPUDevice, can: boolean, pin: boolean): Promise<SubgroupProbe> {
  let p = map.get(device);
  if (!p) map.set(device, (p = can ? run(device, pin).catch(() => NONE) : Promise.resolve(NONE)));
  return p;
}

async function run(device: GPUDevice, pin: boolean): Promise<SubgroupProbe> {
  const data = new Uint32Array(await runProbe(device, `ptx-wgsl subgroup probe${pin ? ' (pinned)' : ''}`, shader(pin), 8 * THREADS));
  const size = data[0] ?? 0;
  let consecutive = size > 0;
  for (let t = 0; t < THREADS; t++) {
    if (data[2 * t] !== size) return NONE;
    consecutive &&= data[2 * t + 1] === t % size;
  }
  return { size, consecutive };
}
