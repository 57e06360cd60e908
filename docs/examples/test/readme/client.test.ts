/**
 * The examples of packages/client/README.md, run: the first one as its own process, against the
 * guard-pattern booking server of the per-era guide served over HTTP on 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { expect, test } from 'vitest';

import { createServer } from '../../elicitation/bookFlight.ts';
import { nodeArgs, repoRoot } from '../support.ts';

test('readme/client/bookFlight.ts books over HTTP and prints the structured result', async () => {
  const running = await createServer().run({ transport: 'http', port: 0 });
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      nodeArgs('readme/client/bookFlight.ts', String(running.url)),
      { cwd: repoRoot },
    );
    expect(stdout).toBe('Booked a flight to Paris on 2026-08-01\n');
  } finally {
    await running.close();
  }
}, 60_000);
