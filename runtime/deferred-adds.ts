/**
 * The slot array of deferred float adds (lowering/deferred-adds.ts, binding kind
 * `deferred-adds`): one buffer per context, shared by every launch, since launches run in queue
 * order and each kernel's epilogue leaves the slots it used zeroed. Two words per block, for at
 * most MAX_BLOCKS blocks: blocks beyond the array add at once (the kernel checks the array's
 * length), which bounds the epilogue's walk; WebGPU zeroes a new buffer.
 */
const MAX_BLOCKS = 1 << 16;
const MIN_BYTES = 8192;

export class DeferredAddSlots {
  private current: GPUBuffer | undefined;

  constructor(private readonly device: GPUDevice) {}

  /** A zeroed slot array for a launch of `blocks` blocks (replaced by a larger one when needed). */
  buffer(blocks: number): GPUBuffer {
    const want = Math.max(MIN_BYTES, 2 ** Math.ceil(Math.log2(Math.min(Math.max(blocks, 1), MAX_BLOCKS) * 8)));
    // The old buffer is dropped, not destroyed: launches recorded with it may not have run yet.
    if (!this.current || this.current.size < want) {
      this.current = this.device.createBuffer({ size: want, usage: GPUBufferUsage.STORAGE, label: 'ptx-wgsl deferred adds' });
    }
    return this.current;
  }

  destroy(): void {
    this.current?.destroy();
    this.current = undefined;
  }
}
