/**
 * Entry of the corpus bundle (scripts/bundle.mjs builds dist/browser/corpus.js and
 * dist/deno/corpus.js): the corpus runner with every tests/corpus/kernels/*.ptx and the native
 * recordings embedded. The GPU-machine runner (scripts/gpu/corpus-node.mjs) passes recordings
 * read from disk instead, since it records them just before.
 */
import kernels from 'virtual:corpus-kernels';
import embedded from 'virtual:corpus-native';
import { openTestDevice, describeDevice, type HostDeviceInfo } from '../hosts/run-cases.js';
import type { ExpectMode } from './compare.ts';
import { runAll as runAllIn, Session, summaryTable, type RunResult } from './host.ts';
import type { FileLoader, NativeManifest } from './native.ts';

export { summaryTable };

export interface CorpusRunAllOptions {
  filter?: string;
  log?: (line: string) => void;
  /** `native` (default): compare with the recordings; `ref`: with the JS references. */
  expect?: ExpectMode;
  warpPath?: 'auto' | 'subgroups' | 'emulated';
  /** Also run the cases marked slow (cases.json `slow`). */
  slow?: boolean;
  /** Recordings from elsewhere than the bundle (both, or neither). */
  manifest?: NativeManifest;
  loadNative?: FileLoader;
}

function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Runs the corpus on `navigator.gpu`; results in the shape the host runners print. */
export async function runAll(opts: CorpusRunAllOptions = {}): Promise<{
  info: HostDeviceInfo | undefined;
  results: { name: string; ok: boolean; message: string | null; ms: number }[];
  corpus: RunResult[];
}> {
  const gpu = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu;
  if (!gpu) throw new Error('navigator.gpu is missing on this host');
  const log = opts.log ?? (() => {});
  let info: HostDeviceInfo | undefined;
  const session = new Session(
    async () => {
      const opened = await openTestDevice(gpu);
      if (!info) log(`corpus: ${describeDevice(opened.info)}`);
      info ??= opened.info;
      return opened.device;
    },
    (device) => device.destroy(),
  );
  const manifest = opts.manifest ?? (embedded.manifest ?? undefined);
  const loadNative: FileLoader =
    opts.loadNative ?? (async (name) => (embedded.files[name] === undefined ? undefined : fromBase64(embedded.files[name])));
  const t0 = Date.now();
  try {
    const corpus = await runAllIn(session, (file) => kernels[file], { mode: opts.expect ?? 'native', manifest, load: loadNative }, {
      ...(opts.filter ? { filter: opts.filter } : {}),
      ...(opts.warpPath ? { warpPath: opts.warpPath } : {}),
      ...(opts.slow ? { slow: true } : {}),
      log,
    });
    log(`${summaryTable(corpus)}\ncorpus: ${Date.now() - t0} ms`);
    const results = corpus.map((r) => ({ name: r.id, ok: r.status === 'pass' || r.status === 'skip', message: r.message, ms: r.ms }));
    return { info, results, corpus };
  } finally {
    session.end();
  }
}
