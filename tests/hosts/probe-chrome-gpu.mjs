// Probe: dumps chrome://gpu text (incl. "Dawn Info": every adapter and its blocklist status).
//   XDG_RUNTIME_DIR=/tmp WAIT=8000 node tests/hosts/probe-chrome-gpu.mjs > gpu.txt
import puppeteer from 'puppeteer-core';
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
const udd = fs.mkdtempSync(path.join(os.tmpdir(), 'chr-'));
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox','--enable-unsafe-webgpu','--enable-features=Vulkan','--use-angle=vulkan','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run','--disable-quic', `--user-data-dir=${udd}`, ...(process.env.EXTRA||'').split(' ').filter(Boolean)], dumpio: !!process.env.DUMPIO });
const page = await browser.newPage();
await page.goto('chrome://gpu'); await new Promise(r => setTimeout(r, +(process.env.WAIT||3000)));
const txt = await page.evaluate(() => { const out = []; const walk = (n) => { if (n.nodeType === 3) { const t = n.textContent.trim(); if (t) out.push(t); } if (n.shadowRoot) walk(n.shadowRoot); for (const c of n.childNodes) walk(c); }; walk(document.body); return out.join('\n'); });
console.log(txt);
await browser.close(); fs.rmSync(udd, {recursive: true, force: true});
