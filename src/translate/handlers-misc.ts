/**
 * Instructions with no observable result on WebGPU, and the cluster instructions, which the
 * runtime's launches reduce to clusters of one CTA (special-registers.ts reports
 * %cluster_nctarank 1, %cluster_ctarank 0):
 *  - `nanosleep.u32 t`: a scheduling hint ("suspends the thread for a duration approximately
 *    close to t", in [0, 2t]); sleeping nowhere is within that contract. t is still read, so an
 *    undeclared register is reported.
 *  - `pmevent a`, `pmevent.mask a`: performance-monitor triggers, immediates only (ptxas: a in
 *    [0, 15]; the mask form a 16-bit mask).
 *  - `griddepcontrol.launch_dependents`/`.wait` (programmatic dependent launch): launches run
 *    in stream order, each after the previous one completed, so the dependents are never
 *    early and the prerequisite grids are always complete.
 *  - `setmaxnreg.{inc,dec}.sync.aligned.u32 N`: a register-allocation hint; N is an immediate,
 *    a multiple of 8 in [24, 256] (checked as ptxas checks it).
 *  - `getctarank{.shared::cluster} d, a`: the rank of the CTA whose shared memory a points
 *    into: with one CTA per cluster, 0.
 *  - `mapa{.shared::cluster} d, a, b`: a's counterpart in CTA b's shared memory. The only CTA
 *    of the cluster is rank 0, whose counterpart of a is a itself (`.shared::cta` addresses are
 *    `.shared::cluster` addresses of the executing CTA, and this compiler treats both windows
 *    alike); any other rank is outside the cluster, undefined in PTX, so it traps (R004 at the
 *    `mapa`) rather than handing back an address of memory that does not exist.
 * `brkpt` is a terminator (build-function.ts): it stops the kernel like `trap`.
 */
import type * as Ast from '../ptx/ast.js';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import type { ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';
import type { IrType } from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { operand, typeOf } from './handler.js';

const nanosleep: Handler = (cx, inst) => {
  cx.read(operand(inst, 0), T.i32);
};

/** An immediate operand in [min, max], or a diagnostic naming the instruction. */
function immediate(cx: BuildContext, inst: Ast.Instruction, index: number, name: string, min: number, max: number): number | undefined {
  const op = operand(inst, index);
  if (op.kind === 'integer' && op.value >= BigInt(min) && op.value <= BigInt(max)) return Number(op.value);
  const why = op.kind === 'integer' ? `is ${op.value}, not in [${min}, ${max}]` : 'must be an integer constant';
  cx.diagnostics.push({ code: DiagnosticCode.ParseBadOperand, severity: 'error', span: op.span, message: `\`${name}\`: the operand ${why}` });
  return undefined;
}

const pmevent: Handler = (cx, inst) => {
  const mask = inst.modifiers.extra?.includes('mask') === true;
  immediate(cx, inst, 0, mask ? 'pmevent.mask' : 'pmevent', 0, mask ? 0xffff : 15);
};

/** A diagnostic when a modifier the ISA requires is missing (the parser takes each as optional). */
function requires(cx: BuildContext, inst: Ast.Instruction, present: boolean, form: string): boolean {
  if (!present) cx.diagnostics.push({ code: DiagnosticCode.ParseBadModifier, severity: 'error', span: inst.opcodeSpan, message: `\`${inst.opcode}\` is \`${form}\`` });
  return present;
}

const griddepcontrol: Handler = (cx, inst) => {
  requires(cx, inst, inst.modifiers.mode !== undefined, 'griddepcontrol.{launch_dependents,wait}');
};

const setmaxnreg: Handler = (cx, inst) => {
  const m = inst.modifiers;
  if (!requires(cx, inst, m.mode !== undefined && m.sync === true && m.aligned === true, 'setmaxnreg.{inc,dec}.sync.aligned.u32 N')) return;
  const name = `setmaxnreg.${m.mode ?? 'inc'}`;
  const n = immediate(cx, inst, 0, name, 24, 256);
  if (n !== undefined && n % 8 !== 0) {
    cx.diagnostics.push({ code: DiagnosticCode.ParseBadOperand, severity: 'error', span: operand(inst, 0).span, message: `\`${name}\`: the register count ${n} is not a multiple of 8` });
  }
};

/** The address operand of getctarank/mapa: a register, a variable, or `var+imm`. */
function address(cx: BuildContext, op: Ast.Operand, type: IrType): ValueId {
  if (op.kind === 'expression' && (op.op === '+' || op.op === '-') && op.args.length === 2) {
    const [base, offset] = op.args as [Ast.Operand, Ast.Operand];
    if (offset.kind === 'integer' && (base.kind === 'symbol' || base.kind === 'register')) {
      const k = cx.constant(type, op.op === '+' ? offset.value : -offset.value, op.span);
      return cx.emit({ op: 'ibinary', kind: 'add', type, a: cx.read(base, type), b: k }, op.span);
    }
  }
  return cx.read(op, type);
}

const addressType = (inst: Ast.Instruction): IrType => (typeOf(inst) === 'u64' ? T.i64 : T.i32);

const getctarank: Handler = (cx, inst) => {
  address(cx, operand(inst, 1), addressType(inst));
  cx.write(operand(inst, 0), cx.constant(T.i32, 0n, inst.span));
};

const mapa: Handler = (cx, inst) => {
  const s = inst.span;
  const a = address(cx, operand(inst, 1), addressType(inst));
  const b = operand(inst, 2);
  const rank = cx.read(b, T.i32);
  if (b.kind !== 'integer' || b.value !== 0n) {
    const outside = cx.emit({ op: 'icmp', type: T.pred, cond: 'ne', a: rank, b: cx.constant(T.i32, 0n, s) }, s);
    cx.effect({ op: 'trap_if', type: T.i32, cond: outside, at: s.start, reason: 'mapa named a CTA rank outside the cluster (kernels run in clusters of one CTA)' }, s);
  }
  cx.write(operand(inst, 0), a);
};

export const MISC_HANDLERS: Readonly<Record<string, Handler>> = { nanosleep, pmevent, griddepcontrol, setmaxnreg, getctarank, mapa };
