/**
 * The error for a kernel whose generated WGSL the device's shader compiler (Tint on Dawn)
 * rejects. Every path that can meet it (a synchronous launch, `prepareAsync`, `runPtx`) builds
 * it here, so the text is the same: the kernel, the request to report it with the PTX input,
 * and each of the compiler's messages with its WGSL line:column and that line.
 */
import type { CompiledKernel } from '../lowering/layout.js';
import type { PtxError } from '../src/diagnostics/ptx-error.js';
import { deviceError } from './errors.js';

/**
 * `cause` is the WebGPU error's own message, used when the shader module has no compilation
 * messages (an error found only when the pipeline is created, with its override values).
 */
export async function wgslCompileError(kernel: CompiledKernel, module: GPUShaderModule, cause: string): Promise<PtxError> {
  const messages = await compilationErrors(module);
  const details = messages.length > 0 ? messages.map((m) => formatMessage(m, kernel.wgsl)) : causeLines(cause);
  return deviceError(
    `the WGSL generated for kernel '${kernel.layout.entry}' does not compile; ` +
      `this is a ptx-wgsl bug, please report it with the PTX input:${details.join('')}`,
  );
}

async function compilationErrors(module: GPUShaderModule): Promise<readonly GPUCompilationMessage[]> {
  try {
    return (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
  } catch {
    return []; // a lost device has no compilation info; the cause still says what failed
  }
}

/** `\n  WGSL 17:38: message` and the WGSL line it points at. */
function formatMessage(m: GPUCompilationMessage, wgsl: string): string {
  const head = `\n  WGSL ${m.lineNum}:${m.linePos}: ${m.message}`;
  const line = m.lineNum > 0 ? wgsl.split('\n')[m.lineNum - 1] : undefined;
  return line === undefined ? head : `${head}\n    ${m.lineNum} | ${line.trim()}`;
}

/** Dawn's message without its call trace (` - While calling [Device].CreateX(...)`), which differs per API. */
function causeLines(cause: string): string[] {
  const lines = cause.split('\n').filter((l) => l.trim() !== '' && !/^\s*- While (calling|validating)/.test(l));
  return (lines.length > 0 ? lines : ['(the WebGPU implementation gave no message)']).map((l) => `\n  ${l.trimEnd()}`);
}
