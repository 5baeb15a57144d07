/**
 * Checks a launch configuration against the kernel, CUDA's limits and the device before
 * anything is dispatched: WebGPU would reject most of these as an opaque validation error, an
 * over-large workgroup could silently run the wrong block shape, and a grid CUDA refuses could
 * run for half an hour on a CPU device.
 */
import type { KernelLayout } from '../lowering/layout.js';
import { argumentError, deviceError, launchError } from './errors.js';
import { maxGridBlocks, toDim3, volume, type DimInput, type Dim3 } from './grid.js';
import { kindOf } from './params.js';

export interface LaunchShape {
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly sharedBytes: number;
}

/**
 * CUDA's limits since compute capability 3.0 (CUDA C++ Programming Guide, "Features and
 * Technical Specifications"): threads per block and block dimensions, grid dimensions.
 */
const CUDA_MAX_BLOCK_THREADS = 1024;
const CUDA_MAX_BLOCK: Dim3 = [1024, 1024, 64];
const CUDA_MAX_GRID: Dim3 = [2 ** 31 - 1, 65535, 65535];

const fmt = (d: readonly number[]): string => `[${d.join(', ')}]`;
const AXES = ['x', 'y', 'z'] as const;

/**
 * The launch shape from `grid`, `block` and `sharedBytes`. A missing `grid` or `block` is 1,
 * but not both: a launch without either is a forgotten configuration, not one thread.
 */
export function launchShape(entry: string, config: { grid?: DimInput; block?: DimInput; sharedBytes?: number } | undefined): LaunchShape {
  if (typeof config !== 'object' || config === null) {
    throw launchError(`launching kernel '${entry}' needs a launch configuration { grid, block }, got ${kindOf(config)}`);
  }
  if (config.grid === undefined && config.block === undefined) {
    throw launchError(
      `launching kernel '${entry}' needs \`grid\` and \`block\` (kernel<<<grid, block>>>); neither was given, ` +
        'which would run a single thread (a missing one alone is 1)',
    );
  }
  return { grid: toDim3(config.grid, 'grid'), block: toDim3(config.block, 'block'), sharedBytes: config.sharedBytes ?? 0 };
}

export function checkLaunch(layout: KernelLayout, shape: LaunchShape, limits: GPUSupportedLimits): void {
  checkBlock(shape.block, limits);
  checkDirectives(layout, shape.block);
  checkGrid(shape.grid, limits);
  checkShared(layout, shape.sharedBytes, limits);
  checkBindings(layout, limits);
}

function checkBlock(block: Dim3, limits: GPUSupportedLimits): void {
  if (block.some((d) => d === 0)) throw launchError(`block ${fmt(block)} has no threads`);
  const device: Dim3 = [limits.maxComputeWorkgroupSizeX, limits.maxComputeWorkgroupSizeY, limits.maxComputeWorkgroupSizeZ];
  block.forEach((d, i) => {
    const axis = AXES[i] as string;
    if (d > (CUDA_MAX_BLOCK[i] as number)) {
      throw launchError(`block ${fmt(block)} has ${d} threads in ${axis}; CUDA allows at most ${fmt(CUDA_MAX_BLOCK)} in x, y, z`);
    }
    if (d > (device[i] as number)) {
      throw launchError(
        `block ${fmt(block)} has ${d} threads in ${axis}; CUDA allows ${CUDA_MAX_BLOCK[i]}, but this device at most ` +
          `${device[i]} (maxComputeWorkgroupSize${axis.toUpperCase()})`,
      );
    }
  });
  const threads = volume(block);
  if (threads > CUDA_MAX_BLOCK_THREADS) {
    throw launchError(`block ${fmt(block)} has ${threads} threads; CUDA allows at most ${CUDA_MAX_BLOCK_THREADS} per block`);
  }
  if (threads > limits.maxComputeInvocationsPerWorkgroup) {
    throw launchError(
      `block ${fmt(block)} has ${threads} threads; CUDA allows ${CUDA_MAX_BLOCK_THREADS} per block, but this device at most ` +
        `${limits.maxComputeInvocationsPerWorkgroup} (maxComputeInvocationsPerWorkgroup)`,
    );
  }
}

/** `.reqntid` and `.maxntid` of the entry. */
function checkDirectives(layout: KernelLayout, block: Dim3): void {
  const req = layout.reqntid;
  if (req && !block.every((d, i) => d === (req[i] ?? 1))) {
    throw launchError(`kernel '${layout.entry}' requires block ${fmt(req)} (.reqntid), launched with ${fmt(block)}`);
  }
  const maxntid = layout.maxntid;
  if (maxntid && volume(block) > maxntid.reduce((a, b) => a * b, 1)) {
    throw launchError(`kernel '${layout.entry}' allows at most ${fmt(maxntid)} threads (.maxntid), launched with ${fmt(block)}`);
  }
}

function checkGrid(grid: Dim3, limits: GPUSupportedLimits): void {
  if (grid.some((d) => d === 0)) throw launchError(`grid ${fmt(grid)} has no blocks`);
  grid.forEach((d, i) => {
    if (d > (CUDA_MAX_GRID[i] as number)) {
      throw launchError(`grid ${fmt(grid)} has ${d} blocks in ${AXES[i]}; CUDA allows at most ${fmt(CUDA_MAX_GRID)} in x, y, z`);
    }
  });
  const max = maxGridBlocks(limits.maxComputeWorkgroupsPerDimension);
  if (volume(grid) > max) {
    throw launchError(
      `grid ${fmt(grid)} has ${volume(grid)} blocks; at most ${max} fit in one dispatch on this device ` +
        `(maxComputeWorkgroupsPerDimension ${limits.maxComputeWorkgroupsPerDimension}, squared)`,
    );
  }
}

/** The arguments of a launch: an array with one element per `.param` of the kernel. */
export function checkArgCount(layout: KernelLayout, args: unknown): void {
  const params = layout.params;
  const list = params.map((p) => `.${p.type} ${p.name}`).join(', ') || 'none';
  if (!Array.isArray(args)) {
    throw argumentError(`kernel '${layout.entry}' takes its arguments as an array, one per parameter (${list}), got ${kindOf(args)}`);
  }
  if (args.length !== params.length) {
    throw argumentError(`kernel '${layout.entry}' takes ${params.length} arguments (${list}), got ${args.length}`);
  }
}

function checkShared(layout: KernelLayout, dynamicBytes: number, limits: GPUSupportedLimits): void {
  if (!Number.isSafeInteger(dynamicBytes) || dynamicBytes < 0) throw launchError(`sharedBytes must be a non-negative integer, got ${dynamicBytes}`);
  const total = layout.staticSharedBytes + dynamicBytes;
  if (total > limits.maxComputeWorkgroupStorageSize) {
    throw launchError(
      `kernel '${layout.entry}' needs ${total} bytes of shared memory (${layout.staticSharedBytes} static + ${dynamicBytes} dynamic); ` +
        `the device allows ${limits.maxComputeWorkgroupStorageSize} (maxComputeWorkgroupStorageSize)`,
    );
  }
}

function checkBindings(layout: KernelLayout, limits: GPUSupportedLimits): void {
  // Every binding but the launch uniform (and `.const` bound as a uniform) is a storage buffer:
  // pointer slots, and the buffers the runtime owns (module variables, the trap record, the
  // 64-bit atomic lock table).
  const storage = layout.bindings.filter((b) => b.kind !== 'launch-params' && !(b.kind === 'module-memory' && b.access === 'uniform'));
  if (storage.length > limits.maxStorageBuffersPerShaderStage) {
    const slots = storage.filter((b) => b.kind === 'global-slot').length;
    const owned = [
      ...storage.filter((b) => b.kind === 'module-memory').map((b) => (b.space === 'const' ? '.const variables' : '.global variables')),
      ...storage.filter((b) => b.kind === 'trap').map(() => 'the trap record'),
      ...storage.filter((b) => b.kind === 'atomic-locks').map(() => 'the 64-bit atomic locks'),
    ];
    throw launchError(
      `kernel '${layout.entry}' needs ${storage.length} storage buffers (${slots} distinct global pointer${slots === 1 ? '' : 's'}` +
        `${owned.length > 0 ? `, ${owned.join(', ')}` : ''}); the device binds at most ${limits.maxStorageBuffersPerShaderStage}`,
    );
  }
  if (layout.uniformBytes > limits.maxUniformBufferBindingSize) {
    throw launchError(`kernel '${layout.entry}' has ${layout.paramBytes} bytes of parameters; too many for the device's uniform buffer`);
  }
}

/** Checks the device has every WebGPU feature the compiled shader needs. */
export function checkFeatures(layout: KernelLayout, device: GPUDevice): void {
  const missing = layout.features.filter((f) => !device.features.has(f));
  if (missing.length > 0) {
    throw deviceError(`kernel '${layout.entry}' needs WebGPU features the device lacks: ${missing.join(', ')}`);
  }
}
