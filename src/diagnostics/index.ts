export * from './diagnostic.js';
export * from './ptx-error.js';
export * from './source.js';
export * from './span.js';
