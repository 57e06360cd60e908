import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, test } from 'vitest';

/**
 * docs/guide/troubleshooting.md quotes the messages users meet, one per blockquote line in
 * inline code, with `…` where the message varies. Each must still be said by the code: it is
 * looked for in the source of the packages and apps, read with adjacent string literals joined
 * (`'a ' +\n 'b'` is `a b`) and every `${…}` of a template literal read as `…`. A message the
 * code no longer says, word for word, fails here naming it.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const page = 'docs/guide/troubleshooting.md';

function sourcesUnder(dir: string): string[] {
  return readdirSync(`${repoRoot}${dir}`, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** A source file as its messages read: literals joined across `+`, placeholders as `…`. */
export function asMessages(source: string): string {
  return source.replace(/(['"`])\s*\+\s*(['"`])/g, '').replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}/g, '…');
}

const roots = ['packages', 'apps'].flatMap((top) =>
  readdirSync(`${repoRoot}${top}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${top}/${entry.name}/src`),
);
const corpus = roots
  .flatMap((root) => {
    try {
      return sourcesUnder(root);
    } catch {
      return []; // a package or app without src/
    }
  })
  .map((path) => asMessages(readFileSync(`${repoRoot}${path}`, 'utf8')))
  .join('\n');

/**
 * Every inline code span of the page's blockquote lines that is a message (has a space), with
 * its line; a lone word beside one (`unknown-key`, a reason) is not.
 */
const quoted = readFileSync(`${repoRoot}${page}`, 'utf8')
  .split('\n')
  .flatMap((line, index) =>
    line.startsWith('> ')
      ? [...line.matchAll(/`([^`]+)`/g)].map((match) => ({
          line: index + 1,
          message: match[1]!,
        }))
      : [],
  )
  .filter(({ message }) => /\s/.test(message));

test('asMessages reads concatenated literals and placeholders as the page writes them', () => {
  const source =
    "throw new Error(\n  `port ${options.port} is in use; pass ` +\n    'another port.',\n);";
  expect(asMessages(source)).toContain('port … is in use; pass another port.');
  expect(asMessages('`a ${JSON.stringify({ b: 1 })} c`')).toBe('`a … c`');
});

test('the page quotes messages (one per blockquote line)', () => {
  expect(quoted.length).toBeGreaterThan(12);
});

describe.each(quoted)(`${page}:$line`, ({ message }) => {
  test(`the code says it: ${message}`, () => {
    expect(corpus.includes(message), `no source under ${roots.length} src/ says it`).toBe(true);
  });
});
