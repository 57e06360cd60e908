import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, test } from 'vitest';

import { packageGraph } from '../../scripts/packageGraph.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const packages = Object.keys(packageGraph);

/**
 * The modules that do something on import, per package; every other package has none. Only
 * @parley/forms has one: it defines the `<parley-elicitation>` custom element, in its source
 * module and in the built main entry that bundles it.
 */
const sideEffects: Record<string, string[]> = {
  forms: ['./src/defineElement.ts', './dist/index.mjs', './dist/index.cjs'],
};

interface PackageJson {
  name: string;
  private?: boolean;
  type?: string;
  sideEffects?: boolean | string[];
  engines?: { node?: string };
  files?: string[];
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  scripts?: Record<string, string>;
  bin?: Record<string, string>;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(`${repoRoot}/${path}`, 'utf8')) as T;
}

describe('the workspace root', () => {
  const root = readJson<PackageJson & { packageManager?: string }>('package.json');

  test('is private, pins pnpm exactly and targets Node 20.19+', () => {
    expect(root.private).toBe(true);
    expect(root.packageManager).toMatch(/^pnpm@\d+\.\d+\.\d+$/);
    expect(root.engines?.node).toBe('>=20.19');
  });

  test('the CI script installs the pinned pnpm and runs the README’s test command', () => {
    const ci = readFileSync(`${repoRoot}/.ci/run`, 'utf8');
    const readme = readFileSync(`${repoRoot}/README.md`, 'utf8');
    expect(ci).toContain("require('./package.json').packageManager");
    expect(ci).toContain('pnpm install --frozen-lockfile');
    expect(ci).toMatch(/^pnpm test$/m);
    expect(ci).toMatch(/^pnpm check$/m);
    expect(readme).toContain('pnpm test');
    expect(readme).toContain('pnpm dev');
  });

  test('the CI script installs redis-server when it is missing, from Debian', () => {
    const ci = readFileSync(`${repoRoot}/.ci/run`, 'utf8');
    expect(ci).toContain('command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)');
    expect(ci).toContain('apt-get install -y -qq --no-install-recommends "${missing[@]}"');
  });

  test('the CI script installs no system package for the terminal or the docs tests', () => {
    const ci = readFileSync(`${repoRoot}/.ci/run`, 'utf8');
    expect(ci).not.toMatch(/apt-get install[^\n]*(tmux|chromium)/);
    expect(ci).not.toMatch(/missing\+=\((tmux|chromium)\)/);
  });
});

describe.each(packages)('@parley/%s', (pkg) => {
  const dir = `packages/${pkg}`;
  const manifest = readJson<PackageJson>(`${dir}/package.json`);

  test('has the shared layout', () => {
    for (const file of ['src/index.ts', 'README.md', 'tsconfig.json', 'tsdown.config.ts']) {
      expect(existsSync(`${repoRoot}/${dir}/${file}`), `${dir}/${file}`).toBe(true);
    }
    expect(readJson<{ extends: string }>(`${dir}/tsconfig.json`).extends).toBe(
      '../../tsconfig.base.json',
    );
  });

  test('spells out the type of everything it exports (isolatedDeclarations)', () => {
    // A public surface that checks itself: no exported declaration leans on inference.
    expect(
      readJson<{ compilerOptions?: Record<string, unknown> }>(`${dir}/tsconfig.json`)
        .compilerOptions,
    ).toMatchObject({ declaration: true, isolatedDeclarations: true });
  });

  test('is a public ESM package for Node 20.19+', () => {
    expect(manifest.name).toBe(`@parley/${pkg}`);
    expect(manifest.private).toBeUndefined();
    expect(manifest.type).toBe('module');
    expect(manifest.sideEffects).toEqual(sideEffects[pkg] ?? false);
    expect(manifest.engines?.node).toBe('>=20.19');
    expect(manifest.files).toContain('dist');
  });

  test('exports source to the workspace and ESM + CJS, each with its own types, to users', () => {
    expect(manifest.exports?.['.']).toEqual({
      '@parley/source': './src/index.ts',
      import: { types: './dist/index.d.mts', default: './dist/index.mjs' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    });
  });

  test('exports each further entry the same way, from the source file of its name', () => {
    for (const [subpath, entry] of Object.entries(manifest.exports ?? {})) {
      if (subpath === '.' || subpath === './package.json') continue;
      const name = subpath.slice('./'.length);
      expect(entry, subpath).toEqual({
        '@parley/source': `./src/${name}.ts`,
        import: { types: `./dist/${name}.d.mts`, default: `./dist/${name}.mjs` },
        require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
      });
    }
  });

  test('declares exactly the @parley dependencies scripts/packageGraph.js allows it', () => {
    const declared = Object.keys(manifest.dependencies ?? {})
      .filter((dep) => dep.startsWith('@parley/'))
      .map((dep) => dep.slice('@parley/'.length))
      .sort();
    expect(declared).toEqual([...packageGraph[pkg]!.parley].sort());
    for (const dep of declared)
      expect(manifest.dependencies?.[`@parley/${dep}`]).toBe('workspace:^');
  });

  test('pins the MCP SDK exactly, when it uses it', () => {
    for (const sdk of packageGraph[pkg]!.external) {
      const range = manifest.dependencies?.[sdk];
      if (range !== undefined) expect(range).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  test('links its commands to committed files, so an install before a build links them', () => {
    for (const [name, path] of Object.entries(manifest.bin ?? {})) {
      expect(path, `bin ${name}`).not.toMatch(/^(\.\/)?dist\//);
      expect(existsSync(`${repoRoot}/${dir}/${path}`), `bin ${name}: ${path}`).toBe(true);
      expect(manifest.files).toContain(path.replace(/^\.\//, '').split('/')[0]);
    }
  });

  test.runIf(packageGraph[pkg]!.noSchemaLibrary)(
    'installs no schema library: each is an optional peer',
    () => {
      const libraries = ['zod', 'valibot', '@valibot/to-json-schema', 'arktype'];
      for (const library of libraries) {
        expect(manifest.dependencies?.[library], library).toBeUndefined();
        expect(manifest.peerDependenciesMeta?.[library]?.optional, library).toBe(true);
      }
    },
  );

  test('has build, typecheck, test and publint scripts', () => {
    expect(Object.keys(manifest.scripts ?? {})).toEqual(
      expect.arrayContaining(['build', 'typecheck', 'test', 'publint']),
    );
  });
});

describe('@parley/redis', () => {
  const redis = readJson<PackageJson & { devDependencies?: Record<string, string> }>(
    'packages/redis/package.json',
  );

  test('is tested on one exact node-redis, and takes the user’s own client (a peer)', () => {
    expect(redis.devDependencies?.redis).toMatch(/^\d+\.\d+\.\d+$/);
    expect(redis.peerDependencies?.redis).toBeDefined();
    expect(redis.dependencies?.redis).toBeUndefined();
  });
});

describe('the terminal client lives in @parley/cli only', () => {
  const client = readJson<PackageJson>('packages/client/package.json');
  const cli = readJson<PackageJson>('packages/cli/package.json');

  test('@parley/cli owns the parley command and the prompt library', () => {
    expect(Object.keys(cli.bin ?? {})).toEqual(['parley']);
    expect(Object.keys(cli.dependencies ?? {})).toContain('@clack/prompts');
  });

  test('@parley/client has no command, no terminal dependency and no terminal code', () => {
    expect(client.bin).toBeUndefined();
    expect(Object.keys(client.dependencies ?? {}).sort()).toEqual([
      '@modelcontextprotocol/client',
      '@opentelemetry/api',
      '@parley/core',
      '@parley/schema',
    ]);
    expect(existsSync(`${repoRoot}/packages/client/src/cli`)).toBe(false);
  });
});

describe('source files', () => {
  /** A file a reader can hold: past this, split it along its seams. */
  const MAX_LINES = 400;

  function sourceFiles(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    });
  }

  test(`no file under packages/*/src is over ${MAX_LINES} lines`, () => {
    const files = packages.flatMap((name) => sourceFiles(join(repoRoot, 'packages', name, 'src')));
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((file) => {
      const lines = readFileSync(file, 'utf8').split('\n').length - 1;
      return lines > MAX_LINES ? [`${file.slice(repoRoot.length)}: ${lines} lines`] : [];
    });
    expect(long).toEqual([]);
  });
});
