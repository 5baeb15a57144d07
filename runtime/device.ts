/**
 * Getting a GPUDevice on every host, with the features and limits PTX kernels need, and turning
 * WebGPU's asynchronous error reporting (device loss, uncaptured and scoped errors) into sticky
 * PtxErrors, the way CUDA reports an error at the next synchronising call.
 */
import type { PtxError } from '../src/diagnostics/ptx-error.js';
import { deviceError } from './errors.js';
import type { Logger } from './log.js';

/** Optional features the compiler can use when present. */
const WANTED_FEATURES: readonly string[] = ['subgroups', 'shader-f16', 'timestamp-query', 'subgroup-size-control', 'chromium-experimental-subgroup-matrix'];

/** Dawn's experimental WebGPU feature that the tensor-core path of wmma needs (lowering/matrix-path.ts). */
export const SUBGROUP_MATRIX_FEATURE = 'chromium-experimental-subgroup-matrix';

/**
 * Flags for Dawn's instance on Node, from PTX_WGSL_DAWN_FLAGS (entries separated by `;`), e.g.
 * `enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia` to expose subgroup
 * matrices (tensor cores) and f16 on NVIDIA's Vulkan driver. Unsafe APIs are experimental
 * features Dawn keeps off by default, so this is the user's choice, never ours.
 */
function dawnFlags(): string[] {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.PTX_WGSL_DAWN_FLAGS;
  return env ? env.split(';').map((f) => f.trim()).filter((f) => f.length > 0) : [];
}

/** Limits raised to the adapter's maximum: the defaults (e.g. 8 storage buffers) are too small. */
const RAISED_LIMITS: readonly string[] = [
  'maxStorageBuffersPerShaderStage',
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupSizeZ',
  'maxComputeWorkgroupsPerDimension',
  'maxUniformBufferBindingSize',
];

/**
 * Dawn's GPU object on Node. It must stay referenced while any of its devices lives: when it
 * is garbage collected Dawn tears down its instance under the devices, and the process crashes.
 */
let nodeGpu: GPU | undefined;

/** Finds the host's WebGPU entry point: `navigator.gpu`, or Dawn's `webgpu` package on Node. */
export async function getGpu(): Promise<GPU> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (nav?.gpu) return nav.gpu;
  if (nodeGpu) return nodeGpu;
  const g = globalThis as { process?: { versions?: { node?: string } }; Deno?: unknown };
  if (!g.process?.versions?.node || g.Deno !== undefined) {
    throw deviceError('WebGPU is not available on this host: navigator.gpu is missing (a browser or Deno without WebGPU, or without a GPU or software Vulkan driver)');
  }
  let pkg: { create: (flags: string[]) => GPU; globals: object };
  try {
    // A computed specifier keeps bundlers from pulling the Node-only package into browser builds;
    // it is an optional peer dependency, loaded only here.
    const name = 'webgpu';
    pkg = (await import(name)) as typeof pkg;
  } catch (e) {
    const missing = (e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String(e).includes("'webgpu'");
    // Span-less diagnostics render without notes, so what to do goes in the message.
    throw deviceError(
      missing
        ? "WebGPU on Node needs Dawn's `webgpu` package, which is not installed: npm install webgpu (an optional peer dependency of ptx-wgsl, needed on Node only)"
        : `loading Dawn's \`webgpu\` package failed: ${String(e)}`,
    );
  }
  try {
    Object.assign(globalThis, pkg.globals);
    nodeGpu = pkg.create(dawnFlags());
    return nodeGpu;
  } catch (e) {
    throw deviceError(`creating Dawn's WebGPU instance failed: ${String(e)}`);
  }
}

/** One `GPUAdapterInfo.subgroupMatrixConfigs` entry, as Dawn's getters give it. */
interface MatrixConfig { readonly componentType: string; readonly resultComponentType: string; readonly M: number; readonly N: number; readonly K: number }

/** The adapter's subgroup-matrix configurations of devices requested here (GPUDevice.adapterInfo may lack them). */
const adapterConfigs = new WeakMap<GPUDevice, readonly MatrixConfig[]>();

/**
 * The subgroup-matrix configurations of `device`'s adapter, copied out of Dawn's getter
 * objects (which JSON.stringify prints as {}); none unless the device has the feature.
 */
export function subgroupMatrixConfigs(device: GPUDevice): MatrixConfig[] {
  if (!device.features.has(SUBGROUP_MATRIX_FEATURE)) return [];
  const info = (device as { adapterInfo?: { subgroupMatrixConfigs?: readonly MatrixConfig[] } }).adapterInfo;
  const found = adapterConfigs.get(device) ?? info?.subgroupMatrixConfigs ?? [];
  return [...found].map((c) => ({ componentType: String(c.componentType), resultComponentType: String(c.resultComponentType), M: Number(c.M), N: Number(c.N), K: Number(c.K) }));
}

/** Requests a device from `adapter` with every wanted feature it has and its maximum limits. */
export async function requestKernelDevice(adapter: GPUAdapter): Promise<GPUDevice> {
  const requiredFeatures = WANTED_FEATURES.filter((f) => adapter.features.has(f)) as GPUFeatureName[];
  const requiredLimits: Record<string, number> = {};
  const limits = adapter.limits as unknown as Record<string, unknown>;
  for (const name of RAISED_LIMITS) {
    const value = limits[name];
    if (typeof value === 'number') requiredLimits[name] = value;
  }
  const device = await adapter.requestDevice({ requiredFeatures, requiredLimits, label: 'ptx-wgsl' });
  const configs = (adapter.info as { subgroupMatrixConfigs?: readonly MatrixConfig[] }).subgroupMatrixConfigs;
  if (configs) adapterConfigs.set(device, [...configs]);
  return device;
}

let defaultDevice: Promise<GPUDevice> | undefined;

/** The host's shared default device, created on first use. */
export function getDefaultDevice(): Promise<GPUDevice> {
  if (defaultDevice) return defaultDevice;
  const created = createDefaultDevice();
  defaultDevice = created;
  const forget = (): void => {
    if (defaultDevice === created) defaultDevice = undefined;
  };
  // A failed or lost default device is replaced on the next call rather than poisoning the process.
  created.then((device) => device.lost.then(forget), forget);
  return created;
}

async function createDefaultDevice(): Promise<GPUDevice> {
  const gpu = await getGpu();
  const failed = (what: string) => (e: unknown): never => {
    throw deviceError(`${what} failed: ${e instanceof Error ? e.message : String(e)}`);
  };
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' }).catch(failed('requesting a WebGPU adapter'));
  if (!adapter) throw deviceError('no WebGPU adapter is available on this host');
  return requestKernelDevice(adapter).catch(failed('requesting a WebGPU device'));
}

/**
 * Destroys the default device, if one was created. Dawn keeps Node processes alive while a
 * device exists, so scripts and tests call this when done.
 */
export async function releaseDefaultDevice(): Promise<void> {
  const pending = defaultDevice;
  defaultDevice = undefined;
  if (pending) (await pending.catch(() => undefined))?.destroy();
}

/**
 * Watches one device for the context that uses it. Device faults (loss, and errors outside any
 * kernel's compilation: uncaptured or scoped validation and out-of-memory errors) are sticky:
 * the first one is kept and thrown by every later call (`check`), as CUDA keeps a context's
 * device faults. A kernel whose WGSL does not compile is no device fault: its error is reported
 * once (`watch`) and fails only that kernel's launches (pipeline-cache.ts).
 */
export class DeviceMonitor {
  private error: PtxError | undefined;
  private failure: PtxError | undefined;
  private pending: Promise<void>[] = [];
  private closed = false;
  private readonly onUncapturedError = (ev: Event): void => {
    if (this.closed) return;
    const message = `WebGPU error: ${(ev as GPUUncapturedErrorEvent).error.message}`;
    this.log?.('error', message);
    this.record(deviceError(message));
  };

  constructor(
    readonly device: GPUDevice,
    /** Also told of device loss and uncaptured errors as they happen (runtime/log.ts). */
    readonly log?: Logger,
  ) {
    void device.lost.then((info) => {
      if (this.closed) return;
      const message = `the WebGPU device was lost (${info.reason}): ${info.message}`;
      if (info.reason !== 'destroyed') log?.('error', message);
      this.record(deviceError(message));
    });
    device.addEventListener('uncapturederror', this.onUncapturedError);
  }

  /** Throws the first error the device reported, if any. */
  check(): void {
    if (this.error) throw this.error;
  }

  /** True once a sticky error was recorded: the context cannot be used any more. */
  get faulted(): boolean {
    return this.error !== undefined;
  }

  /**
   * Runs `fn` inside validation and out-of-memory error scopes; an error they catch becomes the
   * sticky error, prefixed by `what`, once the scopes resolve (see `settle`), unless
   * `explainedBy` resolves to an error: the failure that caused it (a kernel that does not
   * compile makes the submit of its launches fail), reported through `watch` instead.
   */
  scoped<T>(what: string, fn: () => T, explainedBy?: Promise<PtxError | undefined>): T {
    this.check();
    this.device.pushErrorScope('out-of-memory');
    this.device.pushErrorScope('validation');
    try {
      return fn();
    } finally {
      const scopes = [this.device.popErrorScope(), this.device.popErrorScope()];
      this.pending.push(this.collect(what, scopes, explainedBy));
    }
  }

  /** Waits for every outstanding error scope, then throws the sticky error if there is one. */
  async settle(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      await Promise.all(batch);
    }
    this.check();
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure;
  }

  /**
   * A check that completes later (a launch's trap record, runtime/launch.ts; whether a kernel's
   * WGSL compiled, pipeline-cache.ts): its error is thrown once by the next `settle`. Unlike
   * device faults it is not sticky: the device is fine after a kernel traps or fails to
   * compile, so other launches may run.
   */
  watch(check: Promise<PtxError | undefined>): void {
    this.pending.push(check.then((e) => { if (e) this.failure ??= e; }));
  }

  /** Stops reporting loss: the owner destroys the device on purpose. */
  close(): void {
    this.closed = true;
  }

  /**
   * Stops watching the device (the context is destroyed): removes the `uncapturederror`
   * listener, which would otherwise outlive the context (Node warns past 10 listeners).
   */
  dispose(): void {
    this.closed = true;
    this.device.removeEventListener('uncapturederror', this.onUncapturedError);
  }

  private async collect(what: string, scopes: Promise<GPUError | null>[], explainedBy?: Promise<PtxError | undefined>): Promise<void> {
    for (const scope of scopes) {
      const err = await scope.catch((e: unknown) => ({ message: String(e) }));
      if (err && !(explainedBy && (await explainedBy))) this.record(deviceError(`${what} failed: ${err.message}`));
    }
  }

  private record(error: PtxError): void {
    this.error ??= error;
  }
}
