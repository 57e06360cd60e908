import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, test } from 'vitest';

import {
  problemsOf,
  requirementsOf,
  runConformance,
  tally,
  verdictOf,
  type HarnessRun,
} from '../harness.ts';

/**
 * The official MCP conformance suite's client requirement sets against the Parley client
 * (`runner.ts`): `conformance client --requirements <revision>` runs every scenario the
 * revision requires (and the unscored ones beside them), one runner process each. The verdict
 * is read from the results: every scored scenario ran, succeeded at something, and has no
 * check that failed or warned. Each revision's baseline of expected failures is empty.
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

/**
 * Scenarios whose point is that the client refuses (a forged issuer, a resource that is not
 * this server, a server that never accepts a token): the runner ends with the client's error
 * there, and only there.
 */
const REFUSALS: Record<string, string[]> = {
  '2025-11-25': ['auth/scope-retry-limit'],
  '2026-07-28': [
    'auth/scope-retry-limit',
    'auth/resource-mismatch',
    'auth/iss-supported-missing',
    'auth/iss-wrong-issuer',
    'auth/iss-unexpected',
    'auth/iss-normalized',
    'auth/metadata-issuer-mismatch',
  ],
};

/**
 * Unscored scenarios (the suite's extensions) the client implements, held to the scored
 * standard: DPoP (SEP-1932) with and without nonces, and the JWT-bearer grant for workload
 * identity (SEP-1933).
 */
const EXTENSIONS = ['auth/dpop', 'auth/dpop-nonce', 'auth/wif-jwt-bearer'];

describe.each(['2025-11-25', '2026-07-28'])('client conformance, requirements %s', (revision) => {
  const baseline = join(here, `expected-failures.${revision}.yaml`);

  test('the baseline of expected failures is empty', () => {
    expect(readFileSync(baseline, 'utf8').trim()).toBe('');
  });

  test('every scored client scenario, and each extension the client implements, passes every check', async () => {
    const required = requirementsOf(revision);
    const scored = required.client;
    const extensions = EXTENSIONS.filter((name) =>
      required.notScored.some((entry) => entry.scenario === name && entry.leg === 'client'),
    );
    expect(extensions).toEqual(EXTENSIONS);
    const judged = [...scored, ...extensions];
    const run = await runConformance(
      [
        'client',
        '--command',
        command,
        '--requirements',
        revision,
        '--expected-failures',
        baseline,
        // Every scenario's client starts at once; on two busy cores that takes a while.
        '--timeout',
        '180000',
      ],
      join(outputRoot, revision),
      900_000,
    );
    const unscored = [...run.results.keys()].filter((name) => !scored.includes(name));
    const unscoredFailing = unscored.filter((name) =>
      run.results.get(name)?.checks.some((check) => check.status === 'FAILURE'),
    );
    console.log(
      `[conformance client] requirements ${revision}: ${verdictOf(run, scored).passed.length}/${scored.length} scored scenarios passed; ` +
        `checks ${JSON.stringify(tally(run.results))}; unscored run: ${unscored.length}, failing: ${unscoredFailing.join(', ') || 'none'}`,
    );
    expect(scored.length).toBeGreaterThan(15);

    // Every client starts at once, on two cores the rest of the test suite is busy on too. A
    // scored scenario that failed a check there, or whose client ended with an error where no
    // refusal is expected, is printed (its checks and the client's stderr) and run again on its
    // own, once, and judged by that run: what comes back alone is the client's. (In CI, under
    // that load, a request now and then met a kept-alive connection the suite's server had just
    // closed as idle; the client resends reads since, but a call cannot be resent.)
    const expectedRefusals = REFUSALS[revision] ?? [];
    const refusedIn = (results: HarnessRun['results'], name: string) =>
      results.get(name)?.stderr.includes('[parley runner]') === true;
    const suspects = judged.filter(
      (name) =>
        !run.results.has(name) ||
        problemsOf(name, run.results.get(name)?.checks ?? []).length > 0 ||
        (refusedIn(run.results, name) && !expectedRefusals.includes(name)),
    );
    if (suspects.length > 0) console.log(run.output.slice(-4000));
    const results = new Map(run.results);
    for (const name of suspects) {
      console.log(
        `[conformance client] ${name} in the full run: ${JSON.stringify(problemsOf(name, run.results.get(name)?.checks ?? []))}\n${run.results.get(name)?.stderr ?? ''}`,
      );
      const alone = await runConformance(
        [
          'client',
          '--command',
          command,
          '--scenario',
          name,
          '--spec-version',
          revision,
          // An extension is on no revision's timeline; the requirements run includes it anyway.
          ...(extensions.includes(name) ? ['--force'] : []),
        ],
        join(outputRoot, `${revision}-alone`, name.replaceAll('/', '-')),
        120_000,
      );
      const result = alone.results.get(name);
      console.log(
        `[conformance client] ${name} run alone: ${JSON.stringify(problemsOf(name, result?.checks ?? []))}\n${result?.stderr ?? alone.output.slice(-2000)}`,
      );
      if (result === undefined) results.delete(name);
      else results.set(name, result);
    }

    const verdict = verdictOf({ ...run, results }, judged);
    expect(verdict.missing).toEqual([]);
    expect(verdict.problems).toEqual([]);
    expect(verdict.passed).toEqual(judged);
    // The client ended with an error exactly where refusing is the right answer.
    const refused = judged.filter((name) => refusedIn(results, name));
    expect(refused.sort()).toEqual([...expectedRefusals].sort());
    if (suspects.length === 0) expect(run.exitCode).toBe(0);
  }, 960_000);
});
