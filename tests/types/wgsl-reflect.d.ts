// The ES module build of wgsl_reflect, which tests import by path (its CommonJS main has no named
// ESM exports under Node), has the package's own types.
declare module 'wgsl_reflect/wgsl_reflect.module.js' {
  export * from 'wgsl_reflect';
}
