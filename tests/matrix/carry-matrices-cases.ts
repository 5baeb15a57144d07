// Small mma.sync m16n8k16 loops for the carry-matrices pass (lowering/carry-matrices.ts), written
// as PTX here: one warp multiplies `n` (A, B) pairs into one accumulator tile, each lane loading
// its own fragment registers from A (4 words per lane per step) and B (2 words), and stores its D
// registers after the loop. The kernels differ in how the accumulators enter the loop, the loop's
// shape, and whether the loop itself reads them:
//  - carry_f32_zero: f32 accumulators from zero, a bottom-tested loop of 4 steps;
//  - carry_f32_loaded: f32 C loaded from D's buffer before the loop (D = C + sum of products);
//  - carry_f16_zero: f16 accumulators (two .b32 registers of .f16x2) from zero;
//  - carry_b32_guarded: f32 accumulators held in .b32 registers (as Triton writes them), the loop
//    skipped when n is 0, so the epilogue is reached from before the loop too;
//  - carry_f32_top_test: the loop tests n at its top and jumps back at its bottom;
//  - carry_f32_nested: the loop of n steps runs twice inside an outer loop (2n steps in all);
//  - keep_relu: max(D, 0) each step is the next C;
//  - keep_running_sum: the loop also adds D's first register to a sum, added to it after the loop;
//  - keep_two_exits: a (never taken, warp-uniform) early exit past the epilogue.
// Parameters: A (u64), B (u64), D (u64), n (u32). Launch one block of 32 threads.

export const CARRY_KERNELS = [
  'carry_f32_zero', 'carry_f32_loaded', 'carry_f16_zero', 'carry_b32_guarded', 'carry_f32_top_test', 'carry_f32_nested',
  'keep_relu', 'keep_running_sum', 'keep_two_exits',
] as const;
export type CarryKernel = typeof CARRY_KERNELS[number];

interface Form {
  /** f32: four .f32 registers; b32: four .b32 registers read as f32; f16: two .b32 of .f16x2. */
  readonly acc: 'f32' | 'b32' | 'f16';
  readonly init: 'zero' | 'load';
  /** bottom: test at the end; guarded: also skipped when n is 0; top: test at the top; nested: twice. */
  readonly shape: 'bottom' | 'guarded' | 'top' | 'nested';
  readonly extra?: 'relu' | 'sum' | 'exit';
}

export const FORMS: Readonly<Record<CarryKernel, Form>> = {
  carry_f32_zero: { acc: 'f32', init: 'zero', shape: 'bottom' },
  carry_f32_loaded: { acc: 'f32', init: 'load', shape: 'bottom' },
  carry_f16_zero: { acc: 'f16', init: 'zero', shape: 'bottom' },
  carry_b32_guarded: { acc: 'b32', init: 'zero', shape: 'guarded' },
  carry_f32_top_test: { acc: 'f32', init: 'zero', shape: 'top' },
  carry_f32_nested: { acc: 'f32', init: 'zero', shape: 'nested' },
  keep_relu: { acc: 'f32', init: 'zero', shape: 'bottom', extra: 'relu' },
  keep_running_sum: { acc: 'f32', init: 'zero', shape: 'bottom', extra: 'sum' },
  keep_two_exits: { acc: 'f32', init: 'zero', shape: 'bottom', extra: 'exit' },
};

function entry(name: CarryKernel, f: Form): string {
  const f16 = f.acc === 'f16';
  const regs = f16 ? ['%r10', '%r11'] : f.acc === 'b32' ? ['%r10', '%r11', '%r12', '%r13'] : ['%f1', '%f2', '%f3', '%f4'];
  const acc = `{${regs.join(', ')}}`;
  const types = f16 ? 'f16.f16.f16.f16' : 'f32.f16.f16.f32';
  const lines: string[] = [
    `.visible .entry ${name}(.param .u64 pa, .param .u64 pb, .param .u64 pd, .param .u32 pn)`,
    '{',
    '  .reg .pred %p<4>;',
    '  .reg .b32 %r<24>;',
    '  .reg .f32 %f<8>;',
    '  .reg .b64 %rd<12>;',
    '  ld.param.u64 %rd1, [pa];',
    '  ld.param.u64 %rd2, [pb];',
    '  ld.param.u64 %rd3, [pd];',
    '  ld.param.u32 %r20, [pn];',
    '  cvta.to.global.u64 %rd1, %rd1;',
    '  cvta.to.global.u64 %rd2, %rd2;',
    '  cvta.to.global.u64 %rd3, %rd3;',
    '  mov.u32 %r1, %tid.x;',
    '  mul.wide.u32 %rd4, %r1, 16;',
    '  add.s64 %rd5, %rd1, %rd4;',
    '  mul.wide.u32 %rd6, %r1, 8;',
    '  add.s64 %rd7, %rd2, %rd6;',
    `  add.s64 %rd9, %rd3, ${f16 ? '%rd6' : '%rd4'};`,
  ];
  if (f.init === 'load') lines.push(`  ld.global.v4.f32 ${acc}, [%rd9];`);
  else for (const r of regs) lines.push(r.startsWith('%f') ? `  mov.f32 ${r}, 0f00000000;` : `  mov.b32 ${r}, 0;`);
  if (f.extra === 'sum') lines.push('  mov.f32 %f5, 0f00000000;');
  if (f.shape === 'nested') lines.push('  mov.u32 %r14, 0;', 'OUTER:');
  lines.push('  mov.u32 %r2, 0;');
  if (f.shape === 'guarded') lines.push('  setp.eq.u32 %p2, %r20, 0;', '  @%p2 bra DONE;');
  lines.push('LOOP:');
  if (f.shape === 'top') lines.push('  setp.ge.u32 %p1, %r2, %r20;', '  @%p1 bra DONE;');
  if (f.extra === 'exit') lines.push('  setp.gt.u32 %p3, %r2, %r20;', '  @%p3 bra END;');
  lines.push(
    '  ld.global.v4.b32 {%r3, %r4, %r5, %r6}, [%rd5];',
    '  ld.global.v2.b32 {%r7, %r8}, [%rd7];',
    `  mma.sync.aligned.m16n8k16.row.col.${types} ${acc}, {%r3, %r4, %r5, %r6}, {%r7, %r8}, ${acc};`,
  );
  if (f.extra === 'relu') for (const r of regs) lines.push(`  max.f32 ${r}, ${r}, 0f00000000;`);
  if (f.extra === 'sum') lines.push('  add.f32 %f5, %f5, %f1;');
  lines.push('  add.s64 %rd5, %rd5, 512;', '  add.s64 %rd7, %rd7, 256;', '  add.u32 %r2, %r2, 1;');
  if (f.shape === 'top') lines.push('  bra LOOP;');
  else lines.push('  setp.lt.u32 %p1, %r2, %r20;', '  @%p1 bra LOOP;');
  if (f.shape === 'nested') lines.push('  add.u32 %r14, %r14, 1;', '  setp.lt.u32 %p2, %r14, 2;', '  @%p2 bra OUTER;');
  lines.push('DONE:');
  if (f.extra === 'sum') lines.push('  add.f32 %f1, %f1, %f5;');
  lines.push(f16 ? `  st.global.v2.b32 [%rd9], ${acc};` : `  st.global.v4.${f.acc === 'b32' ? 'b32' : 'f32'} [%rd9], ${acc};`);
  lines.push('END:', '  ret;', '}');
  return lines.join('\n');
}

/** The mma steps a kernel takes for its parameter n. */
export const stepsOf = (kernel: CarryKernel, n: number): number => (FORMS[kernel].shape === 'nested' ? 2 * n : n);

/** The module with every kernel. */
export function carryPtx(): string {
  return ['.version 7.0', '.target sm_80', '.address_size 64', '', ...CARRY_KERNELS.map((k) => entry(k, FORMS[k]))].join('\n\n');
}
