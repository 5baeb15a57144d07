#!/usr/bin/env node
/**
 * Extracts the PTX statements of the ISA text's examples (../shared/seeds: the English ISA's
 * "Example(s)" blocks and the 7.8 translation's code blocks) into isa-examples.json, which
 * tests/frontend/isa-examples.test.ts parses. Pseudo-code is left out by shape (statements
 * that are C-like assignments, loops or placeholders such as `.type`, `{.sat}`); every
 * other statement is kept, including the ones the test lists as known to be invalid PTX.
 *
 * Run: node tests/frontend/isa-examples.mjs   (needs ../shared/seeds next to the repo)
 */
import { readFileSync, writeFileSync } from 'node:fs';

const seeds = new URL('../../../shared/seeds/', import.meta.url);
const PLACEHOLDER = /\{\.|\.type\b|\|\||\.op\b|\.cmp\b|\.[cabds]type\b|\.space\b|\.ss\b|\.sem\b|\.scope\b|\.mode\b|\.shape\b|\.vec\b|\.level\b|\.layout\b|\.cop\b|\.rnd\b|\.[ts]query\b|\.query\b/;
const LOOKS_LIKE_PTX = /^(@!?%?\w+ )?[a-z][a-z0-9_]*(\.[A-Za-z0-9_:]+)*( |$)/;

function statements(text) {
  return text
    .split(';')
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => LOOKS_LIKE_PTX.test(s) && !PLACEHOLDER.test(s) && !/[=?]|\b(if|for|while|else|case)\b|\.\.\./.test(s.replace(/\{[^}]*\}/g, '')));
}

const out = [];
const en = readFileSync(new URL('ptx-isa-en.txt', seeds), 'utf8').split('\n');
const SECTION = /^\d+\.\d+(\.\d+)*\.[ \u00a0]/;
for (let i = 0; i < en.length; i++) {
  if (!/^Examples?$/.test((en[i] ?? '').trim())) continue;
  const block = [];
  let j = i + 1;
  for (; j < en.length && !SECTION.test(en[j] ?? ''); j++) block.push((en[j] ?? '').replace(/\/\/.*$/, ''));
  for (const s of statements(block.join('\n'))) out.push({ source: `ptx-isa-en.txt:${i + 1}`, code: `${s};` });
}
const zh = readFileSync(new URL('ptx-isa-7.8-zh.txt', seeds), 'utf8').split('\n');
for (let i = 0, start = -1; i < zh.length; i++) {
  if (!(zh[i] ?? '').trim().startsWith('```')) continue;
  if (start < 0) {
    start = i + 1;
    continue;
  }
  const block = zh.slice(start, i).map((l) => l.replace(/\/\/.*$/, ''));
  for (const s of statements(block.join('\n'))) out.push({ source: `ptx-isa-7.8-zh.txt:${start}`, code: `${s};` });
  start = -1;
}
const seen = new Set();
const unique = out.filter((e) => !seen.has(e.code) && seen.add(e.code));
writeFileSync(new URL('isa-examples.json', import.meta.url), JSON.stringify(unique, null, 1) + '\n');
console.log(`${unique.length} statements`);
