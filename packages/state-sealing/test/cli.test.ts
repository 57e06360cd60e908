import { describe, expect, test } from 'vitest';

import { createRequestStateSealer } from '../src/index.ts';
import { runTs } from './childProcess.ts';

describe('npx @parley/state-sealing keygen', () => {
  test('prints a fresh 32-byte secret as 64 hex digits, different on every run', async () => {
    const [first, second] = await Promise.all([
      runTs('src/cli.ts', ['keygen']),
      runTs('src/cli.ts', ['keygen']),
    ]);
    for (const run of [first, second]) {
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^[0-9a-f]{64}\n$/);
    }
    expect(first!.stdout).not.toBe(second!.stdout);
    // What it prints is what a sealer takes.
    expect(() =>
      createRequestStateSealer({ audience: 'a', keys: [first!.stdout.trim()] }),
    ).not.toThrow();
  });

  test('without a command it prints the usage; an unknown one fails with exit code 2', async () => {
    const help = await runTs('src/cli.ts');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('keygen');
    const wrong = await runTs('src/cli.ts', ['keygne']);
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toContain('Unknown arguments: keygne');
  });
});
