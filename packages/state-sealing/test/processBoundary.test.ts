import { expect, test } from 'vitest';

import { createRequestStateSealer } from '../src/index.ts';
import { runTs } from './childProcess.ts';
import { KEY_A, expectRejected } from './helpers.ts';

const BINDING = { method: 'tools/call', target: 'book_trip' };

test('another process with the shared key: its tokens open here', async () => {
  const child = await runTs('test/fixtures/sealInChild.ts', [], { REQUEST_STATE_KEY: KEY_A });
  expect(child.stderr).toBe('');
  const here = createRequestStateSealer({ audience: 'booking-server', keys: [KEY_A] });
  expect(await here.open(child.stdout, BINDING)).toBe('from the child');
});

test('another process on its default (ephemeral) key: its tokens do not open here', async () => {
  const child = await runTs('test/fixtures/sealInChild.ts');
  expect(child.stdout).toMatch(/^ps1\./);
  const here = createRequestStateSealer({ audience: 'booking-server' });
  await expectRejected(here.open(child.stdout, BINDING), 'unknown-key');
});
