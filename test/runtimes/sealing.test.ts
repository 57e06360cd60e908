import { expect, test } from 'vitest';

import { createRequestStateSealer, generateKey } from '@parley/state-sealing';

import { runToEnd, sealingCommandOf } from './runtimes.ts';

const binding = { method: 'tools/call', target: 'plan_trip', arguments: {} };

interface Report {
  runtime: string;
  opened: Record<string, string[]>;
  sealed: string[];
}

/** Run the sealing fixture on `runtime` with `tokens`, and read its one-line report. */
async function sealOn(runtime: 'bun' | 'deno', keys: string[], tokens: string[]): Promise<Report> {
  const printed = await runToEnd(sealingCommandOf(runtime), {
    SEALING_INPUT: JSON.stringify({ keys, tokens }),
  });
  return JSON.parse(printed) as Report;
}

test('both sealing engines on Bun and Deno open each other’s tokens, and Node’s', async () => {
  const keys = [generateKey()];
  const tokens: string[] = [];
  const plaintexts: string[] = [];
  for (const engine of ['node', 'webcrypto'] as const) {
    const sealer = createRequestStateSealer({ audience: 'Trip Planner', keys, engine });
    plaintexts.push(`sealed on node ${process.versions.node} with ${engine}`);
    tokens.push(await sealer.seal(plaintexts.at(-1)!, binding));
  }
  for (const runtime of ['bun', 'deno'] as const) {
    const report = await sealOn(runtime, keys, tokens);
    expect(report.opened, report.runtime).toEqual({ node: plaintexts, webcrypto: plaintexts });
    tokens.push(...report.sealed);
    plaintexts.push(
      `sealed on ${report.runtime} with node`,
      `sealed on ${report.runtime} with webcrypto`,
    );
  }
  // Back on Node: all six open, under either engine.
  for (const engine of ['node', 'webcrypto'] as const) {
    const sealer = createRequestStateSealer({ audience: 'Trip Planner', keys, engine });
    expect(await Promise.all(tokens.map((token) => sealer.open(token, binding)))).toEqual(
      plaintexts,
    );
  }
  expect(plaintexts).toHaveLength(6);
});
