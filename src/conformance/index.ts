/**
 * `ptx-wgsl/conformance`: the instruction-level conformance runner, for any host with WebGPU.
 * Load the shipped data (the package's dist/conformance/; served beside a page, fetch it with
 * fetchConformanceFiles), make a context on the device to test, and run the families: every
 * output is compared with what an NVIDIA GPU computed.
 *
 *   const data = await loadConformance(fetchConformanceFiles(new URL('conformance/', location.href)));
 *   const families = await runConformance(data, await createContext(), { warpPaths: ['auto', 'emulated'] });
 */
export { loadConformance, fetchConformanceFiles, type ConformanceData, type ConformanceIndex, type ReadConformanceFile } from './data.js';
export { runConformance, selectFamilies, passed, deviceWarpPath, type ConformanceOptions, type ConformanceStep, type FamilyResult, type PathResult } from './suite.js';
export { runBatch } from './run.js';
export type { BatchResult, FormFailure, WarpPathRequest } from './result.js';
export { suiteOf, isKernelBatch, type AnyBatch, type ConformanceBatch, type BatchManifest, type BatchForm, type KernelBatch, type KernelCase } from './batch.js';
