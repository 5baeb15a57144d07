/**
 * Device allocations and the copies between them and host memory.
 *
 * Every allocation lives at its own 4 GiB-aligned virtual address: the high 32 bits are a
 * unique allocation id, the low 32 bits the byte offset. Kernels see these 64-bit addresses
 * (so pointer arithmetic and comparisons behave as in CUDA) and index the bound buffer with the
 * low word; the runtime finds the buffer to bind from the high word.
 */
import { argumentError, hex } from './errors.js';

/** Host memory a copy reads or writes: any TypedArray, a DataView or a whole ArrayBuffer. */
export type HostBuffer = ArrayBufferView | ArrayBuffer;

/** Anything that names a device address: a DeviceBuffer, or `{ address }` pointing into one. */
export interface DevicePointer {
  readonly address: bigint;
}

/** One `malloc`ed region. Its GPUBuffer is padded to 16 bytes so every WGSL view type fits. */
export class DeviceBuffer implements DevicePointer {
  constructor(
    readonly address: bigint,
    /** Bytes requested; the GPUBuffer may be larger (padding). */
    readonly size: number,
    readonly buffer: GPUBuffer,
  ) {}

  /** A pointer `byteOffset` bytes into this allocation (`d + n` in CUDA). */
  at(byteOffset: number): DevicePointer {
    return { address: this.address + BigInt(byteOffset) };
  }
}

const ADDRESS_SHIFT = 32n;
const MAX_ALLOCATION_ID = 0xffff_ffff;
/** Process-wide, so a pointer from one context is never mistaken for another's allocation. */
let nextAllocationId = 1;

export function isHostBuffer(v: unknown): v is HostBuffer {
  return ArrayBuffer.isView(v) || v instanceof ArrayBuffer;
}

/** The exact bytes a host buffer covers (respecting a view's byteOffset and byteLength). */
export function hostBytes(h: HostBuffer): Uint8Array {
  return h instanceof ArrayBuffer ? new Uint8Array(h) : new Uint8Array(h.buffer, h.byteOffset, h.byteLength);
}

export function isDevicePointer(v: unknown): v is DevicePointer {
  return typeof v === 'object' && v !== null && typeof (v as DevicePointer).address === 'bigint';
}

export function roundUp(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}

/** A resolved address: the allocation and the byte offset inside it. */
export interface Location {
  readonly allocation: DeviceBuffer;
  readonly offset: number;
}

/** The live allocations of one context, by id. */
export class AllocationTable {
  private readonly live = new Map<number, DeviceBuffer>();
  /** Counts frees: an address resolved under one generation resolves the same way until it changes. */
  generation = 0;

  constructor(private readonly device: GPUDevice) {}

  allocate(bytes: number): DeviceBuffer {
    if (!Number.isSafeInteger(bytes) || bytes < 0) throw argumentError(`malloc: invalid size ${bytes}`);
    const padded = Math.max(16, roundUp(bytes, 16));
    const limit = this.device.limits.maxBufferSize;
    if (padded > limit) throw argumentError(`malloc: ${bytes} bytes exceeds the device's maxBufferSize (${limit})`);
    if (nextAllocationId > MAX_ALLOCATION_ID) throw argumentError('malloc: allocation ids exhausted');
    const id = nextAllocationId++;
    const buffer = this.device.createBuffer({
      size: padded,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      label: `ptx-wgsl allocation ${id}`,
    });
    const allocation = new DeviceBuffer(BigInt(id) << ADDRESS_SHIFT, bytes, buffer);
    this.live.set(id, allocation);
    return allocation;
  }

  free(pointer: DevicePointer): void {
    const { allocation, offset } = this.resolve(pointer.address, 'free');
    if (offset !== 0) throw argumentError(`free: ${hex(pointer.address)} is not the start of an allocation`);
    this.live.delete(idOf(allocation.address));
    this.generation++;
    allocation.buffer.destroy();
  }

  freeAll(): void {
    for (const a of this.live.values()) a.buffer.destroy();
    this.live.clear();
    this.generation++;
  }

  /** Finds the allocation `address` points into; the end address (one past) is allowed. */
  resolve(address: bigint, what: string): Location {
    const allocation = this.live.get(idOf(address));
    const offset = Number(address & 0xffff_ffffn);
    if (!allocation || offset > allocation.size) {
      throw argumentError(`${what}: ${hex(address)} does not point into a live allocation of this context`);
    }
    return { allocation, offset };
  }

  /** Resolves `pointer` and checks that `bytes` bytes from it stay inside its allocation. */
  resolveRange(pointer: DevicePointer, bytes: number, what: string): Location {
    const loc = this.resolve(pointer.address, what);
    if (loc.offset + bytes > loc.allocation.size) {
      throw argumentError(
        `${what}: ${bytes} bytes at ${hex(pointer.address)} run past the end of its ${loc.allocation.size}-byte allocation`,
      );
    }
    return loc;
  }
}

function idOf(address: bigint): number {
  return Number((address >> ADDRESS_SHIFT) & 0xffff_ffffn);
}
