import { describe, expect, test } from 'vitest';

import type { CreateMessageResult } from '@parley/core';
import { eraMatrix, scriptedUser, type ElicitationReply } from '@parley/testing';

import { createBookingServer } from '../../../apps/booking/src/bookingServer.ts';
import { createDualEraServer } from '../../../apps/dual-era/src/dualEraServer.ts';
import { createReportingServer } from '../../../apps/reporting/src/reportingServer.ts';
import { apps, nodeArgs } from '../../../scripts/apps.mjs';
import {
  scriptedRoots,
  scriptedSampling,
  scripts,
  type AppScript,
} from '../../../scripts/demoScenarios.ts';

/**
 * Every demo app end to end, as `pnpm demo` walks through it, with `@parley/testing`: in both
 * eras, over the server in this process, the app as a real child process over stdio, and real
 * HTTP on 127.0.0.1, with a scripted user answering from the demo's script. A question the
 * script does not answer fails the flow. The dual-era app must give the same results in both
 * eras.
 */

const quiet = () => {};
const build = {
  booking: () => createBookingServer({ log: quiet }),
  reporting: () => createReportingServer({ log: quiet }),
  'dual-era': () => createDualEraServer({ log: quiet }),
};

/** The demo's person, model and workspace as one scripted user. */
function userFor(script: AppScript) {
  const user = scriptedUser();
  for (const [pattern, answer] of script.answers) user.answer(pattern, answer as ElicitationReply);
  return user
    .sample(
      (asked) =>
        scriptedSampling(
          [],
          asked.request.params as never,
          undefined as never,
        ) as CreateMessageResult,
    )
    .roots(scriptedRoots);
}

const resultsByEra = new Map<string, string>();

describe.each(scripts)('the $app app', (script) => {
  const app = apps.find((candidate) => candidate.name === script.app);
  const cells = eraMatrix({
    server: build[script.app],
    stdio: {
      command: process.execPath,
      args: nodeArgs(app?.entry ?? '', '--stdio'),
      stderr: 'ignore',
    },
  });

  test.each(cells)('$name: every scripted flow ends as scripted', async (cell) => {
    const user = userFor(script);
    await using connection = await cell.connect({ user });
    for (const step of script.steps) {
      const result = await step.run(connection.client);
      expect(result, step.label).toMatch(step.expect);
      if (step.sameInBothEras) {
        const key = `${script.app}/${cell.transport}/${step.label}`;
        const other = resultsByEra.get(key);
        if (other !== undefined) expect(result, `${step.label} in both eras`).toBe(other);
        resultsByEra.set(key, result);
      }
    }
    expect(user.asked.length).toBeGreaterThan(0);
  });
});
