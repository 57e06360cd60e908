/**
 * "Examples are code": every code block in the README, the packages' READMEs and the docs pages
 * is a copy of a file in docs/examples/ (test/repo/markdownCode.test.ts checks the copies and the
 * markers; scripts/markdownIncludes.mjs says how they work). Here: every example a page or README
 * shows is run by a test, every output file it quotes is read by one, and every file in
 * docs/examples/ is shown somewhere.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, test } from 'vitest';

import { fencedBlocks, markdownFiles } from '../../scripts/markdownIncludes.mjs';

const docsRoot = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const examplesRoot = `${docsRoot}/examples`;

/** Relative paths of the files under `dir` (recursively) that `keep` accepts. */
function filesUnder(dir: string, keep: (path: string) => boolean, prefix = ''): string[] {
  return readdirSync(`${dir}/${prefix}`, { withFileTypes: true }).flatMap((entry) => {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
      return filesUnder(dir, keep, `${path}/`);
    }
    return keep(path) ? [path] : [];
  });
}

interface Include {
  page: string;
  line: number;
  /** Relative to docs/examples/. */
  file: string;
  region: string | undefined;
}

/** Every include of every checked Markdown file that points into docs/examples/. */
const includes: Include[] = markdownFiles().flatMap((page) =>
  fencedBlocks(readFileSync(`${repoRoot}${page}`, 'utf8')).flatMap(({ include }) =>
    include === undefined || !include.path.startsWith('docs/examples/')
      ? []
      : [
          {
            page,
            line: include.line,
            file: include.path.slice('docs/examples/'.length),
            region: include.region,
          },
        ],
  ),
);

/** Example files a test runs: the tests themselves, and everything they import, transitively. */
function runByTests(): Set<string> {
  const sources = filesUnder(examplesRoot, (path) => /\.tsx?$/.test(path));
  const roots = sources.filter((path) => path.startsWith('test/') || path.endsWith('.test.ts'));
  const reached = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (reached.has(path)) continue;
    reached.add(path);
    const source = readFileSync(`${examplesRoot}/${path}`, 'utf8');
    // `from '…'`, and side-effect imports (`import './augment.ts'`).
    for (const [, specifier] of source.matchAll(/(?:from|import) '(\.{1,2}\/[^']+)'/g)) {
      const target = new URL(specifier!, `file:///${path}`).pathname.slice(1);
      if (sources.includes(target)) queue.push(target);
    }
  }
  return reached;
}
const executed = runByTests();

/**
 * The example tests' source, to check that the output files pages quote are read by a test —
 * and the runtime matrix's (test/runtimes), which runs the deployment guide's Bun, Deno and
 * Worker files, by their docs/examples paths, on those runtimes; and the few tests elsewhere
 * that read an example file.
 */
const runtimesRoot = `${docsRoot}/../test/runtimes`;
const testSources = [
  ...filesUnder(
    examplesRoot,
    (path) => path.endsWith('.ts') && (path.startsWith('test/') || path.endsWith('.test.ts')),
  ).map((path) => readFileSync(`${examplesRoot}/${path}`, 'utf8')),
  ...filesUnder(runtimesRoot, (path) => path.endsWith('.ts') && !path.startsWith('fixtures/')).map(
    (path) => readFileSync(`${runtimesRoot}/${path}`, 'utf8'),
  ),
  // The load-balancer tests run the deployment guide's HAProxy, nginx and Caddy configurations
  // (their harness loads them).
  readFileSync(`${docsRoot}/../test/integration/loadBalancer/harness.ts`, 'utf8'),
  // The terminal client's tests compare a real screen with the one its README shows.
  readFileSync(`${docsRoot}/../packages/cli/test/terminal.test.ts`, 'utf8'),
]
  .join('\n')
  // Tests that run in both eras name per-era files with a template: count both names.
  .replace(/`([^`]*)\$\{era\}([^`]*)`/g, "'$1modern$2' '$1handshake$2'");

test('the docs pages include examples', () => {
  const pages = new Set(includes.map(({ page }) => page));
  expect([...pages]).toEqual(
    expect.arrayContaining(['docs/index.md', 'docs/guide/elicitation.md', 'README.md']),
  );
  expect(includes.length).toBeGreaterThan(150);
});

describe.each(includes)('$page:$line includes $file#$region', ({ file }) => {
  test('is run (code) or read (quoted output) by a test', () => {
    if (/\.tsx?$/.test(file))
      expect(executed.has(file) || testSources.includes(`${file}'`)).toBe(true);
    else expect(testSources).toContain(`${file}'`);
  });
});

test('every example file is shown on some page or README', () => {
  const shown = new Set(includes.map(({ file }) => file));
  const examples = filesUnder(
    examplesRoot,
    (path) =>
      !path.startsWith('test/') &&
      /\.(tsx?|txt|json|css)$/.test(path) &&
      !['package.json', 'tsconfig.json', '.prettierrc.json'].includes(path),
  );
  expect(examples.filter((path) => !shown.has(path))).toEqual([]);
  expect(
    examples.filter(
      (path) => /\.tsx?$/.test(path) && !executed.has(path) && !testSources.includes(`${path}'`),
    ),
  ).toEqual([]);
});
