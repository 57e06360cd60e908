// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import { packageGraph, schemaLibraries } from './scripts/packageGraph.js';

function restrictedImports(name, { inSource }) {
  const { parley: allowed, external } = packageGraph[name];
  const forbiddenParley = Object.keys(packageGraph).filter(
    (other) => other !== name && !allowed.includes(other),
  );
  const paths = forbiddenParley.map((other) => ({
    name: `@parley/${other}`,
    message: `@parley/${name} may not depend on @parley/${other} (see the dependency rules in CONTRIBUTING.md and scripts/packageGraph.js).`,
  }));
  const patterns = [
    {
      group: [
        '@parley/*/*',
        '!@parley/*/package.json',
        ...(packageGraph[name].internalEntries ?? []).map((entry) => `!${entry}`),
      ],
      message: 'Import a @parley package through its public entry point, never its internals.',
    },
    ...(inSource
      ? [
          {
            group: ['@modelcontextprotocol/*', ...external.map((allowedSdk) => `!${allowedSdk}`)],
            message: `@parley/${name} may only use the MCP SDK packages scripts/packageGraph.js gives it (${external.join(', ') || 'none'}).`,
          },
        ]
      : []),
    ...(inSource && packageGraph[name].noIo
      ? [{ group: ['node:*'], message: `@parley/${name} does no I/O and runs everywhere.` }]
      : []),
    ...(inSource && packageGraph[name].noSchemaLibrary
      ? [
          {
            group: schemaLibraries.flatMap((library) =>
              library.endsWith('/*') ? [library] : [library, `${library}/*`],
            ),
            message: `@parley/${name} reads schema libraries through Standard Schema and imports none: they are the author's optional peers.`,
          },
        ]
      : []),
  ];
  return { 'no-restricted-imports': ['error', { paths, patterns }] };
}

/**
 * `no-restricted-imports` blocks generated from the dependency graph in scripts/packageGraph.js
 * (explained in CONTRIBUTING.md): a package (source and tests) may import only the `@parley/*`
 * packages listed for it, never a sibling's internals. Its source may also use only the MCP SDK packages listed for it (tests may drive it
 * with any SDK client), a `noIo` package keeps `node:*` out of its source, and a
 * `noSchemaLibrary` package keeps zod, valibot and ArkType out of it.
 */
function dependencyDirectionRules() {
  return Object.keys(packageGraph).flatMap((name) => [
    { files: [`packages/${name}/**/*.ts`], rules: restrictedImports(name, { inSource: false }) },
    { files: [`packages/${name}/src/**/*.ts`], rules: restrictedImports(name, { inSource: true }) },
  ]);
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/coverage/**',
      '**/.turbo/**',
      '**/node_modules/**',
      '.conformance/**',
      // Generated (packages/forms/scripts/buildMcpApp.mjs): one HTML string.
      'packages/forms/src/mcpApp/html.ts',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': 'error',
    },
  },
  {
    files: ['packages/*/src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its errors (an unhandled rejection that
    // crashes a server), and a switch over a union must say what it does with every member.
    // On the published source and the apps, where they matter most and type information is
    // affordable on every run.
    files: ['packages/*/src/**/*.ts', 'apps/*/src/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
    },
  },
  ...dependencyDirectionRules(),
  prettier,
);
