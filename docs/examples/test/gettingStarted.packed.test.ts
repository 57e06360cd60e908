/**
 * Getting started as a newcomer follows it, outside this repository: the packages are built and
 * packed (`pnpm pack`, the tarballs `npm publish` would upload), a fresh npm project is made in
 * a temporary directory from the page's own package.json and tsconfig.json, the page's install
 * lines are run with the tarballs in place of the registry's @parley packages (everything else
 * comes from the npm registry), the page's files are copied verbatim, type-checked with `tsc`,
 * and run as the page runs them, in both eras. Built and installed once for the whole file.
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { examplesRoot, quoted, repoRoot } from './support.ts';

const page = readFileSync(
  `${repoRoot}/docs/guide/getting-started.md`,
  'utf8',
);

/** The files the page shows and a reader creates, in the order the page shows them. */
const guideFiles = [
  'gettingStarted/package.json',
  'gettingStarted/tsconfig.json',
  'gettingStarted/server.ts',
  'gettingStarted/main.ts',
  'gettingStarted/client.ts',
];

/** Every @parley package a reader installs, directly or as a dependency of another. */
const published = [
  'core',
  'schema',
  'state-sealing',
  'middleware',
  // The server serves the forms' MCP App on the App route.
  'forms',
  'server',
  'client',
  // The CLI's `parley proxy`.
  'proxy',
  'cli',
];

/** The page's `npm install …` lines, as printed (comments after `#` dropped). */
const installLines = [...page.matchAll(/^npm install [^\n#]*/gm)].map(
  (match) => match[0].trim(),
);

/** npm run from pnpm inherits pnpm's npm_config_* settings, which npm does not know. */
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)),
);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = cleanEnv,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout
      .setEncoding('utf8')
      .on('data', (chunk) => (stdout += chunk));
    child.stderr
      .setEncoding('utf8')
      .on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function succeed(
  command: string,
  args: string[],
  cwd: string,
  env?: NodeJS.ProcessEnv,
): Promise<string> {
  const result = await run(command, args, cwd, env);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) exited ${result.code}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

let workDir = '';
let project = '';
let tarballs: Record<string, string> = {};
let installedBeforeCli: { clackInstalled: boolean } = {
  clackInstalled: true,
};

/** What each published package depends on, among the published ones. */
function parleyDependencies(name: string): string[] {
  const manifest = JSON.parse(
    readFileSync(`${repoRoot}/packages/${name}/package.json`, 'utf8'),
  ) as { dependencies?: Record<string, string> };
  return Object.keys(manifest.dependencies ?? {})
    .filter((dependency) => dependency.startsWith('@parley/'))
    .map((dependency) => dependency.slice('@parley/'.length))
    .flatMap((dependency) => [
      dependency,
      ...parleyDependencies(dependency),
    ]);
}

/**
 * The page's install line, with packed tarballs standing in for the registry's @parley
 * packages, and their @parley dependencies (which the registry would bring) given alongside
 * when the project does not have them yet.
 */
function installArgs(line: string): string[] {
  const words = line.split(/\s+/).slice(2); // after `npm install`
  const named = words
    .filter((word) => word.startsWith('@parley/'))
    .map((word) => word.slice('@parley/'.length));
  const installed = Object.keys(
    (
      JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      }
    ).dependencies ?? {},
  );
  const dependencies = [
    ...new Set(named.flatMap(parleyDependencies)),
  ].filter(
    (name) =>
      !named.includes(name) && !installed.includes(`@parley/${name}`),
  );
  return [
    'install',
    ...words.map((word) =>
      word.startsWith('@parley/')
        ? tarballs[word.slice('@parley/'.length)]!
        : word,
    ),
    ...dependencies.map((name) => tarballs[name]!),
    '--no-audit',
    '--no-fund',
  ];
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'parley-getting-started-'));
  // One build of what gets published; turbo's cache makes it instant when nothing changed.
  await succeed(
    `${repoRoot}/node_modules/.bin/turbo`,
    [
      'run',
      'build',
      ...published.map((name) => `--filter=@parley/${name}`),
      '--output-logs=errors-only',
    ],
    repoRoot,
    process.env,
  );
  const packs = join(workDir, 'packs');
  mkdirSync(packs);
  for (const name of published) {
    await succeed(
      'pnpm',
      ['pack', '--pack-destination', packs],
      `${repoRoot}/packages/${name}`,
      process.env,
    );
  }
  tarballs = Object.fromEntries(
    readdirSync(packs).map((file) => [
      /^parley-(.+)-\d+\.\d+\.\d+.*\.tgz$/.exec(file)![1]!,
      join(packs, file),
    ]),
  );

  project = join(workDir, 'greeter');
  mkdirSync(project);
  for (const file of guideFiles)
    copyFileSync(
      join(examplesRoot, file),
      join(project, file.split('/').pop()!),
    );
  for (const line of installLines) {
    if (line.includes('@parley/cli')) {
      installedBeforeCli = {
        clackInstalled: existsSync(join(project, 'node_modules/@clack')),
      };
    }
    await succeed('npm', installArgs(line), project);
  }
}, 600_000);

afterAll(() => {
  if (workDir !== '') rmSync(workDir, { recursive: true, force: true });
});

describe('the page', () => {
  test('shows each file whole, and the install lines this test runs', () => {
    for (const file of guideFiles) {
      const include = new RegExp(
        `^<!-- include: docs/examples/${file.replace('.', '\\.')}(?:#(\\w+))? -->$`,
        'm',
      ).exec(page);
      expect(include, `${file} is included on the page`).not.toBeNull();
      // A region may wrap the file, but nothing may stand outside it.
      const outside = readFileSync(join(examplesRoot, file), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .filter((line) => !/^\s*\/\/ #(end)?region /.test(line));
      expect(outside.length).toBeGreaterThan(0);
      if (include?.[1] !== undefined) {
        const source = readFileSync(join(examplesRoot, file), 'utf8');
        expect(source.trim().startsWith(`// #region ${include[1]}`)).toBe(
          true,
        );
        expect(source.trim().endsWith(`// #endregion ${include[1]}`)).toBe(
          true,
        );
      }
    }
    expect(installLines).toEqual([
      'npm install @parley/server @parley/client zod@4',
      'npm install --save-dev tsx typescript @types/node',
      'npm install --save-dev @parley/cli',
    ]);
  });
});

describe('a fresh npm project with the packed packages', () => {
  let server: ReturnType<typeof spawn> | undefined;
  let url = '';

  beforeAll(async () => {
    // `npx tsx main.ts`, as the page says; its own process group, to stop npx and tsx together.
    server = spawn('npx', ['tsx', 'main.ts'], {
      cwd: project,
      env: { ...cleanEnv, PORT: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    url = await new Promise<string>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(
        () => reject(new Error(`main.ts did not start:\n${seen}`)),
        60_000,
      );
      server!.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        seen += chunk;
        const match = /Greeter listening on (\S+)/.exec(seen);
        if (match !== null) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      server!.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`main.ts exited ${code}:\n${seen}`));
      });
    });
  }, 90_000);

  afterAll(() => {
    if (server?.pid !== undefined && server.exitCode === null) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  });

  test('@parley/client installs without any terminal code or dependency', () => {
    const manifest = JSON.parse(
      readFileSync(
        join(project, 'node_modules/@parley/client/package.json'),
        'utf8',
      ),
    ) as { bin?: unknown; dependencies?: Record<string, string> };
    expect(manifest.bin).toBeUndefined();
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual([
      '@modelcontextprotocol/client',
      '@opentelemetry/api',
      '@parley/core',
      '@parley/schema',
    ]);
    expect(installedBeforeCli.clackInstalled).toBe(false);
  });

  test('tsc type-checks and compiles the page’s files with the page’s tsconfig.json', async () => {
    await succeed('npx', ['tsc'], project);
    expect(existsSync(join(project, 'dist/main.js'))).toBe(true);
  }, 120_000);

  test('npx tsx client.ts prints what the page quotes (modern era, auto)', async () => {
    const stdout = await succeed('npx', ['tsx', 'client.ts', url], project);
    expect(stdout).toBe(
      `${quoted('gettingStarted/client.modern.out.txt')}\n`,
    );
  }, 60_000);

  test('npx tsx client.ts --handshake prints what the page quotes', async () => {
    const stdout = await succeed(
      'npx',
      ['tsx', 'client.ts', url, '--handshake'],
      project,
    );
    expect(stdout).toBe(
      `${quoted('gettingStarted/client.handshake.out.txt')}\n`,
    );
  }, 60_000);

  test('npx parley tools lists the greeter', async () => {
    const stdout = await succeed('npx', ['parley', 'tools', url], project);
    expect(stdout).toBe(
      `${quoted('gettingStarted/parleyTools.out.txt')}\n`,
    );
  }, 60_000);
});
