// esbuild loads these as text (scripts/build-demo.mjs).
declare module '*.ptx' { const text: string; export default text; }
declare module '*.cu' { const text: string; export default text; }
