/**
 * The pass order, in one place (QBE main.c, Cranelift Context::optimize). Where enabled (the
 * test suite: tests/setup/verify-ir.ts), the verifier runs after every pass and names the pass
 * that broke the IR.
 */
import type { Pass, PassContext } from '../lowering/pass.js';
import { addressSpaces } from '../lowering/address-spaces.js';
import { deadCode } from '../lowering/dead-code.js';
import { inlineCalls } from '../lowering/inline-calls.js';
import { narrowInt64 } from '../lowering/narrow-int64.js';
import { structurize } from '../lowering/structurize.js';
import { converge } from '../lowering/converge.js';
import { flushSubnormals } from '../lowering/flush-subnormals.js';
import { contractMulAdd } from '../lowering/contract-mul-add.js';
import { ifConvert } from '../lowering/if-convert.js';
import { carryMatrices } from '../lowering/carry-matrices.js';
import { ldmatrixStrides } from '../lowering/ldmatrix-strides.js';
import { unrollLoops } from '../lowering/unroll-loops.js';
import type { IrFunction } from './ir/function.js';
import { printFunction } from './ir/printer.js';
import type { VerifyOptions } from './ir/verifier.js';

/**
 * carry-matrices needs block parameters (before structurize) and the final shape of the loops
 * (after if-convert merges blocks); the dead-code run after it removes the unstages and extracts
 * it leaves unused; ldmatrix-strides reads the ldmatrix addresses that run leaves, through block
 * parameters. unroll-loops copies one-block loops, which if-convert makes, and must run before
 * structurize fixes the loops' shape.
 */
export const PASSES: readonly Pass[] = [contractMulAdd, flushSubnormals, inlineCalls, deadCode, addressSpaces, narrowInt64, ifConvert, carryMatrices, deadCode, ldmatrixStrides, unrollLoops, structurize, converge];

/** src/ir/verifier.ts's verifyFunction, or another check of the same shape. */
export type IrVerifier = (fn: IrFunction, options: VerifyOptions) => string[];

/**
 * Off by default: verifying after every pass cost 6% of a compile (issue 13), and a pass that
 * breaks the IR is a compiler bug for the tests to find, not a property of the input. The
 * verifier is handed in rather than imported, so it stays out of the package's bundle.
 */
let verifier: IrVerifier | null = null;

/** Runs `verify` after every pass from now on, or none (the test suite's setup file hands it in). */
export function verifyAfterEveryPass(verify: IrVerifier | null): void {
  verifier = verify;
}

export function runPasses(fn: IrFunction, cx: PassContext): void {
  check(fn, 'ssa-build', false);
  if (cx.options.dumpAfter?.pass === 'ssa-build') cx.options.dumpAfter.sink(printFunction(fn));
  let regions = false;
  for (const pass of PASSES) {
    pass.run(fn, cx);
    regions ||= pass === addressSpaces;
    check(fn, pass.name, regions);
    if (cx.options.dumpAfter?.pass === pass.name) cx.options.dumpAfter.sink(printFunction(fn));
  }
}

function check(fn: IrFunction, after: string, regionsAssigned: boolean): void {
  if (!verifier) return;
  const problems = verifier(fn, { regionsAssigned });
  if (problems.length) {
    throw new Error(`ptx-wgsl internal error: IR invalid after pass \`${after}\` in \`${fn.name}\`:\n  ${problems.slice(0, 10).join('\n  ')}`);
  }
}
