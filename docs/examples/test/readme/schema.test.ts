/** The examples of packages/schema/README.md, run: each prints what the README quotes. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { expect, test } from 'vitest';

import { nodeArgs, quoted, repoRoot } from '../support.ts';

test.each([
  ['readme/schema/compile.ts', 'readme/schema/compile.out.txt'],
  ['readme/schema/respond.ts', 'readme/schema/respond.out.txt'],
])('%s prints %s', async (example, output) => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    nodeArgs(example),
    { cwd: repoRoot },
  );
  expect(stdout).toBe(`${quoted(output)}\n`);
});
