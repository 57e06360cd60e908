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
