/**
 * The layering of docs/ARCHITECTURE.md, checked on every `npm test`
 * (tests/architecture/layers.test.ts) and by `npm run lint:deps`.
 *
 *   src/ptx (parse) -> src/translate (PTX AST -> IR) -> src/ir <- lowering/ (passes) <- lowering/wgsl (emit)
 *   src/compile*.ts, src/pipeline.ts, src/api.ts tie them together; runtime/ takes what
 *   compileModule() produces and imports no parser, no translation and no IR.
 *
 * Arrows point one way, so each rule is a "never" arrow. Type-only imports count too
 * (tsPreCompilationDeps): a type names the layer it comes from.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles: where two files need each other, the shared piece is a third file.',
      from: { path: '^(src|lowering|runtime)/' },
      to: { circular: true },
    },
    {
      name: 'ir-imports-only-diagnostics',
      severity: 'error',
      comment: 'The IR owns its vocabulary and knows no frontend, pass, emitter or runtime (naga `ir`).',
      from: { path: '^src/ir/' },
      to: { pathNot: '^src/(ir|diagnostics)/' },
    },
    {
      name: 'parser-knows-no-ir',
      severity: 'error',
      comment: 'The parser produces the AST; translating it into the IR is src/translate/.',
      from: { path: '^src/ptx/' },
      to: { path: '^src/(ir|translate)/' },
    },
    {
      name: 'frontend-not-lowering-or-runtime',
      severity: 'error',
      comment: 'The frontend (parse, translate) never reaches forward into the passes, the emitter or the runtime.',
      from: { path: '^src/(ptx|translate)/' },
      to: { path: '^(lowering|runtime)/' },
    },
    {
      name: 'frontend-not-driver',
      severity: 'error',
      comment: 'The frontend never imports the driver files that call it (compile, pipeline, api, cli).',
      from: { path: '^src/(ptx|translate|ir|diagnostics)/' },
      to: { path: '^src/(api|compile|compile-module|pipeline|index)\\.ts$|^src/cli/' },
    },
    {
      name: 'lowering-not-runtime',
      severity: 'error',
      comment: 'Passes and emitter produce WGSL and layouts without a GPU: they never import the runtime.',
      from: { path: '^lowering/' },
      to: { path: '^runtime/' },
    },
    {
      name: 'lowering-not-frontend',
      severity: 'error',
      comment: 'Passes and emitter work on the IR only: never the parser, its AST or the translation.',
      from: { path: '^lowering/' },
      to: { path: '^src/(ptx|translate)/' },
    },
    {
      name: 'lowering-not-driver',
      severity: 'error',
      comment: 'Passes and emitter never import the driver files that call them (compile types are allowed).',
      from: { path: '^lowering/' },
      to: { path: '^src/(api|compile|compile-module|pipeline|index)\\.ts$|^src/cli/' },
    },
    {
      name: 'runtime-takes-compiled-modules',
      severity: 'error',
      comment:
        'The runtime takes what compileModule() produces: of the compiler it may import only the contract ' +
        '(src/compile-types.ts, lowering/layout.ts) and diagnostics, never the parser, the translation, the IR, ' +
        'the passes or the emitter.',
      from: { path: '^runtime/' },
      to: {
        path: '^(src|lowering|shaders)/',
        pathNot: '^src/diagnostics/|^src/compile-types\\.ts$|^lowering/layout\\.ts$',
      },
    },
    {
      name: 'demo-uses-public-api',
      severity: 'error',
      comment:
        'The playground (demo/) is a user of the package: it imports its public entries (src/index.ts, ' +
        'src/conformance/index.ts) only, and the CLI\'s .npy reader (plain data code, for file inputs).',
      from: { path: '^demo/' },
      to: { path: '^(src|lowering|runtime|shaders)/', pathNot: '^src/index\\.ts$|^src/conformance/index\\.ts$|^src/cli/npy\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
