/**
 * "Examples are code": every code block on every hand-written page is a `<<< @/examples/…`
 * include of a file that exists, with a region that exists; every example a page shows is run by
 * a test, and every output file a page quotes is read by one.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, test } from 'vitest';

const docsRoot = fileURLToPath(new URL('..', import.meta.url));
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

/** The hand-written pages: every `.md` the site builds, except the generated API reference. */
const pages = filesUnder(
  docsRoot,
  (path) =>
    path.endsWith('.md') &&
    !/^(api|examples|test)\//.test(path) &&
    !path.endsWith('README.md') &&
    path !== 'typedoc.md', // typedoc's input for the generated api/index.md
);

/** Fences a page may write inline: shell commands to type, never code samples of the API. */
const inlineFenceLanguages = new Set(['sh', 'bash', 'shell', 'console']);

interface Include {
  page: string;
  line: number;
  file: string;
  region: string | undefined;
}

const includes: Include[] = pages.flatMap((page) =>
  readFileSync(`${docsRoot}/${page}`, 'utf8')
    .split('\n')
    .flatMap((text, index) => {
      // A trailing `[label]` names the tab of a `::: code-group`.
      const match = /^\s*<<<\s+(\S+?)(?:#([\w-]+))?(?:\{[^}]*\})?(?:\s+\[[^\]]*\])?\s*$/.exec(text);
      if (match === null) return [];
      return [{ page, line: index + 1, file: match[1]!, region: match[2] }];
    }),
);

/** Example files a test runs: the tests themselves, and everything they import, transitively. */
function runByTests(): Set<string> {
  const sources = filesUnder(examplesRoot, (path) => path.endsWith('.ts'));
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
 * Worker files, by their docs/examples paths, on those runtimes.
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
]
  .join('\n')
  // Tests that run in both eras name per-era files with a template: count both names.
  .replace(/`([^`]*)\$\{era\}([^`]*)`/g, "'$1modern$2' '$1handshake$2'");

describe('hand-written pages', () => {
  test('there are pages, and they include examples', () => {
    expect(pages).toEqual(
      expect.arrayContaining(['index.md', 'guide/elicitation.md', 'guide/getting-started.md']),
    );
    expect(includes.length).toBeGreaterThan(50);
  });

  test.each(pages)('%s: no code block is pasted inline', (page) => {
    const fences = readFileSync(`${docsRoot}/${page}`, 'utf8')
      .split('\n')
      .map((text, index) => ({ text, line: index + 1 }))
      .filter(({ text }) => /^\s*(```|~~~)/.test(text));
    // Fences come in pairs: check the opening ones.
    const openings = fences.filter((_fence, index) => index % 2 === 0);
    const pasted = openings
      .map(({ text, line }) => ({
        line,
        language:
          text
            .trim()
            .replace(/^(```|~~~)/, '')
            .split(/[\s{[]/)[0] ?? '',
      }))
      .filter(({ language }) => !inlineFenceLanguages.has(language));
    expect(pasted, `${page}: use <<< @/examples/… for code, not an inline fence`).toEqual([]);
  });
});

describe.each(includes)('$page:$line <<< $file#$region', ({ file, region }) => {
  const relative = file.replace(/^@\/examples\//, '');

  test('points into docs/examples/ at a file that exists', () => {
    expect(file).toMatch(/^@\/examples\//);
    expect(existsSync(`${examplesRoot}/${relative}`)).toBe(true);
  });

  test('names a region that exists exactly once (VitePress would silently include the whole file)', () => {
    if (region === undefined) return;
    const source = readFileSync(`${examplesRoot}/${relative}`, 'utf8');
    const starts = source.match(new RegExp(`^\\s*// #region ${region}$`, 'gm')) ?? [];
    const ends = source.match(new RegExp(`^\\s*// #endregion ${region}$`, 'gm')) ?? [];
    expect([starts.length, ends.length]).toEqual([1, 1]);
  });

  test('is run (code) or read (quoted output) by a test', () => {
    if (relative.endsWith('.ts'))
      expect(executed.has(relative) || testSources.includes(`${relative}'`)).toBe(true);
    else expect(testSources).toContain(`${relative}'`);
  });
});

test('every example file is shown on some page', () => {
  const shown = new Set(includes.map(({ file }) => file.replace(/^@\/examples\//, '')));
  const examples = filesUnder(
    examplesRoot,
    (path) =>
      !path.startsWith('test/') &&
      /\.(ts|txt|json)$/.test(path) &&
      !['package.json', 'tsconfig.json', '.prettierrc.json'].includes(path),
  );
  expect(examples.filter((path) => !shown.has(path))).toEqual([]);
  expect(
    examples.filter(
      (path) => path.endsWith('.ts') && !executed.has(path) && !testSources.includes(`${path}'`),
    ),
  ).toEqual([]);
});
