// Every test file compiles with the IR verifier after every pass (off in production for speed:
// src/pipeline.ts), so a pass that breaks the IR fails the tests that reach it.
import { verifyAfterEveryPass } from '../../src/pipeline.js';
import { verifyFunction } from '../../src/ir/verifier.js';

verifyAfterEveryPass(verifyFunction);
