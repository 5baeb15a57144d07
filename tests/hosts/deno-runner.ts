// Runs the shared e2e cases under Deno's WebGPU (navigator.gpu) and prints PASS/FAIL per case.
// Exit status: 0 when every case passed, 1 when any failed, 2 when the run itself broke.
//   node scripts/bundle.mjs deno
//   node scripts/deno.mjs run --allow-read --allow-env tests/hosts/deno-runner.ts [bundle] [--filter=STR] [--json=FILE]
// The corpus bundle (dist/deno/corpus.js) runs the same way; --expect=ref compares it with its JS
// references instead of the native recordings, --slow adds the cases marked slow.
// (tests/hosts/deno.e2e.test.ts does both.) Deno cannot load the NodeNext-style `.js` specifiers of
// the sources, so this imports the esbuild bundle rather than the TypeScript.
declare const Deno: {
  args: string[];
  exit(code: number): never;
  cwd(): string;
  writeTextFileSync(path: string, text: string): void;
};

type Result = { name: string; ok: boolean; message: string | null; ms: number };

const positional = Deno.args.filter((a) => !a.startsWith('--'));
const flag = (name: string): string | undefined =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

const bundlePath = positional[0] ?? new URL('../../dist/deno/tests.js', import.meta.url).pathname;
const url = bundlePath.startsWith('/') ? `file://${bundlePath}` : new URL(bundlePath, `file://${Deno.cwd()}/`).href;

const t0 = Date.now();
try {
  const mod = (await import(url)) as {
    runAll(o: { filter?: string; expect?: string; slow?: boolean; log?: (l: string) => void }): Promise<{ info: unknown; results: Result[] }>;
  };
  const filter = flag('filter');
  const expect = flag('expect');
  const slow = Deno.args.includes('--slow');
  const { info, results } = await mod.runAll({
    ...(filter ? { filter } : {}),
    ...(expect ? { expect } : {}),
    ...(slow ? { slow } : {}),
    log: (l) => console.log(l),
  });
  const failed = results.filter((r) => !r.ok);
  const json = flag('json');
  if (json) Deno.writeTextFileSync(json, JSON.stringify({ host: 'deno', info, results }, null, 2));
  console.log(
    `deno e2e: ${results.length - failed.length}/${results.length} passed in ${Date.now() - t0} ms` +
      (failed.length ? `; FAILED: ${failed.map((r) => r.name).join(', ')}` : ''),
  );
  if (results.length === 0) {
    console.log('deno e2e: no cases ran');
    Deno.exit(1);
  }
  Deno.exit(failed.length ? 1 : 0);
} catch (e) {
  console.log(`deno e2e: the run broke: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  Deno.exit(2);
}
