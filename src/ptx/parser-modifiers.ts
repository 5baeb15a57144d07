/**
 * Decodes an instruction's dotted modifier words into the typed `Modifiers` fields,
 * driven only by the opcode table row: each word goes to the first group of the row that
 * accepts it and whose field is still free (so `cp.async.ca.shared.global` puts `shared`
 * into `space` and `global` into the next group). Unknown words are rejected by name.
 */
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import { SCALAR_TYPES, type Modifiers, type SpaceRef, type StateSpace } from './ast.js';
import { BASE_OPCODES, groupAccepts, lookupOpcode, type ModifierField, type OpcodeRow } from './opcodes.js';
import type { PtxToken } from './lexer.js';
import { Reject } from './parser-common.js';

const BOOLEAN_FIELDS: ReadonlySet<ModifierField> = new Set<ModifierField>([
  'to', 'ftz', 'sat', 'satfinite', 'relu', 'nan', 'xorsign', 'abs', 'approx', 'full', 'cc', 'uni', 'sync',
  'aligned', 'shiftamt', 'trans',
]);
const LIST_FIELDS: ReadonlySet<ModifierField> = new Set<ModifierField>(['types', 'layouts', 'cacheHints', 'extra']);

/**
 * `shared::cta` → { space: 'shared', qualifier: 'cta' }. One shared frozen object per
 * spelling: every `.reg` declaration of a module carries one.
 */
export function spaceRef(word: string): SpaceRef {
  let ref = SPACE_REFS.get(word);
  if (ref === undefined) {
    const i = word.indexOf('::');
    ref = Object.freeze(i < 0 ? { space: word as StateSpace } : { space: word.slice(0, i) as StateSpace, qualifier: word.slice(i + 2) as 'cta' });
    if (SPACE_REFS.size < 256) SPACE_REFS.set(word, ref);
  }
  return ref;
}
const SPACE_REFS = new Map<string, SpaceRef>();

/** Per row: word → indices of the groups listing it (pattern groups are tried on a miss). */
const indexCache = new Map<OpcodeRow, Map<string, number[]>>();

function wordIndex(row: OpcodeRow): Map<string, number[]> {
  let index = indexCache.get(row);
  if (index) return index;
  index = new Map();
  row.groups.forEach((g, gi) => {
    for (const w of g.words) {
      const list = index?.get(w);
      if (list) list.push(gi);
      else index?.set(w, [gi]);
    }
  });
  indexCache.set(row, index);
  return index;
}

function candidates(row: OpcodeRow, word: string): readonly number[] {
  const listed = wordIndex(row).get(word);
  if (listed) return listed;
  const out: number[] = [];
  row.groups.forEach((g, gi) => {
    if (g.pattern && groupAccepts(g, word)) out.push(gi);
  });
  return out;
}

function decodeValue(field: ModifierField, word: string): unknown {
  if (BOOLEAN_FIELDS.has(field)) return true;
  if (field === 'space') return spaceRef(word);
  if (field === 'vector' || field === 'count') return Number(word.slice(1));
  return word;
}

type Mutable = Record<string, unknown>;

/** Puts one word into the first free accepting group; false when none accepts it. */
function place(m: Mutable, row: OpcodeRow, word: string): boolean | 'duplicate' {
  const groups = candidates(row, word);
  if (groups.length === 0) return false;
  for (const gi of groups) {
    const field = row.groups[gi]?.field;
    if (!field) continue;
    if (LIST_FIELDS.has(field)) {
      const list = (m[field] ??= []) as string[];
      list.push(word);
      return true;
    }
    if (m[field] === undefined) {
      m[field] = decodeValue(field, word);
      return true;
    }
  }
  return 'duplicate';
}

const TYPE_WORDS: ReadonlySet<string> = new Set(SCALAR_TYPES);

/** For a type word the row's type group does not list: the list it does accept, for the message. */
function acceptedTypes(row: OpcodeRow, word: string): string | undefined {
  if (!TYPE_WORDS.has(word)) return undefined;
  const types = row.groups.find((g) => g.field === 'types');
  if (!types) return `no type`;
  return types.words.map((w) => `\`.${w}\``).join(' ');
}

export interface DecodedOpcode {
  readonly row: OpcodeRow;
  readonly modifiers: Modifiers;
}

/** Looks up the opcode and decodes its modifier tokens (`.rn`, `.f32`, …), or rejects naming the culprit. */
export function decodeOpcode(opcode: PtxToken, mods: readonly PtxToken[]): DecodedOpcode | Reject {
  const words = mods.map((t) => t.text.slice(1));
  const found = lookupOpcode(opcode.text, words);
  if (!found) {
    if (!BASE_OPCODES.has(opcode.text)) {
      return new Reject(opcode, `unknown opcode \`${opcode.text}\``, DiagnosticCode.ParseUnknownOpcode);
    }
    const culprit = mods[0] ?? opcode;
    return new Reject(culprit, `unknown modifier \`${culprit.text}\` for \`${opcode.text}\``, DiagnosticCode.ParseBadModifier);
  }
  const { row, consumed } = found;
  const m: Mutable = { types: [] as string[] };
  if (row.mode !== undefined) m['mode'] = row.mode;
  for (let i = consumed; i < mods.length; i++) {
    const tok = mods[i] as PtxToken;
    const placed = place(m, row, words[i] ?? '');
    if (placed === true) continue;
    const accepted = placed === false ? acceptedTypes(row, words[i] ?? '') : undefined;
    if (accepted) return new Reject(tok, `\`${row.name}\` does not accept type \`${tok.text}\`; it accepts ${accepted}`, DiagnosticCode.ParseBadModifier);
    const what = placed === 'duplicate' ? 'duplicate modifier' : 'unknown modifier';
    return new Reject(tok, `${what} \`${tok.text}\` for \`${row.name}\``, DiagnosticCode.ParseBadModifier);
  }
  return { row, modifiers: m as unknown as Modifiers };
}
