import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

import { packageGraph } from '../../scripts/packageGraph.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
// The probe file exists only in memory, so no tsconfig's project service knows it: lint it
// without type information (and without the type-aware rules, which need it). The import rules
// checked here are syntactic.
const eslint = new ESLint({
  cwd: repoRoot,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': 'off',
    },
  },
});
const packages = Object.keys(packageGraph);

async function restrictedImportMessages(pkg: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, {
    filePath: `${repoRoot}/packages/${pkg}/src/dependencyProbe.ts`,
  });
  const fatal = (result?.messages ?? []).filter((message) => message.fatal === true);
  // A probe that does not parse would pass every "may not import" case by saying nothing.
  if (fatal.length > 0) throw new Error(`the probe did not lint: ${fatal[0]!.message}`);
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

const pairs = packages.flatMap((from) =>
  packages.filter((to) => to !== from).map((to) => [from, to] as const),
);

describe('ESLint enforces the dependency directions of scripts/packageGraph.js', () => {
  test.each(pairs)('@parley/%s importing @parley/%s', async (from, to) => {
    const messages = await restrictedImportMessages(
      from,
      `import * as dep from '@parley/${to}';\nexport { dep };\n`,
    );
    if (packageGraph[from]!.parley.includes(to)) {
      expect(messages).toEqual([]);
    } else {
      expect(messages).toEqual([
        `'@parley/${to}' import is restricted from being used. @parley/${from} may not depend on @parley/${to} (see the dependency rules in CONTRIBUTING.md and scripts/packageGraph.js).`,
      ]);
    }
  });

  test('type-only imports count too', async () => {
    const messages = await restrictedImportMessages(
      'core',
      `import type { X } from '@parley/server';\nexport type { X };\n`,
    );
    expect(messages).toHaveLength(1);
  });

  test.each(packages)('@parley/%s may not reach into another package’s internals', async (pkg) => {
    const messages = await restrictedImportMessages(
      pkg,
      `import { x } from '@parley/core/src/errors/parleyError.ts';\nexport { x };\n`,
    );
    expect(messages.join('\n')).toContain(
      'Import a @parley package through its public entry point',
    );
  });

  test.each(packages)(
    '@parley/%s may import @parley/state-sealing/internal only when given it',
    async (pkg) => {
      const messages = await restrictedImportMessages(
        pkg,
        `import { sealAtOnce } from '@parley/state-sealing/internal';\nexport { sealAtOnce };\n`,
      );
      const given = packageGraph[pkg]!.internalEntries ?? [];
      if (given.includes('@parley/state-sealing/internal')) {
        expect(messages).toEqual([]);
      } else {
        expect(messages.join('\n')).toContain(
          'Import a @parley package through its public entry point',
        );
      }
    },
  );

  test('only @parley/server is given subpath entries: state-sealing’s internals and the forms’ App', () => {
    const given = Object.fromEntries(
      packages.flatMap((pkg) => {
        const entries = packageGraph[pkg]!.internalEntries;
        return entries === undefined ? [] : [[pkg, entries]];
      }),
    );
    expect(given).toEqual({
      server: ['@parley/state-sealing/internal', '@parley/forms/mcp-app'],
    });
  });

  test.each(packages)('@parley/%s may use only the SDK packages it is given', async (pkg) => {
    for (const sdk of [
      '@modelcontextprotocol/server',
      '@modelcontextprotocol/client',
      '@modelcontextprotocol/sdk',
    ]) {
      const messages = await restrictedImportMessages(
        pkg,
        `import * as sdk from '${sdk}';\nexport { sdk };\n`,
      );
      expect(messages.length, `${pkg} importing ${sdk}`).toBe(
        packageGraph[pkg]!.external.includes(sdk) ? 0 : 1,
      );
    }
  });

  test('tests may drive a package with any SDK client; its source may not', async () => {
    const code = `import { Client } from '@modelcontextprotocol/client';\nexport { Client };\n`;
    const [inTest] = await eslint.lintText(code, {
      filePath: `${repoRoot}/packages/server/test/probe.test.ts`,
    });
    expect(inTest?.messages.filter((m) => m.ruleId === 'no-restricted-imports')).toEqual([]);
    expect(await restrictedImportMessages('server', code)).toHaveLength(1);
  });

  test.each(['zod', 'zod/mini', 'valibot', '@valibot/to-json-schema', 'arktype'])(
    '@parley/schema imports no schema library (%s)',
    async (library) => {
      const messages = await restrictedImportMessages(
        'schema',
        `import * as lib from '${library}';\nexport { lib };\n`,
      );
      expect(messages).toEqual([
        `'${library}' import is restricted from being used by a pattern. @parley/schema reads schema libraries through Standard Schema and imports none: they are the author's optional peers.`,
      ]);
    },
  );

  test('@parley/core does no I/O', async () => {
    const messages = await restrictedImportMessages(
      'core',
      `import { readFile } from 'node:fs/promises';\nexport { readFile };\n`,
    );
    expect(messages).toEqual([
      "'node:fs/promises' import is restricted from being used by a pattern. @parley/core does no I/O and runs everywhere.",
    ]);
  });
});
