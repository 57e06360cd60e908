import { Client, type ClientMode, type ClientTarget } from '@parley/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { createBookingServer } from '../../../apps/booking/src/bookingServer.ts';
import { createDualEraServer } from '../../../apps/dual-era/src/dualEraServer.ts';
import { createReportingServer } from '../../../apps/reporting/src/reportingServer.ts';
import { apps, nodeArgs } from '../../../scripts/apps.mjs';
import {
  scriptedElicitation,
  scriptedRoots,
  scriptedSampling,
  scripts,
} from '../../../scripts/demoScenarios.ts';

/**
 * Every demo app end to end, as `pnpm demo` walks through it: over real HTTP on 127.0.0.1 and
 * over stdio (the app as a real child process), in both eras, with the Parley client answering
 * from the script. The dual-era app must give the same results in both eras.
 */

const quiet = () => {};
const build = {
  booking: () => createBookingServer({ log: quiet }),
  reporting: () => createReportingServer({ log: quiet }),
  'dual-era': () => createDualEraServer({ log: quiet }),
};

type Via = 'http' | 'stdio';
const resultsByEra = new Map<string, string>();

describe.each(scripts)('the $app app', (script) => {
  const app = apps.find((candidate) => candidate.name === script.app);
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const running = await build[script.app]().run({ transport: 'http', port: 0 });
    url = running.url as string;
    close = running.close;
  });
  afterAll(() => close());

  const cases: [Via, ClientMode][] = [
    ['http', 'modern'],
    ['http', 'handshake'],
    ['stdio', 'modern'],
    ['stdio', 'handshake'],
  ];

  test.each(cases)('over %s, %s era: every scripted flow ends as scripted', async (via, mode) => {
    const target: ClientTarget =
      via === 'http'
        ? url
        : {
            command: process.execPath,
            args: nodeArgs(app?.entry ?? '', '--stdio'),
            stderr: 'ignore',
          };
    await using client = new Client(target, {
      mode,
      elicitationHandler: scriptedElicitation(script.answers),
      samplingHandler: scriptedSampling,
      roots: scriptedRoots,
    });
    await client.connect();
    expect(client.era).toBe(mode);
    for (const step of script.steps) {
      const result = await step.run(client);
      expect(result, step.label).toMatch(step.expect);
      if (step.sameInBothEras) {
        const key = `${script.app}/${via}/${step.label}`;
        const other = resultsByEra.get(key);
        if (other !== undefined) expect(result, `${step.label} in both eras`).toBe(other);
        resultsByEra.set(key, result);
      }
    }
  });
});
