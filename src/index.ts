/// <reference types="@webgpu/types" preserve="true" />
/** ptx-wgsl: run NVIDIA PTX kernels on any WebGPU device. */
export * from './api.js';
export { compile } from './compile.js';
export { parsePtx } from './ptx/parse.js';
/** f16 host data: kernels read `.f16` buffers as IEEE binary16 bits (Uint16Array). */
export { toHalfBits, fromHalfBits } from '../runtime/half.js';
export type { CompileOptions, CompileResult } from './compile-types.js';
export type { CompiledKernel, KernelLayout, ParamLayout, BindingLayout, WarpReport } from '../lowering/layout.js';
export {
  PtxError,
  DiagnosticCode,
  renderDiagnostic,
  SourceFile,
  type Diagnostic,
  type DiagnosticNote,
  type Severity,
  type Span,
} from './diagnostics/index.js';
