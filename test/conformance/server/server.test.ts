import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { runConformance, tally } from '../harness.ts';

/**
 * The official MCP conformance suite against the Parley "everything" server, started as a real
 * process on 127.0.0.1, for both protocol revisions. Each leg has a baseline of expected
 * failures (see the YAML files next to this test); scored scenarios must all pass.
 */

const here = fileURLToPath(new URL('.', import.meta.url));
let server: ChildProcess;
let url: string;
const outputRoot = mkdtempSync(join(tmpdir(), 'parley-conformance-server-'));

beforeAll(async () => {
  server = spawn(
    process.execPath,
    ['--conditions=@parley/source', '--import', 'tsx', join(here, 'everythingServerMain.ts')],
    {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: server.stdout as NodeJS.ReadableStream });
  url = await new Promise<string>((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`the everything server exited (${code})`)));
    lines.once('line', resolve);
  });
}, 60_000);

afterAll(() => {
  server?.kill('SIGTERM');
  rmSync(outputRoot, { recursive: true, force: true });
});

const legs = [
  {
    name: 'requirements 2025-11-25',
    args: ['--requirements', '2025-11-25'],
    baseline: 'expected-failures.2025-11-25.yaml',
  },
  {
    name: 'requirements 2026-07-28',
    args: ['--requirements', '2026-07-28'],
    baseline: 'expected-failures.2026-07-28.yaml',
  },
  {
    name: 'suite all at 2026-07-28',
    args: ['--suite', 'all', '--spec-version', '2026-07-28'],
    baseline: 'expected-failures.all-2026-07-28.yaml',
  },
];

describe('the conformance suite against the Parley server', () => {
  test.each(legs)(
    '$name passes against its baseline',
    async ({ name, args, baseline }) => {
      const outputDir = join(outputRoot, name.replaceAll(' ', '-'));
      const run = await runConformance(
        [
          'server',
          '--url',
          url,
          ...args,
          '--expected-failures',
          join(here, baseline),
          '--timeout',
          '60000',
        ],
        outputDir,
        600_000,
      );
      const counts = tally(run.checks);
      console.log(`[conformance server] ${name}: ${JSON.stringify(counts)}`);
      expect(run.checks.size).toBeGreaterThan(15);
      if (run.exitCode !== 0) console.log(run.output.slice(-4000));
      expect(run.exitCode).toBe(0);
    },
    900_000,
  );
});
