import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { expect, test } from 'vitest';

import { readmeIncludes } from '../../scripts/readmeExamples.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(`${repoRoot}/README.md`, 'utf8');

test('the README shows a tested example near the top, and its output', () => {
  const includes = readmeIncludes(readme);
  expect(includes.map((include) => include.path)).toEqual([
    'docs/examples/readme/quickstart.ts',
    'docs/examples/readme/quickstart.out.txt',
  ]);
  // Near the top: before the install instructions.
  expect(readme.indexOf('<!-- include: docs/examples/readme/quickstart.ts -->')).toBeLessThan(
    readme.indexOf('## Install'),
  );
});

test.each(readmeIncludes(readme))(
  'README.md shows $path exactly (pnpm readme rewrites the copy)',
  ({ shown, file }) => {
    expect(shown).toBe(file);
  },
);
