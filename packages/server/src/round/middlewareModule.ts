/*
 * What `loadMiddlewareRunner()` imports lazily. A relative module, not the package itself, so the
 * CommonJS build loads it with `require` (and so the package's CommonJS copy, the one a CommonJS
 * app requires too) where an `import()` of the package would load its ES module copy beside it.
 */
export { runMiddleware } from '@parley/middleware';
