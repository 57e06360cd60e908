/**
 * `pnpm demo`: a scripted walk-through of every demo app, in both eras, over real HTTP on
 * 127.0.0.1, with the Parley client answering from a script. Prints each question, each answer,
 * each round and the final result; exits non-zero if any flow does not end as scripted.
 */
import { Client, type ClientMode } from '@parley/client';

import { createBookingServer } from '../apps/booking/src/bookingServer.ts';
import { createDualEraServer } from '../apps/dual-era/src/dualEraServer.ts';
import { createReportingServer } from '../apps/reporting/src/reportingServer.ts';
import { scriptedElicitation, scriptedRoots, scriptedSampling, scripts } from './demoScenarios.ts';

const quiet = () => {};
const servers = {
  booking: () => createBookingServer({ log: quiet }),
  reporting: () => createReportingServer({ log: quiet }),
  'dual-era': () => createDualEraServer({ log: quiet }),
};

const bold = (value: string) => (process.stdout.isTTY ? `\x1b[1m${value}\x1b[0m` : value);
const show = (value: unknown) =>
  typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);

let failures = 0;
for (const script of scripts) {
  const running = await servers[script.app]().run({ transport: 'http', port: 0 });
  for (const mode of ['modern', 'handshake'] as ClientMode[]) {
    const client = new Client(running.url as string, {
      mode,
      clientInfo: { name: 'parley-demo', version: '1.0.0' },
      elicitationHandler: scriptedElicitation(script.answers, (message, answer, round) => {
        console.log(`    round ${round}  ? ${message}`);
        console.log(`             ! ${show(answer)}`);
      }),
      samplingHandler: (messages, params, ctx) => {
        console.log(
          `    round ${ctx.round}  ? (sampling) ${params.systemPrompt ?? ''} ${messages.length} message(s)`,
        );
        const answer = scriptedSampling(messages, params, ctx);
        console.log(
          `             ! ${show((answer as { content: { text: string } }).content.text)}`,
        );
        return answer;
      },
      roots: (ctx) => {
        console.log(`    round ${ctx.round}  ? (roots)`);
        console.log(`             ! ${show(scriptedRoots.map((root) => root.uri))}`);
        return scriptedRoots;
      },
    });
    await client.connect();
    console.log(
      bold(
        `\n== ${script.app} · ${client.era} era (${client.protocolVersion}) · ${running.url} ==`,
      ),
    );
    for (const step of script.steps) {
      console.log(`  > ${step.label}`);
      try {
        const result = await step.run(client);
        const ok = step.expect.test(result);
        if (!ok) failures += 1;
        for (const line of result.split('\n')) console.log(`    ${ok ? '=' : 'x'} ${line}`);
        if (!ok) console.log(`    x expected ${step.expect}`);
      } catch (error) {
        failures += 1;
        console.log(`    x failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    await client.close();
  }
  await running.close();
}

console.log(
  failures === 0
    ? bold('\nEvery flow ended as scripted.')
    : bold(`\n${failures} flow(s) did not end as scripted.`),
);
process.exit(failures === 0 ? 0 : 1);
