import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { JSON_RPC_ERRORS, type JsonRpcErrorKind } from '@parley/core';
import { expect, test } from 'vitest';

/**
 * The docs' error page lists every JSON-RPC error Parley sends or reads, and it is the table of
 * `@parley/core` (`JSON_RPC_ERRORS`) written out: the rows this test builds from it are the rows
 * the page holds between its two markers, cell for cell (Prettier's column widths aside).
 */

const page = fileURLToPath(new URL('../../docs/guide/errors.md', import.meta.url));
const START = '<!-- json-rpc-errors:start -->';
const END = '<!-- json-rpc-errors:end -->';

const ERA_NOTE = { modern: 'Modern era only. ', handshake: 'Handshake era only. ' } as const;

/** The page's table as Markdown, from the core table. */
function markdownTable(): string {
  const kinds: [string, JsonRpcErrorKind][] = Object.entries(JSON_RPC_ERRORS);
  return [
    '| code | name | HTTP status | when it is sent |',
    '| --- | --- | --- | --- |',
    ...kinds.map(
      ([name, kind]) =>
        `| \`${kind.code}\` | \`${name}\` | ${kind.httpStatus} | ${kind.era === undefined ? '' : ERA_NOTE[kind.era]}${kind.when} |`,
    ),
  ].join('\n');
}

/** The cells of each row of a Markdown table (the separator row left out). */
function cellsOf(markdown: string): string[][] {
  return markdown
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

test("the docs' error page lists the core table, row for row", () => {
  const text = readFileSync(page, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  expect(start, `docs/guide/errors.md needs the markers ${START} … ${END}`).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  const expected = markdownTable();
  expect(
    cellsOf(text.slice(start + START.length, end)),
    `docs/guide/errors.md's table differs from JSON_RPC_ERRORS in @parley/core; put this between its markers (then pnpm prettier --write docs/guide/errors.md):\n\n${expected}\n`,
  ).toEqual(cellsOf(expected));
});
