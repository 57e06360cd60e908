import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, test } from 'vitest';

import { runConformance, tally } from '../harness.ts';

/**
 * The official MCP conformance suite's client scenarios against the Parley client (`runner.ts`).
 * The harness runs on Node 22 and starts the runner on this project's Node 20, once per
 * scenario and protocol version; each version's baseline of expected failures is empty.
 */

const here = fileURLToPath(new URL('.', import.meta.url));
const command = [
  process.execPath,
  '--conditions=@parley/source',
  '--import',
  'tsx',
  join(here, 'runner.ts'),
].join(' ');
const outputRoot = mkdtempSync(join(tmpdir(), 'parley-conformance-client-'));

afterAll(() => rmSync(outputRoot, { recursive: true, force: true }));

const legs: [version: string, scenarios: string[]][] = [
  ['2026-07-28', ['sep-2322-client-request-state', 'request-metadata', 'tools_call']],
  ['2025-11-25', ['elicitation-sep1034-client-defaults', 'initialize', 'tools_call']],
];

describe.each(legs)('client conformance at %s', (version, scenarios) => {
  const baseline = join(here, `expected-failures.${version}.yaml`);

  test('the baseline of expected failures is empty', () => {
    expect(readFileSync(baseline, 'utf8').trim()).toBe('');
  });

  test.each(scenarios)(
    '%s passes every check',
    async (scenario) => {
      const run = await runConformance(
        [
          'client',
          '--command',
          command,
          '--scenario',
          scenario,
          '--spec-version',
          version,
          '--expected-failures',
          baseline,
          '--timeout',
          '60000',
        ],
        join(outputRoot, `${version}-${scenario}`),
        180_000,
      );
      const checks = run.checks.get(scenario) ?? [];
      console.log(
        `[conformance client] ${scenario} at ${version}: ${JSON.stringify(tally(run.checks))}`,
      );
      if (run.exitCode !== 0) console.log(run.output.slice(-4000));
      expect(run.exitCode).toBe(0);
      // With a baseline, the harness forgives a client that crashed after its checks: we do not.
      expect(run.output).not.toContain('CLIENT EXITED WITH ERROR');
      expect(run.output).toContain('OVERALL: PASSED');
      expect(checks.filter((check) => check.status === 'SUCCESS').length).toBeGreaterThan(0);
      expect(
        checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING'),
      ).toEqual([]);
    },
    240_000,
  );
});
