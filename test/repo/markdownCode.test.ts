import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, test } from 'vitest';

import {
  EXEMPT_LANGUAGES,
  fencedBlocks,
  includeMarkerLines,
  includedText,
  markdownFiles,
} from '../../scripts/markdownIncludes.mjs';

/**
 * Code in the README, the packages' READMEs and the docs pages comes from files the tests compile
 * and run (scripts/markdownIncludes.mjs says how): every fenced block is the copy of an included
 * file under docs/examples/ (or of a declaration in a package's src/), or a `sh` block of
 * commands to type. A failure names file:line;
 * `pnpm readme` rewrites stale copies.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const files = markdownFiles();
const textOf = (path: string) => readFileSync(`${repoRoot}${path}`, 'utf8');

const includes = files.flatMap((source) =>
  fencedBlocks(textOf(source)).flatMap((block) =>
    block.include === undefined ? [] : [{ source, ...block.include, shown: block.body }],
  ),
);

test('the README, every package README, the docs start page and every guide are checked', () => {
  expect(files).toEqual(
    expect.arrayContaining([
      'README.md',
      'packages/server/README.md',
      'packages/client/README.md',
      'docs/index.md',
      'docs/guide/getting-started.md',
      'docs/guide/elicitation.md',
    ]),
  );
  expect(includes.length).toBeGreaterThan(200);
});

describe.each(files)('%s', (source) => {
  const text = textOf(source);

  test(`every code block is an include or a command (\`${[...EXEMPT_LANGUAGES].join('`, `')}\`)`, () => {
    const pasted = fencedBlocks(text)
      .filter((block) => block.include === undefined && !EXEMPT_LANGUAGES.has(block.language))
      .map((block) => `${source}:${block.line} (\`\`\`${block.info})`);
    expect(
      pasted.join('\n'),
      'move the code into a file under docs/examples/ that the tests type-check and run, put ' +
        '`<!-- include: docs/examples/<file>[#region] -->` before the block, then `pnpm readme`',
    ).toBe('');
  });

  test('every include marker is followed by its code block', () => {
    const attached = new Set(fencedBlocks(text).flatMap((block) => block.include?.line ?? []));
    const stray = includeMarkerLines(text)
      .filter((line) => !attached.has(line))
      .map((line) => `${source}:${line}`);
    expect(
      stray.join('\n'),
      'a marker is followed by its fenced block (one blank line between at most)',
    ).toBe('');
  });

  test('no VitePress `<<<` snippet line (GitHub shows it as the raw line, not the code)', () => {
    const snippets = text
      .split('\n')
      .flatMap((line, index) => (/^\s*<<<\s/.test(line) ? [`${source}:${index + 1}`] : []));
    expect(snippets.join('\n'), 'use an include marker and `pnpm readme`').toBe('');
  });
});

describe.each(includes)('$source:$line includes $path', ({ path, region, shown }) => {
  test('a file under docs/examples/ (run by its tests) or in a package src/ (the code itself)', () => {
    expect(path).toMatch(/^(docs\/examples|packages\/[\w-]+\/src)\//);
    expect(existsSync(`${repoRoot}${path}`)).toBe(true);
  });

  test('a region that exists exactly once', () => {
    if (region === undefined) return;
    const file = textOf(path);
    const count = (marker: string) =>
      file.split('\n').filter((line) => line.trim() === `// #${marker} ${region}`).length;
    expect([count('region'), count('endregion')]).toEqual([1, 1]);
  });

  test('shown exactly as the file has it (pnpm readme rewrites the copy)', () => {
    expect(shown).toBe(includedText(path, region));
  });
});

test('the README shows a tested example near the top, and its output', () => {
  const readme = textOf('README.md');
  expect(includes.filter(({ source }) => source === 'README.md').map(({ path }) => path)).toEqual(
    expect.arrayContaining([
      'docs/examples/readme/quickstart.ts',
      'docs/examples/readme/quickstart.out.txt',
    ]),
  );
  // Near the top: before the install instructions.
  expect(readme.indexOf('<!-- include: docs/examples/readme/quickstart.ts -->')).toBeLessThan(
    readme.indexOf('## Install'),
  );
});
