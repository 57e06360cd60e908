/** The example of packages/core/README.md, run (the others are run by the elicitation tests). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { expect, test } from 'vitest';

import { nodeArgs, repoRoot } from '../support.ts';

test('readme/core/eraOf.ts prints what its comments say', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    nodeArgs('readme/core/eraOf.ts'),
    { cwd: repoRoot },
  );
  expect(stdout).toBe('handshake\nmodern\n');
});
