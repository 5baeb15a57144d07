/**
 * PTX kernels of the atomics tests, generated per (space, op, type). The same text runs on
 * WebGPU in the tests and natively (tests/atomics/native/record.py records the deterministic ones).
 *
 * `contend`: every thread applies `atom.<op>.<type>` with its own operand (and compare value)
 * to the single word at out[0], and writes the value it got back to olds[tid]; with
 * space = shared (or generic pointing to shared) the word lives in shared memory, is loaded
 * from out[0] first and stored back after a barrier.
 * `each`: thread t applies the atomic to out[t] with operand vals[t], one address per thread
 * (deterministic: checks per-operation arithmetic, e.g. rounding and subnormals).
 */
export type Space = 'global' | 'shared' | 'generic-shared' | 'generic-global';

export interface AtomSpec {
  readonly space: Space;
  /** PTX operation with its qualifiers, e.g. `add`, `add.noftz`, `cas`, `relaxed.gpu` goes in `sem`. */
  readonly op: string;
  readonly type: string; // u32 s32 b32 f32 u64 s64 b64 f64 f16x2 bf16x2 b16 bf16
  readonly sem?: string; // e.g. '.relaxed.gpu', '.acq_rel.cta'
  /** `red` instead of `atom` (olds are then not written). */
  readonly red?: boolean;
}

export function elementBytes(type: string): 2 | 4 | 8 {
  if (type === 'b16' || type === 'bf16' || type === 'f16') return 2;
  return type.endsWith('64') ? 8 : 4;
}

function regOf(type: string): { cls: string; reg: string; ld: string } {
  const bytes = elementBytes(type);
  if (type === 'f32') return { cls: '.f32', reg: '%f', ld: 'f32' };
  if (type === 'f64') return { cls: '.f64', reg: '%fd', ld: 'f64' };
  if (bytes === 8) return { cls: '.b64', reg: '%x', ld: 'b64' };
  if (bytes === 2) return { cls: '.b16', reg: '%h', ld: 'b16' };
  return { cls: '.b32', reg: '%w', ld: 'b32' };
}

function atomText(s: AtomSpec, addr: string, v: string, c: string, d: string): string {
  const sp = s.space === 'global' ? '.global' : s.space === 'shared' ? '.shared' : '';
  // cas: b is the compare value, c the new one
  const operands = s.op === 'cas' ? `${c}, ${v}` : v;
  return s.red ? `red${s.sem ?? ''}${sp}.${s.op}.${s.type} [${addr}], ${v};` : `atom${s.sem ?? ''}${sp}.${s.op}.${s.type} ${d}, [${addr}], ${operands};`;
}

/** bf16 atomics need sm_90 (PTX ISA, atom); everything else is sm_80 PTX. */
const header = (type: string): string => `.version 8.0\n.target ${type.startsWith('bf16') ? 'sm_90' : 'sm_80'}\n.address_size 64\n`;

export function contendKernel(s: AtomSpec): string {
  const { cls, reg: r, ld } = regOf(s.type);
  const bytes = elementBytes(s.type);
  const onShared = s.space === 'shared' || s.space === 'generic-shared';
  const lines = [
    header(s.type),
    onShared ? '.shared .align 8 .b8 sh[8];' : '',
    '.visible .entry contend(.param .u64 out, .param .u64 olds, .param .u64 vals, .param .u64 cmps) {',
    `  .reg ${cls} ${r}<4>; .reg .b32 %r<8>; .reg .b64 %rd<16>; .reg .pred %p<2>;`,
    '  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [olds]; ld.param.u64 %rd3, [vals]; ld.param.u64 %rd4, [cmps];',
    '  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2; cvta.to.global.u64 %rd3, %rd3; cvta.to.global.u64 %rd4, %rd4;',
    '  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mad.lo.u32 %r4, %r2, %r3, %r1;',
    `  mul.wide.u32 %rd5, %r4, ${bytes}; add.u64 %rd6, %rd3, %rd5; ld.global.${ld} ${r}1, [%rd6];`,
    `  add.u64 %rd7, %rd4, %rd5; ld.global.${ld} ${r}2, [%rd7];`,
  ];
  let addr = '%rd1';
  if (onShared) {
    lines.push(
      '  setp.eq.u32 %p1, %r1, 0;',
      `  @%p1 ld.global.${ld} ${r}0, [%rd1];`,
      `  @%p1 st.shared.${ld} [sh], ${r}0;`,
      '  bar.sync 0;',
    );
    if (s.space === 'generic-shared') { lines.push('  mov.u64 %rd8, sh;', '  cvta.shared.u64 %rd9, %rd8;'); addr = '%rd9'; }
    else addr = 'sh';
  } else if (s.space === 'generic-global') {
    lines.push('  cvta.global.u64 %rd9, %rd1;'); addr = '%rd9';
  }
  lines.push(`  ${atomText(s, addr, `${r}1`, `${r}2`, `${r}3`)}`);
  if (!s.red) lines.push(`  add.u64 %rd10, %rd2, %rd5; st.global.${ld} [%rd10], ${r}3;`);
  if (onShared) lines.push('  bar.sync 0;', `  @%p1 ld.shared.${ld} ${r}0, [sh];`, `  @%p1 st.global.${ld} [%rd1], ${r}0;`);
  lines.push('  ret;', '}', '');
  return lines.join('\n');
}

/** Thread t: atomic on out[t] (global) or on its own shared slot, operand vals[t], compare cmps[t]. */
export function eachKernel(s: AtomSpec, threads: number): string {
  const { cls, reg: r, ld } = regOf(s.type);
  const bytes = elementBytes(s.type);
  const onShared = s.space === 'shared';
  const lines = [
    header(s.type),
    onShared ? `.shared .align 8 .b8 sh[${threads * bytes}];` : '',
    '.visible .entry each(.param .u64 out, .param .u64 olds, .param .u64 vals, .param .u64 cmps) {',
    `  .reg ${cls} ${r}<4>; .reg .b32 %r<8>; .reg .b64 %rd<16>;`,
    '  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [olds]; ld.param.u64 %rd3, [vals]; ld.param.u64 %rd4, [cmps];',
    '  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2; cvta.to.global.u64 %rd3, %rd3; cvta.to.global.u64 %rd4, %rd4;',
    '  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mad.lo.u32 %r4, %r2, %r3, %r1;',
    `  mul.wide.u32 %rd5, %r4, ${bytes}; add.u64 %rd6, %rd3, %rd5; ld.global.${ld} ${r}1, [%rd6];`,
    `  add.u64 %rd7, %rd4, %rd5; ld.global.${ld} ${r}2, [%rd7];`,
    '  add.u64 %rd8, %rd1, %rd5;',
  ];
  let addr = '%rd8';
  if (onShared) {
    lines.push(`  ld.global.${ld} ${r}0, [%rd8];`, '  mov.u64 %rd11, sh;', '  add.u64 %rd12, %rd11, %rd5;', `  st.shared.${ld} [%rd12], ${r}0;`);
    addr = '%rd12';
  }
  lines.push(`  ${atomText(s, addr, `${r}1`, `${r}2`, `${r}3`)}`);
  if (!s.red) lines.push(`  add.u64 %rd10, %rd2, %rd5; st.global.${ld} [%rd10], ${r}3;`);
  if (onShared) lines.push(`  ld.shared.${ld} ${r}0, [%rd12];`, `  st.global.${ld} [%rd8], ${r}0;`);
  lines.push('  ret;', '}', '');
  return lines.join('\n');
}
