// Instruction-level mbarrier tests: a script of mbarrier operations, written out as hand PTX
// (every thread runs it on its own object) and run by a JS model of the object written from
// the PTX ISA ("mbarrier": contents, phase completion, arrive-on, expect-tx, complete-tx,
// test_wait/try_wait, pending_count). The script records what PTX lets a program observe:
// wait results (by token and by parity) and the pending counts of `.noComplete` tokens.

export type Space = 'shared' | 'shared::cta' | 'shared::cluster' | 'generic';

export type Step =
  | { readonly op: 'init'; readonly count: number }
  | { readonly op: 'inval' }
  /** arrive / arrive_drop (`drop`), `.noComplete`, count; the token goes to slot `token`; `record` its pending_count. */
  | { readonly op: 'arrive'; readonly count?: number; readonly drop?: boolean; readonly noComplete?: boolean; readonly token?: number; readonly record?: boolean }
  | { readonly op: 'arrive.expect_tx'; readonly tx: number; readonly token?: number }
  | { readonly op: 'expect_tx' | 'complete_tx'; readonly tx: number }
  /** test_wait / try_wait by token slot or by parity; records 1 or 0. */
  | { readonly op: 'test_wait' | 'try_wait'; readonly token?: number; readonly parity?: number; readonly hint?: boolean };

/** The object as the ISA describes it. */
class Mbarrier {
  phase = 0;
  pending = 0;
  expected = 0;
  tx = 0;
  init(count: number): void { this.phase = 0; this.pending = count; this.expected = count; this.tx = 0; }
  /** expect-tx, then the arrive-on (after arrive_drop's decrement of the expected count). */
  step(arrive: number, drop: number, tx: number): { phase: number; pending: number } {
    const before = { phase: this.phase, pending: this.pending };
    this.expected -= drop;
    this.tx += tx;
    this.pending -= arrive;
    if (this.pending === 0 && this.tx === 0) { this.phase ^= 1; this.pending = this.expected; }
    return before;
  }
  /** Only the current phase and the one before can be asked about: complete iff parity differs. */
  completed(parity: number): boolean { return (this.phase & 1) !== (parity & 1); }
}

/** The values a thread running `script` writes, in order. */
export function runScript(script: readonly Step[]): number[] {
  const bar = new Mbarrier();
  const tokens = new Map<number, { phase: number; pending: number }>();
  const out: number[] = [];
  for (const s of script) {
    switch (s.op) {
      case 'init': bar.init(s.count); break;
      case 'inval': break;
      case 'arrive': {
        const n = s.count ?? 1;
        const t = bar.step(n, s.drop ? n : 0, 0);
        if (s.token !== undefined) tokens.set(s.token, t);
        if (s.record) out.push(t.pending);
        break;
      }
      case 'arrive.expect_tx': { const t = bar.step(1, 0, s.tx); if (s.token !== undefined) tokens.set(s.token, t); break; }
      case 'expect_tx': bar.step(0, 0, s.tx); break;
      case 'complete_tx': bar.step(0, 0, -s.tx); break;
      default: {
        const parity = s.parity ?? tokens.get(s.token ?? -1)?.phase ?? 0;
        out.push(bar.completed(parity) ? 1 : 0);
      }
    }
  }
  return out;
}

export function recordedCount(script: readonly Step[]): number {
  return script.filter((s) => s.op === 'test_wait' || s.op === 'try_wait' || (s.op === 'arrive' && s.record)).length;
}

/** The address operand and space suffix for step k: the spellings rotate through `spaces`. */
function spelled(space: Space): { suffix: string; addr: string } {
  if (space === 'generic') return { suffix: '', addr: '[%gbar]' };
  return { suffix: `.${space}`, addr: '[%bar]' };
}

/**
 * A kernel `name(.u64 out)` in which each thread (or, with `guard`, each thread t with
 * t % 3 == 1) runs `script` on its own mbarrier and writes its recorded values at
 * out[t * recorded + i].
 */
export function scriptKernel(name: string, script: readonly Step[], guard: boolean): string {
  const n = recordedCount(script);
  const lines: string[] = [];
  let k = 0;
  let slot = 0;
  const record = (reg: string): void => { lines.push(`st.global.u32 [%out+${4 * slot++}], ${reg};`); };
  const spaces: Space[] = ['shared::cta', 'generic', 'shared'];
  for (const s of script) {
    const space = spaces[k++ % spaces.length] as Space;
    const { suffix, addr } = spelled(space);
    switch (s.op) {
      case 'init': lines.push(`mbarrier.init${suffix}.b64 ${addr}, ${s.count};`); break;
      case 'inval': lines.push(`mbarrier.inval${suffix}.b64 ${addr};`); break;
      case 'arrive': {
        const mode = `${s.drop ? 'arrive_drop' : 'arrive'}${s.noComplete ? '.noComplete' : ''}`;
        const dst = s.token !== undefined ? `%tok${s.token}` : '%scratch';
        const count = s.count !== undefined || s.noComplete ? `, ${s.count ?? 1}` : '';
        lines.push(`mbarrier.${mode}${s.noComplete ? '' : '.release.cta'}${suffix}.b64 ${dst}, ${addr}${count};`);
        if (s.record) { lines.push(`mbarrier.pending_count.b64 %v, ${dst};`); record('%v'); }
        break;
      }
      case 'arrive.expect_tx': lines.push(`mbarrier.arrive.expect_tx.release.cta${suffix}.b64 ${s.token !== undefined ? `%tok${s.token}` : '%scratch'}, ${addr}, ${s.tx};`); break;
      case 'expect_tx': case 'complete_tx': {
        // the tx forms also take `.shared::cluster` (the CTA's own shared memory here)
        const sp = space === 'shared' ? spelled('shared::cluster') : spelled(space);
        lines.push(`mov.u32 %v, ${s.tx};`, `mbarrier.${s.op}.relaxed.cta${sp.suffix}.b64 ${sp.addr}, %v;`);
        break;
      }
      default: {
        const form = s.parity !== undefined ? `.parity` : '';
        const what = s.parity !== undefined ? String(s.parity) : `%tok${s.token ?? 0}`;
        const hint = s.op === 'try_wait' && s.hint ? ', 1000' : '';
        lines.push(`mbarrier.${s.op}${form}.acquire.cta${suffix}.b64 %p, ${addr}, ${what}${hint};`, 'selp.u32 %v, 1, 0, %p;');
        record('%v');
      }
    }
  }
  return [
    `.visible .entry ${name}(.param .u64 out_param) {`,
    '.reg .b32 %t, %bar, %v; .reg .b64 %out, %gbar, %scratch, %tok<8>, %rd<4>; .reg .pred %p, %skip;',
    `.shared .align 8 .b64 ${name}_bars[256];`,
    'mov.u32 %t, %tid.x;',
    ...(guard ? ['rem.u32 %v, %t, 3;', 'setp.ne.u32 %skip, %v, 1;', '@%skip bra DONE;'] : []),
    `mov.u32 %bar, ${name}_bars;`,
    'mad.lo.u32 %bar, %t, 8, %bar;',
    'cvt.u64.u32 %rd1, %bar;',
    'cvta.shared.u64 %gbar, %rd1;',
    'ld.param.u64 %rd2, [out_param];',
    'cvta.to.global.u64 %rd2, %rd2;',
    `mul.wide.u32 %rd3, %t, ${4 * n};`,
    'add.u64 %out, %rd2, %rd3;',
    ...lines,
    'DONE:',
    'ret;',
    '}',
  ].join('\n');
}

/** A module of kernels, for sm_90 (try_wait, arrive counts without .noComplete, tx-counts). */
export function scriptModule(kernels: readonly string[]): string {
  return ['.version 8.0', '.target sm_90', '.address_size 64', '', ...kernels].join('\n');
}
