// Probe: does headless Chromium expose WebGPU here? Prints adapter info/features and a trivial
// compute result. EXTRA="--flag ..." adds Chromium flags, OPTS="{...}" requestAdapter options.
//   XDG_RUNTIME_DIR=/tmp node tests/hosts/probe-chromium.mjs
import puppeteer from 'puppeteer-core';
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
const udd = fs.mkdtempSync(path.join(os.tmpdir(), 'chr-'));
const headless = process.argv[2] === 'shell' ? 'shell' : true;
const t0 = Date.now();
const browser = await puppeteer.launch({
  executablePath: '/usr/bin/chromium', headless,
  args: ['--no-sandbox','--enable-unsafe-webgpu','--enable-features=Vulkan','--use-angle=vulkan','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run','--disable-quic', `--user-data-dir=${udd}`, ...(process.env.EXTRA||'').split(' ').filter(Boolean)],
  dumpio: !!process.env.DUMPIO,
});
const page = await browser.newPage();
import http from 'node:http';
const srv = http.createServer((q, r) => { r.writeHead(200, {'content-type':'text/html'}); r.end('<!doctype html><title>t</title>'); });
await new Promise(ok => srv.listen(0, '127.0.0.1', ok));
await page.goto(`http://127.0.0.1:${srv.address().port}/`);
console.log('secure', await page.evaluate(() => isSecureContext));
await page.evaluateOnNewDocument(`window.__opts = ${process.env.OPTS || '{}'}`);
page.on('console', m => console.log('[page]', m.text()));
const res = await page.evaluate(async () => {
  if (!navigator.gpu) return 'no navigator.gpu';
  try {
  const ad = await navigator.gpu.requestAdapter(window.__opts || {});
  if (!ad) return 'no adapter';
  const info = {}; for (const k in ad.info) info[k] = ad.info[k];
  const feats = [...ad.features];
  const dev = await ad.requestDevice({requiredFeatures: feats.includes('subgroups') ? ['subgroups'] : []});
  const code = `
@group(0) @binding(0) var<storage, read_write> buf: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
  var i = g.x;
  loop { if (i >= 100u) { break; } buf[i] = i * 2u; i += 64u; }
}`;
  const m = dev.createShaderModule({code});
  const p = await dev.createComputePipelineAsync({layout:'auto', compute:{module:m, entryPoint:'main'}});
  const b = dev.createBuffer({size: 400, usage: GPUBufferUsage.STORAGE|GPUBufferUsage.COPY_SRC});
  const r = dev.createBuffer({size: 400, usage: GPUBufferUsage.MAP_READ|GPUBufferUsage.COPY_DST});
  const bg = dev.createBindGroup({layout: p.getBindGroupLayout(0), entries:[{binding:0, resource:{buffer:b}}]});
  const e = dev.createCommandEncoder(); const pass = e.beginComputePass(); pass.setPipeline(p); pass.setBindGroup(0,bg); pass.dispatchWorkgroups(1); pass.end();
  e.copyBufferToBuffer(b,0,r,0,400); dev.queue.submit([e.finish()]);
  await r.mapAsync(GPUMapMode.READ);
  return {info, feats, sg: [ad.info.subgroupMinSize, ad.info.subgroupMaxSize], data: [...new Uint32Array(r.getMappedRange()).slice(95,100)], ua: navigator.userAgent};
  } catch (e) { return 'ERR ' + e; }
});
console.log(JSON.stringify(res, null, 1));
await browser.close(); srv.close(); fs.rmSync(udd, {recursive: true, force: true});
console.log('ms', Date.now()-t0);
