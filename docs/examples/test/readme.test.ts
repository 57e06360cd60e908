import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { expect, test } from 'vitest';

import { nodeArgs, quoted, repoRoot } from './support.ts';

/**
 * The README's example, run: what it prints in both eras is what the README (and the docs
 * start page) quote. test/repo/markdownCode.test.ts checks that the README shows this very file.
 */
test('readme/quickstart.ts prints what readme/quickstart.out.txt says, in both eras', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    nodeArgs('readme/quickstart.ts'),
    { cwd: repoRoot },
  );
  expect(stdout).toBe(`${quoted('readme/quickstart.out.txt')}\n`);
  expect(stdout).toContain('2026-07-28: ');
  expect(stdout).toContain('2025-11-25: ');
});

/**
 * `pnpm demo`, run: every line the README quotes from it appears in its output, in order (`...`
 * stands for the lines left out; the ports are the system's pick each time).
 */
test('pnpm demo prints what readme/demo.out.txt quotes', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--conditions=@parley/source',
      '--import',
      'tsx',
      `${repoRoot}/scripts/demo.ts`,
    ],
    { cwd: repoRoot },
  );
  const anyPort = (text: string) =>
    text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
  const printed = anyPort(stdout).split('\n');
  const quotedLines = anyPort(quoted('readme/demo.out.txt'))
    .split('\n')
    .filter((line) => line.trim() !== '...');
  let at = 0;
  for (const line of quotedLines) {
    const found = printed.indexOf(line, at);
    // indexOf from `at` finds the line there or later, or -1.
    expect(
      found,
      `"${line}" after line ${at} of the demo's output`,
    ).toBeGreaterThanOrEqual(at);
    at = found + 1;
  }
}, 60_000);
