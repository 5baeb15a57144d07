/**
 * Checks a launch configuration against the kernel and the device before anything is
 * dispatched: WebGPU would reject most of these as an opaque validation error, and an
 * over-large workgroup could silently run the wrong block shape.
 */
import type { KernelLayout } from '../lowering/layout.js';
import { deviceError, launchError } from './errors.js';
import { maxGridBlocks, volume, type Dim3 } from './grid.js';

export interface LaunchShape {
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly sharedBytes: number;
}

const fmt = (d: readonly number[]): string => `[${d.join(', ')}]`;

export function checkLaunch(layout: KernelLayout, shape: LaunchShape, limits: GPUSupportedLimits): void {
  checkBlock(layout, shape.block, limits);
  checkGrid(shape.grid, limits);
  checkShared(layout, shape.sharedBytes, limits);
  checkBindings(layout, limits);
}

function checkBlock(layout: KernelLayout, block: Dim3, limits: GPUSupportedLimits): void {
  const max: Dim3 = [limits.maxComputeWorkgroupSizeX, limits.maxComputeWorkgroupSizeY, limits.maxComputeWorkgroupSizeZ];
  if (block.some((d) => d === 0)) throw launchError(`block ${fmt(block)} has no threads`);
  if (block.some((d, i) => d > (max[i] ?? 0))) {
    throw launchError(`block ${fmt(block)} exceeds the device's maximum workgroup size ${fmt(max)}`);
  }
  const threads = volume(block);
  if (threads > limits.maxComputeInvocationsPerWorkgroup) {
    throw launchError(
      `block ${fmt(block)} has ${threads} threads; the device allows ${limits.maxComputeInvocationsPerWorkgroup} per workgroup`,
    );
  }
  const req = layout.reqntid;
  if (req && !block.every((d, i) => d === (req[i] ?? 1))) {
    throw launchError(`kernel '${layout.entry}' requires block ${fmt(req)} (.reqntid), launched with ${fmt(block)}`);
  }
  const maxntid = layout.maxntid;
  if (maxntid && threads > maxntid.reduce((a, b) => a * b, 1)) {
    throw launchError(`kernel '${layout.entry}' allows at most ${fmt(maxntid)} threads (.maxntid), launched with ${fmt(block)}`);
  }
}

function checkGrid(grid: Dim3, limits: GPUSupportedLimits): void {
  if (grid.some((d) => d === 0)) throw launchError(`grid ${fmt(grid)} has no blocks`);
  const max = maxGridBlocks(limits.maxComputeWorkgroupsPerDimension);
  if (volume(grid) > max) {
    throw launchError(
      `grid ${fmt(grid)} has ${volume(grid)} blocks; at most ${max} fit in one dispatch on this device ` +
        `(maxComputeWorkgroupsPerDimension ${limits.maxComputeWorkgroupsPerDimension}, squared)`,
    );
  }
}

function checkShared(layout: KernelLayout, dynamicBytes: number, limits: GPUSupportedLimits): void {
  if (!Number.isSafeInteger(dynamicBytes) || dynamicBytes < 0) throw launchError(`sharedBytes must be a non-negative integer, got ${dynamicBytes}`);
  const total = layout.staticSharedBytes + dynamicBytes;
  if (total > limits.maxComputeWorkgroupStorageSize) {
    throw launchError(
      `kernel '${layout.entry}' needs ${total} bytes of shared memory (${layout.staticSharedBytes} static + ${dynamicBytes} dynamic); ` +
        `the device allows ${limits.maxComputeWorkgroupStorageSize}`,
    );
  }
}

function checkBindings(layout: KernelLayout, limits: GPUSupportedLimits): void {
  // Every binding but the launch uniform is a storage buffer: pointer slots, and the buffers
  // the runtime owns (module variables, the trap record, the 64-bit atomic lock table).
  const storage = layout.bindings.filter((b) => b.kind !== 'launch-params');
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
