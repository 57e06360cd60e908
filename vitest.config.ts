import { fileURLToPath } from 'node:url';

import { defaultServerConditions } from 'vite';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Workspace packages resolve each other from source (`@parley/source` export condition), so the
 * whole suite runs on a fresh clone without a build.
 */
const sourceConditions = [
  '@parley/source',
  // Not `module`, which Node does not use either: a package's `module` build may be for
  // bundlers only (OpenTelemetry's imports its files without extensions).
  ...defaultServerConditions.filter((condition) => condition !== 'module'),
];

const packages = [
  'core',
  'schema',
  'state-sealing',
  'server',
  'client',
  'cli',
  'middleware',
  'testing',
  'redis',
  'forms',
  'proxy',
];

function packageProject(name: string): TestProjectInlineConfiguration {
  const root = fileURLToPath(new URL(`./packages/${name}`, import.meta.url));
  return {
    extends: true,
    test: {
      name: `@parley/${name}`,
      root,
      include: ['test/**/*.test.ts'],
      // The Redis suites need a redis-server; the setup decides once whether they run.
      ...(name === 'redis' ? { globalSetup: ['test/globalSetup.ts'] } : {}),
      typecheck: {
        enabled: true,
        include: ['test/**/*.test-d.ts'],
        tsconfig: `${root}/tsconfig.json`,
      },
    },
  };
}

export default defineConfig({
  resolve: { conditions: sourceConditions },
  ssr: { resolve: { conditions: sourceConditions } },
  test: {
    // Generous, because some tests start real child processes and the CI machines are shared.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      ...packages.map(packageProject),
      ...['repo', 'integration', 'conformance', 'runtimes'].map((name) => ({
        extends: true as const,
        test: {
          name,
          root: fileURLToPath(new URL(`./test/${name}`, import.meta.url)),
          include: ['**/*.test.ts'],
        },
      })),
      ...(
        [
          ['docs-examples', 'docs/examples', '**/*.test.ts'],
          ['docs', 'docs', 'test/**/*.test.ts'],
          // The playground page in a real browser, against a real app.
          ['playground', 'apps/playground', 'test/**/*.test.ts'],
        ] as const
      ).map(([name, dir, include]) => ({
        extends: true as const,
        test: {
          name,
          root: fileURLToPath(new URL(`./${dir}`, import.meta.url)),
          include: [include],
        },
      })),
    ],
  },
});
