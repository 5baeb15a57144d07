/**
 * Deferred float adds (lowering/deferred-adds.ts) in WGSL: the runtime-owned slot array
 * `ptx_deferred_adds` (binding kind `deferred-adds`, two words per block: the tag, the target's
 * byte offset + 1 (f32 words are 4-aligned, so the tag of offset 0 is not 0), and the addend's
 * bits), the add that claims its block's slot, and the epilogue entry point the runtime
 * dispatches as one workgroup after the kernel, in the same compute pass.
 *
 * The epilogue walks the slots in block order: 256 invocations copy a chunk of 1024 slots into
 * workgroup memory (clearing them, so the array is zero again for the next launch) and mark the
 * taken ones in a bit set; one invocation then adds the marked ones in order, keeping the
 * target word in a register while consecutive slots name the same word. Each add is rounded as
 * one `red.add.f32` is (`atom_f32_add_ftz`, the compare-exchange loop's function): a dependency
 * chain of a dozen operations per slot, which made the walk of 2048 slots take longer than an
 * H200 takes to read the 268 MB the blocks summed (0.24 ms). So the slots are flushed as they are
 * read, and a chunk of taken slots that all name the same word goes through plain adds, four per
 * vec4 of workgroup memory, exact while no sum is subnormal: one test per four sums beside the
 * chain (a zero sum fails it too) and one at the end, since a NaN propagates to the last sum
 * (Inf - Inf is one); if a test fails, the chunk is added again through the exact function. The
 * slots past a chunk's end read as +0, which leaves the nonzero sums of the fast path unchanged.
 */
import type { IrFunction } from '../../src/ir/function.js';
import { deferredAdds, type DeferredAdds } from '../deferred-adds.js';
import type { BindingLayout } from '../layout.js';
import type { ExprContext } from './expr-context.js';

export const DEFERRED_ADDS = 'ptx_deferred_adds';

const analysed = new WeakMap<IrFunction, DeferredAdds | null>();

/** The function's deferred float adds (lowering/deferred-adds.ts), analysed once per function. */
export function deferredIn(fn: IrFunction): DeferredAdds | undefined {
  let d = analysed.get(fn);
  if (d === undefined) analysed.set(fn, (d = deferredAdds(fn) ?? null));
  return d ?? undefined;
}
/** Slots one epilogue step copies; a multiple of the epilogue's 256 invocations and of 32. */
const CHUNK = 1024;

/**
 * Statements of a deferred add of `bits` (u32) at byte offset `o` of atomic memory `target`:
 * the block's slot if it is free, else `immediate` (the compare-exchange loop's statements).
 * `ptx_lin` is the entry point's linear block index, the order the epilogue applies slots in.
 */
export function deferredAdd(cx: ExprContext, o: string, bits: string, immediate: () => void): void {
  const claimed = cx.temp('deferred');
  cx.line(`var ${claimed} = ptx_lin < (arrayLength(&${DEFERRED_ADDS}) >> 1u);`);
  cx.line(`if (${claimed}) { ${claimed} = atomicCompareExchangeWeak(&${DEFERRED_ADDS}[ptx_lin * 2u], 0u, ${o} + 1u).exchanged; }`);
  cx.line(`if (${claimed}) { atomicStore(&${DEFERRED_ADDS}[ptx_lin * 2u + 1u], ${bits}); } else {`);
  immediate();
  cx.line('}');
}

/**
 * The slot array's binding and the epilogue entry point `entry` that applies the slots to
 * `target` (an `array<atomic<u32>>`); adds the binding to `bindings`.
 */
export function deferredAddsDeclarations(target: string, entry: string, bindings: BindingLayout[]): string[] {
  const binding = Math.max(...bindings.map((b) => b.binding)) + 1;
  bindings.push({ kind: 'deferred-adds', binding, access: 'read_write' });
  const words = CHUNK / 32;
  const flush = (tag: string, word: string): string => `atomicStore(&${target}[(${tag} - 1u) >> 2u], ${word});`;
  return [
    `@group(0) @binding(${binding}) var<storage, read_write> ${DEFERRED_ADDS}: array<atomic<u32>>;`,
    `var<workgroup> ptx_deferred_tags: array<u32, ${CHUNK}>;`,
    `var<workgroup> ptx_deferred_bits: array<vec4<u32>, ${CHUNK / 4}>;`,
    `var<workgroup> ptx_deferred_taken: array<atomic<u32>, ${words}>;`,
    'var<workgroup> ptx_deferred_mixed: atomic<u32>;',
    '@compute @workgroup_size(256)',
    `fn ${entry}(@builtin(local_invocation_index) t: u32) {`,
    `  let blocks = min(ptx_launch[0].x * ptx_launch[0].y * ptx_launch[0].z, arrayLength(&${DEFERRED_ADDS}) >> 1u);`,
    '  var tag = 0u;',
    '  var word = 0u;',
    `  for (var base = 0u; base < blocks; base += ${CHUNK}u) {`,
    `    let n = min(blocks - base, ${CHUNK}u);`,
    `    if (t < ${words}u) { atomicStore(&ptx_deferred_taken[t], 0u); }`,
    '    if (t == 0u) { atomicStore(&ptx_deferred_mixed, 0u); }',
    '    workgroupBarrier();',
    '    for (var j = t; j < n; j += 256u) {',
    '      let k = (base + j) * 2u;',
    `      let g = atomicLoad(&${DEFERRED_ADDS}[k]);`,
    '      ptx_deferred_tags[j] = g;',
    '      ptx_deferred_bits[j >> 2u][j & 3u] = 0u;',
    '      if (g != 0u) {',
    `        ptx_deferred_bits[j >> 2u][j & 3u] = atom_f32_ftz(atomicLoad(&${DEFERRED_ADDS}[k + 1u]));`,
    `        atomicStore(&${DEFERRED_ADDS}[k], 0u);`,
    '        atomicOr(&ptx_deferred_taken[j >> 5u], 1u << (j & 31u));',
    '      }',
    '    }',
    '    workgroupBarrier();',
    // a chunk whose slots are all taken and all name one word (a block reduction's total) is
    // summed straight through: WGSL's correctly rounded `+`, with one test beside the chain
    // (no subnormal or NaN on the way), and the exact adds from the start when it fails
    '    for (var j = t; j < n; j += 256u) { if (ptx_deferred_tags[j] != ptx_deferred_tags[0]) { atomicOr(&ptx_deferred_mixed, 1u); } }',
    `    if (t < 3u && n + t < ${CHUNK}u) { ptx_deferred_bits[(n + t) >> 2u][(n + t) & 3u] = 0u; }`,
    '    workgroupBarrier();',
    '    if (t == 0u) {',
    '      let g0 = ptx_deferred_tags[0];',
    '      if (atomicLoad(&ptx_deferred_mixed) == 0u && g0 != 0u) {',
    `        if (g0 != tag) { if (tag != 0u) { ${flush('tag', 'word')} } tag = g0; word = atomicLoad(&${target}[(g0 - 1u) >> 2u]); }`,
    '        var sum = bitcast<f32>(word);',
    '        var normal = true;',
    '        for (var i = 0u; i < ((n + 3u) >> 2u); i++) {',
    '          let q = bitcast<vec4<f32>>(ptx_deferred_bits[i]);',
    '          let s1 = sum + q.x; let s2 = s1 + q.y; let s3 = s2 + q.z; sum = s3 + q.w;',
    '          normal = normal & (min(min(abs(s1), abs(s2)), min(abs(s3), abs(sum))) >= 0x1p-126f);',
    '        }',
    '        if (normal & (abs(sum) >= 0x1p-126f)) { word = bitcast<u32>(sum); } else {',
    '          for (var j = 0u; j < n; j++) { word = atom_f32_add_ftz(word, ptx_deferred_bits[j >> 2u][j & 3u]); }',
    '        }',
    '      } else {',
    `        for (var w = 0u; w < ${words}u; w++) {`,
    '          var taken = atomicLoad(&ptx_deferred_taken[w]);',
    '          loop {',
    '            if (taken == 0u) { break; }',
    '            let j = w * 32u + firstTrailingBit(taken);',
    '            taken &= taken - 1u;',
    '            let g = ptx_deferred_tags[j];',
    `            if (g != tag) { if (tag != 0u) { ${flush('tag', 'word')} } tag = g; word = atomicLoad(&${target}[(g - 1u) >> 2u]); }`,
    '            word = atom_f32_add_ftz(word, ptx_deferred_bits[j >> 2u][j & 3u]);',
    '          }',
    '        }',
    '      }',
    '    }',
    '    workgroupBarrier();',
    '  }',
    `  if (t == 0u && tag != 0u) { ${flush('tag', 'word')} }`,
    '}',
  ];
}
