import { fileURLToPath } from 'node:url';

import { defaultServerConditions } from 'vite';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Workspace packages resolve each other from source (`@parley/source` export condition), so the
 * whole suite runs on a fresh clone without a build.
 */
const sourceConditions = ['@parley/source', ...defaultServerConditions];

const packages = ['core', 'schema', 'state-sealing', 'server', 'client', 'middleware'];

function packageProject(name: string): TestProjectInlineConfiguration {
  const root = fileURLToPath(new URL(`./packages/${name}`, import.meta.url));
  return {
    extends: true,
    test: {
      name: `@parley/${name}`,
      root,
      include: ['test/**/*.test.ts'],
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
    projects: [
      ...packages.map(packageProject),
      {
        extends: true,
        test: {
          name: 'repo',
          root: fileURLToPath(new URL('./test/repo', import.meta.url)),
          include: ['**/*.test.ts'],
        },
      },
    ],
  },
});
