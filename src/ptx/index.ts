/** The PTX frontend: parse PTX text into the AST, print it back, and the opcode table. */
export * from './ast.js';
export { parsePtx } from './parse.js';
export { printPtx, printInstruction, printOperand, printModifiers, printVariable, printFunction } from './printer.js';
export { OPCODES, BASE_OPCODES, lookupOpcode, rowOf, type OpcodeRow, type ModifierGroup, type ModifierField } from './opcodes.js';
export { lexPtx, PtxLexer, PtxToken, TokenKind } from './lexer.js';
