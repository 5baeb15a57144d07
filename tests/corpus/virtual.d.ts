/** Provided by scripts/bundle.mjs: file name in tests/corpus/kernels -> PTX text. */
declare module 'virtual:corpus-kernels' {
  const kernels: Record<string, string>;
  export default kernels;
}

/** Provided by scripts/bundle.mjs: tests/corpus/native/ (manifest and base64 .bin.gz files), if recorded. */
declare module 'virtual:corpus-native' {
  const native: { manifest: import('./native.ts').NativeManifest | null; files: Record<string, string> };
  export default native;
}
