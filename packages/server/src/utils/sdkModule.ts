/*
 * What `loadSdk()` imports lazily: the SDK, and zod's entry point with it.
 *
 * A bundler that inlines a lazily imported module (esbuild for a Worker, which has one file)
 * defers it and everything it imports, zod included (the SDK imports `zod/v4`). Code that
 * imports `zod` statically, as every tool's schemas do, then reaches the deferred zod through
 * zod's side-effect-free entry, and esbuild drops the call that would initialise it there:
 * `z.string()` fails at start-up ("Class2 is not a constructor"). Named here, zod's entry is
 * deferred too, and whoever imports it initialises it first. test/runtimes bundles a Worker.
 */
export * from '@modelcontextprotocol/server';
export { z as zodEntry } from 'zod';
