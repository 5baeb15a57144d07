/**
 * Declarations of the buffers the runtime owns per module (layout.ts): the module's `.const`
 * variables (a uniform buffer up to 64 KiB, else read-only storage), its `.global` variables (read_write storage, persistent across
 * launches), and the trap record with `ptx_trap`, which counts trapping threads and keeps the
 * source offset of the first trap for the runtime's error. Also the per-thread clock.
 */
import type { FunctionMemory, WindowRegion } from '../../src/ir/function.js';
import { UNIFORM_CONST_BYTES, type BindingLayout } from '../layout.js';

export function ownedDeclarations(memory: FunctionMemory, traps: boolean, bindings: BindingLayout[]): string[] {
  const out: string[] = [];
  const next = (): number => Math.max(...bindings.map((b) => b.binding)) + 1;
  const image = (space: 'global' | 'const', name: string, region: WindowRegion): void => {
    if (!region.used) return;
    const binding = next();
    const uniform = space === 'const' && region.view === 'vec4<u32>' && region.staticBytes <= UNIFORM_CONST_BYTES;
    const access = uniform ? 'uniform' : space === 'const' ? 'read' : 'read_write';
    const init = region.init ?? new Uint8Array(0);
    let last = init.length;
    while (last > 0 && init[last - 1] === 0) last--;
    // a uniform array has a fixed length, and WGSL rejects a constant index past it: the whole
    // 64 KiB bank, so that no constant offset PTX can write into it fails shader creation
    bindings.push({ kind: 'module-memory', binding, space, access, element: region.view, bytes: uniform ? UNIFORM_CONST_BYTES : region.staticBytes, init: [...init.subarray(0, last)] });
    out.push(uniform
      ? `@group(0) @binding(${binding}) var<uniform> ${name}: array<vec4<u32>, ${UNIFORM_CONST_BYTES / 16}>;`
      : `@group(0) @binding(${binding}) var<storage, ${access}> ${name}: array<${region.view}>;`);
  };
  image('const', 'ptx_const', memory.constant);
  image('global', 'ptx_globals', memory.moduleGlobal);
  if (traps) {
    const binding = next();
    bindings.push({ kind: 'trap', binding, access: 'read_write' });
    out.push(
      `@group(0) @binding(${binding}) var<storage, read_write> ptx_trap_record: array<atomic<u32>, 4>;`,
      'fn ptx_trap(at: u32) { if (atomicAdd(&ptx_trap_record[0], 1u) == 0u) { atomicStore(&ptx_trap_record[1], at); } }',
    );
  }
  return out;
}

/**
 * The clock's function: the emitter `call`s it like a library helper (a scan of the body's
 * lines for it flattened every line), and it is declared here, not linked from the library.
 */
export const CLOCK_TICK = 'ptx_clock_tick';

/**
 * `%clock`, `%clock64` and `%globaltimer`: WebGPU shaders cannot read a clock, so each thread
 * counts its own reads. The values are monotonic per thread (every read is larger than the one
 * before, so `t1 - t0 > 0` holds as on a GPU) but measure nothing: they start at 1 and are not
 * comparable across threads. 64 bits wide, `%clock` is the low word.
 */
export function clockDeclarations(used: ReadonlySet<string>): string[] {
  if (!used.has(CLOCK_TICK)) return [];
  return [
    'var<private> ptx_clock: vec2<u32>;',
    'fn ptx_clock_tick() -> vec2<u32> { ptx_clock.x += 1u; ptx_clock.y += select(0u, 1u, ptx_clock.x == 0u); return ptx_clock; }',
  ];
}
