import type { Options } from 'tsdown';

/**
 * The one build shape every published `@parley/*` package uses: ESM and CJS with fixed
 * extensions (`.mjs`/`.cjs`) and a declaration file for each (`.d.mts`/`.d.cts`), so the
 * `exports` map can give `import` and `require` their own types.
 */
export function libraryConfig(entry: string[] = ['src/index.ts']): Options {
  return {
    entry,
    format: ['esm', 'cjs'],
    fixedExtension: true,
    dts: true,
    sourcemap: true,
    clean: true,
    platform: 'neutral',
    target: 'es2022',
  };
}
