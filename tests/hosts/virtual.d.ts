/** Provided by scripts/bundle.mjs: file name in tests/kernels -> PTX text. */
declare module 'virtual:ptx-kernels' {
  const kernels: Record<string, string>;
  export default kernels;
}
