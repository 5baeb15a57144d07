/**
 * The instruction table of the emitter: one entry per IR op (TypeGPU `Transpilers`).
 * Value-producing entries return a WGSL expression; effects write statements and return
 * undefined.
 */
import type { Inst, InstOf, Op } from '../../src/ir/inst.js';
import type { InstContext } from './expr-context.js';
import * as D from './emit-data.js';
import * as F from './emit-float.js';
import * as I from './emit-int.js';
import { emitLoad, emitStore, regionPlace, type Place } from './emit-memory.js';
import { emitAtomic, emitFence } from './emit-atomic.js';
import * as W from './emit-warp.js';
import { emitBarrier } from './emit-barrier.js';
import { emitMbarrier, emitMbarrierWait } from './emit-mbarrier.js';
import { matrixFill, matrixLdmatrix, matrixStage, matrixUnstage, matrixLoad, matrixMma, matrixStore } from './emit-matrix.js';

type Emit<K extends Op> = (cx: InstContext, inst: InstOf<K>) => string | undefined;

function place(cx: InstContext, inst: InstOf<'load' | 'store' | 'atomic'>): Place | undefined {
  const memory = cx.fn.memory;
  if (!memory || !inst.region) { cx.unsupported('a memory access without a resolved region'); return undefined; }
  const p = regionPlace(memory, inst.region);
  if (!p) { cx.unsupported(`memory in the ${inst.region.kind} region`); return undefined; }
  return p.hi !== undefined ? { ...p, hi: `${cx.ref(inst.address)}.y` } : p;
}

const EMITTERS: { readonly [K in Op]: Emit<K> } = {
  const: (cx, i) => D.constant(i.type, i.bits, (n, ...a) => cx.call(n, ...a)),
  undef: (cx, i) => D.constant(i.type, 0n, (n, ...a) => cx.call(n, ...a)),
  bitcast: D.bitcast,
  extract: D.extract,
  compose: D.compose,
  ibinary: I.intBinary,
  iunary: I.intUnary,
  ibits: I.intBits,
  mul_wide: I.mulWide,
  icmp: I.intCompare,
  extend: I.extend,
  truncate: I.truncate,
  fbinary: F.floatBinary,
  fma: F.fma,
  funary: F.floatUnary,
  fcmp: F.floatCompare,
  convert: F.convert,
  select: D.select,
  special: (cx, i) => D.special(cx, i, cx.dynamicSmemBytes, cx.fn.memory?.shared.staticBytes ?? 0),
  kernel_param: (cx, i) => D.kernelParam(cx, i),
  address_of: (cx, i) => cx.unsupported(`the address of \`${i.symbol}\` in the ${i.space} space`),
  cvta: (cx, i) => cx.ref(i.value),
  load: (cx, i) => { const p = place(cx, i); return p ? emitLoad(cx, p, i) : '0u'; },
  store: (cx, i) => { const p = place(cx, i); if (p) emitStore(cx, p, i); return undefined; },
  atomic: (cx, i) => { const p = place(cx, i); return p ? emitAtomic(cx, p, i) : '0u'; },
  mbarrier: emitMbarrier,
  mbarrier_wait: emitMbarrierWait,
  barrier: emitBarrier,
  fence: emitFence,
  trap_if: (cx, i) => { cx.line(`if (${cx.ref(i.cond)}) { ptx_trap(${i.at}u); }`); cx.traps = true; cx.trapReasons.set(i.at, i.reason); return undefined; },
  shfl: W.shfl,
  vote: W.vote,
  activemask: W.activemask,
  match: W.match,
  redux: W.redux,
  warp_sync: W.warpSync,
  call: (cx, i) => cx.unsupported(`calls of device functions (\`${i.callee}\`)`),
  matrix_load: matrixLoad,
  matrix_store: matrixStore,
  matrix_mma: matrixMma,
  matrix_fill: matrixFill,
  matrix_stage: matrixStage,
  matrix_unstage: matrixUnstage,
  matrix_ldmatrix: matrixLdmatrix,
};

export function emitInst(cx: InstContext, inst: Inst): string | undefined {
  return (EMITTERS[inst.op] as Emit<Op>)(cx, inst as InstOf<Op>);
}
