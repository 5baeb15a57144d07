/**
 * Launches recorded into one command encoder (and one compute pass while nothing else is
 * recorded) and submitted together: at the end of the current task, once the batch is full, or
 * before any other queue operation of the context (`flush`). Within one task the batches grow
 * 1, 2, 4 ... `LIMIT` launches, so the GPU starts on the first launch at once and a long run of
 * launches still pays one submit per `LIMIT`.
 *
 * Why: on Dawn a submit costs 40-60 us of CPU, more than an H100 takes to copy 128 MB, so one
 * submit per launch made back-to-back launches CPU-bound (launch() reached 0.71-0.79 of CUDA's
 * bandwidth while the same shaders dispatched in one pass reached 0.91-1.00).
 *
 * Ordering contract: every queue operation of the context (writes, copies, reads, frees,
 * synchronize) calls `flush` first, so work reaches the queue in the order the caller issued it;
 * WebGPU orders dispatches within a pass, so launches see each other's results. Encoding errors
 * surface at `finish`, which runs inside the monitor's error scopes (labelled with the kernels
 * of the batch).
 *
 * A launch whose pipeline is not yet known to be valid (pipeline-cache.ts) is recorded in a
 * batch of its own (`isolate`), with later launches of the same pipeline: if the kernel's WGSL
 * does not compile, only that submit fails, the error is reported once as that kernel's
 * (not as a sticky device error), and the other kernels' launches run.
 */
import type { DeviceMonitor } from './device.js';
import type { PipelineStatus } from './pipeline-cache.js';

/** Launches per submit: enough to amortise the submit, few enough that the GPU starts early. */
const LIMIT = 16;

export class CommandBatch {
  private encoder: GPUCommandEncoder | undefined;
  private pass: GPUComputePassEncoder | undefined;
  private launches = 0;
  private limit = 1;
  private kernels = new Set<string>();
  private after: (() => void)[] = [];
  private scheduled = false;
  /** The status of the unverified pipeline this batch's launches use, if any. */
  private unverified: PipelineStatus | undefined;

  constructor(private readonly device: GPUDevice, private readonly monitor: DeviceMonitor) {}

  /** True while recorded launches wait for their submit. */
  get pending(): boolean {
    return this.encoder !== undefined;
  }

  /** The encoder for commands outside a compute pass (clears, copies); ends the open pass. */
  commands(kernel: string): GPUCommandEncoder {
    this.pass?.end();
    this.pass = undefined;
    return this.open(kernel);
  }

  /** A compute pass to record one launch's dispatch into. */
  computePass(kernel: string): GPUComputePassEncoder {
    const encoder = this.open(kernel);
    this.pass ??= encoder.beginComputePass();
    return this.pass;
  }

  /**
   * Called before a launch records its commands, with its pipeline's status while unverified:
   * a launch with an unverified pipeline and one without never share a submit.
   */
  isolate(unverified: PipelineStatus | undefined): void {
    if (unverified !== this.unverified) {
      this.flush();
      this.unverified = unverified;
    }
  }

  /** Marks the end of one launch's commands; `afterSubmit` runs once the batch is submitted. */
  recorded(afterSubmit?: () => void): void {
    if (afterSubmit) this.after.push(afterSubmit);
    if (++this.launches >= this.limit) {
      this.flush();
      this.limit = Math.min(2 * this.limit, LIMIT);
    }
  }

  /** Submits what is recorded. */
  flush(): void {
    const encoder = this.encoder;
    if (!encoder) return;
    const names = [...this.kernels].map((k) => `'${k}'`).join(', ');
    const after = this.after;
    const unverified = this.unverified;
    this.unverified = undefined;
    this.pass?.end();
    this.encoder = undefined;
    this.pass = undefined;
    this.launches = 0;
    this.kernels = new Set();
    this.after = [];
    try {
      // A submit that fails because its pipeline did not compile is that kernel's error (watched), not the device's.
      if (unverified) this.monitor.watch(unverified);
      this.monitor.scoped(`launching kernel${names.includes(',') ? 's' : ''} ${names}`, () => {
        this.device.queue.submit([encoder.finish()]);
      }, unverified);
    } catch {
      return; // a sticky device error: the context's next call reports it
    }
    for (const f of after) f();
  }

  private open(kernel: string): GPUCommandEncoder {
    this.kernels.add(kernel);
    if (!this.encoder) {
      this.encoder = this.device.createCommandEncoder({ label: 'ptx-wgsl launches' });
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => { this.scheduled = false; this.limit = 1; this.flush(); });
      }
    }
    return this.encoder;
  }
}
