/**
 * Maps Ramsey's labelled tree (`block L {...}` left by `br L`, `loop L {...}` re-entered
 * by `br L`) onto WGSL, which has no labels: a jump becomes nothing when control falls
 * to its target anyway, `continue` when its loop is the innermost one, `break` when it
 * leaves exactly the innermost loop and then falls to its target, and otherwise sets the
 * `exit_pending` flag: the flag is acted on right after each loop it escapes, and the
 * statements it must skip at its own level are guarded by `exit_pending == 0`.
 */
import type { BlockId } from '../src/ir/entities.js';
import type { Stmt } from '../src/ir/structured.js';

type Leaf = Extract<Stmt, { kind: 'code' | 'copy' | 'return' | 'trap' }>;

export type Labelled =
  | Leaf
  | { readonly kind: 'if'; readonly cond: Extract<Stmt, { kind: 'if' }>['cond']; readonly then: readonly Labelled[]; readonly else: readonly Labelled[] }
  | { readonly kind: 'if-index'; readonly index: Extract<Stmt, { kind: 'if-index' }>['index']; readonly value: number; readonly then: readonly Labelled[]; readonly else: readonly Labelled[] }
  | { readonly kind: 'loop'; readonly label: BlockId; readonly body: readonly Labelled[] }
  | { readonly kind: 'block'; readonly label: BlockId; readonly body: readonly Labelled[] }
  | { readonly kind: 'br'; readonly label: BlockId; readonly to: 'loop' | 'block' };

interface Frame {
  readonly kind: 'loop' | 'block' | 'if';
  readonly key?: string;
  /** Whether the construct is the last statement of its parent list. */
  readonly tailInParent: boolean;
  /** Loops: flag targets that escape the loop through `break`. */
  readonly pending?: Set<string>;
}

type Resolution = 'fallthrough' | 'continue' | 'break' | 'flag-break' | 'flag-skip';

interface Result { readonly stmts: Stmt[]; readonly raised: Set<string> }

class Resolver {
  readonly ids = new Map<string, number>();

  flag(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) this.ids.set(key, (id = this.ids.size + 1));
    return id;
  }

  list(items: readonly Labelled[], frames: readonly Frame[]): Result {
    const out: Stmt[] = [];
    const raised = new Set<string>();
    for (let i = 0; i < items.length; i++) {
      const r = this.stmt(items[i] as Labelled, i === items.length - 1, frames);
      out.push(...r.stmts);
      if (r.raised.size === 0) continue;
      for (const k of r.raised) raised.add(k);
      const rest = this.list(items.slice(i + 1), frames);
      if (rest.stmts.length) out.push({ kind: 'if-exit', target: 0, body: rest.stmts });
      for (const k of rest.raised) raised.add(k);
      break;
    }
    return { stmts: out, raised };
  }

  private stmt(s: Labelled, tail: boolean, frames: readonly Frame[]): Result {
    switch (s.kind) {
      case 'if': case 'if-index': {
        const inner = [...frames, { kind: 'if', tailInParent: tail } as const];
        const a = this.list(s.then, inner);
        const b = this.list(s.else, inner);
        const raised = new Set([...a.raised, ...b.raised]);
        const stmt: Stmt = s.kind === 'if'
          ? { kind: 'if', cond: s.cond, then: a.stmts, else: b.stmts }
          : { kind: 'if-index', index: s.index, value: s.value, then: a.stmts, else: b.stmts };
        return { stmts: [stmt], raised };
      }
      case 'block': {
        const key = `block:${s.label}`;
        const body = this.list(s.body, [...frames, { kind: 'block', key, tailInParent: tail }]);
        if (body.raised.delete(key)) body.stmts.push({ kind: 'if-exit', target: this.flag(key), body: [{ kind: 'set-exit', target: 0 }] });
        return body;
      }
      case 'loop': return this.loop(s, tail, frames);
      case 'br': return this.br(`${s.to}:${s.label}`, tail, frames);
      default: return { stmts: [s], raised: new Set() };
    }
  }

  private loop(s: Extract<Labelled, { kind: 'loop' }>, tail: boolean, frames: readonly Frame[]): Result {
    const frame: Frame = { kind: 'loop', key: `loop:${s.label}`, tailInParent: tail, pending: new Set() };
    const body = this.list(s.body, [...frames, frame]);
    const stmts: Stmt[] = [{ kind: 'loop', body: body.stmts }];
    const raised = new Set<string>();
    for (const key of frame.pending ?? []) {
      const id = this.flag(key);
      const r = this.resolve(key, tail, frames);
      const clear: Stmt = { kind: 'set-exit', target: 0 };
      const arm: Stmt[] =
        r === 'fallthrough' ? [clear] :
        r === 'continue' ? [clear, { kind: 'continue' }] :
        r === 'break' ? [clear, { kind: 'break' }] :
        r === 'flag-break' ? [{ kind: 'break' }] : [];
      if (r === 'flag-skip') raised.add(key);
      if (arm.length) stmts.push({ kind: 'if-exit', target: id, body: arm });
    }
    return { stmts, raised };
  }

  private br(key: string, tail: boolean, frames: readonly Frame[]): Result {
    const r = this.resolve(key, tail, frames);
    switch (r) {
      case 'fallthrough': return { stmts: [], raised: new Set() };
      case 'continue': return { stmts: [{ kind: 'continue' }], raised: new Set() };
      case 'break': return { stmts: [{ kind: 'break' }], raised: new Set() };
      case 'flag-break': return { stmts: [{ kind: 'set-exit', target: this.flag(key) }, { kind: 'break' }], raised: new Set() };
      case 'flag-skip': return { stmts: [{ kind: 'set-exit', target: this.flag(key) }], raised: new Set([key]) };
    }
  }

  /** How a jump to `key` from a position (tail or not) inside `frames` is expressed. */
  private resolve(key: string, tail: boolean, frames: readonly Frame[]): Resolution {
    let crossed = 0;
    let atTail = tail;
    let innermostLoop: Frame | undefined;
    for (let i = frames.length - 1; i >= 0; i--) {
      const f = frames[i] as Frame;
      if (f.key === key) {
        if (f.kind === 'loop') return crossed === 0 ? 'continue' : this.escape(key, innermostLoop);
        if (crossed === 0) return atTail ? 'fallthrough' : 'flag-skip';
        if (crossed === 1 && atTail) return 'break';
        return this.escape(key, innermostLoop);
      }
      if (f.kind === 'loop') { crossed++; innermostLoop ??= f; atTail = f.tailInParent; }
      else atTail = atTail && f.tailInParent;
    }
    throw new Error(`ptx-wgsl internal error: jump target ${key} is not an enclosing construct`);
  }

  private escape(key: string, loop: Frame | undefined): Resolution {
    loop?.pending?.add(key);
    return 'flag-break';
  }
}

export function resolveJumps(tree: readonly Labelled[]): { body: Stmt[]; usesExitFlag: boolean } {
  const r = new Resolver();
  const { stmts } = r.list(tree, []);
  return { body: stmts, usesExitFlag: r.ids.size > 0 };
}
