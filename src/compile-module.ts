/**
 * `compileModule()`: PTX text -> the module description the runtime loads (CompiledModule,
 * src/compile-types.ts). Nothing is compiled up front, as with the CUDA driver's lazy loading:
 * entries are listed from the text, the module variables are laid out at first use, and each
 * kernel is compiled by `compile()` when the runtime asks for it (per entry and variant).
 */
import { compile } from './compile.js';
import type { CompiledModule, ModuleCompileOptions } from './compile-types.js';
import { SourceFile } from './diagnostics/source.js';
import { listEntries } from './ptx/entries.js';
import { parsePtx } from './ptx/parse.js';
import { moduleVariables } from './translate/build-module.js';
import type { ModuleVariables } from '../lowering/layout.js';
import { moduleMemory } from '../lowering/module-memory.js';

export function compileModule(source: string, options: ModuleCompileOptions = {}): CompiledModule {
  const fileName = options.fileName ?? 'kernel.ptx';
  const file = new SourceFile(fileName, source);
  let variables: ModuleVariables | undefined;
  return {
    fileName,
    source: file,
    entries: listEntries(source),
    variables: () => (variables ??= layoutVariables(file)),
    kernels: (kernelOptions) => compile(source, { ...kernelOptions, fileName }).kernels,
  };
}

/** The module-scope variables' layout: the same as every kernel's (build-module.ts, moduleVariables). */
function layoutVariables(source: SourceFile): ModuleVariables {
  const ast = parsePtx(source.text, source.name);
  const { variables } = moduleVariables(ast, []);
  const memory = moduleMemory({ source, addressSize: ast.addressSize, functions: [], variables });
  return { ...memory, sizes: new Map(variables.map((v) => [v.name, v.size])) };
}
