import { describe, expect, test } from 'vitest';

import {
  Client,
  type ElicitationHandler,
  type InProcessServer,
} from '@parley/client';
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';

import * as bookFlight from '../elicitation/bookFlight.ts';
import * as defaults from '../elicitation/defaults.ts';
import * as handshake from '../elicitation/handshake.ts';
import * as scalars from '../elicitation/scalars.ts';
import * as urlMode from '../elicitation/urlMode.ts';
import * as gettingStarted from '../gettingStarted/server.ts';
import { answer, render } from '../client/handlers.ts';
import { showModes } from '../client/modes.ts';
import { traceRounds } from '../client/onRound.ts';
import { showResults } from '../client/results.ts';
import { passThrough } from '../client/sendRound.ts';
import { consoleOutput, eras, quoted, textOf } from './support.ts';

async function callWith(
  server: InProcessServer,
  mode: 'modern' | 'handshake',
  handler: ElicitationHandler,
  tool: string,
) {
  await using client = new Client(server, {
    mode,
    elicitationHandler: handler,
  });
  await client.connect();
  return await client.callTool(tool); // await before the client is disposed
}

test('modes: what each one negotiates with a server that speaks both eras', async () => {
  expect(
    await consoleOutput(() => showModes(gettingStarted.createServer())),
  ).toBe(quoted('client/modes.out.txt'));
});

describe('handlers: every return form', () => {
  test('a bare value, a plain object and a builder result (handshake era)', async () => {
    const quiet = { onWarning: () => {} };
    expect(
      textOf(
        await callWith(
          scalars.createServer(quiet),
          'handshake',
          answer,
          'get_user_name',
        ),
      ),
    ).toBe('Hello, Ada!');
    expect(
      textOf(
        await callWith(
          handshake.createServer(),
          'handshake',
          answer,
          'collect_user_info',
        ),
      ),
    ).toBe('Hello Ada, you are 36 years old');
    const printed = await consoleOutput(async () => {
      expect(
        textOf(
          await callWith(
            defaults.createServer(),
            'handshake',
            answer,
            'create_task',
          ),
        ),
      ).toBe('Created: Write the docs (priority medium)');
    });
    expect(printed).toBe(
      'handshake era, create_task, round 1: Please provide task details',
    );
  });

  test.each(eras)(
    'a declined question and a URL-mode request, %s era',
    async (era) => {
      const mcp = new ParleyServer({ name: 'Deleter' });
      mcp.tool('delete_all', async (_args, ctx) => {
        const ok = await ctx.elicit('Delete everything?', Boolean, {
          responseTitle: 'Delete',
        });
        return ok.action;
      });
      if (era === 'handshake')
        expect(textOf(await callWith(mcp, era, answer, 'delete_all'))).toBe(
          'decline',
        );
      expect(
        textOf(
          await callWith(
            urlMode.createServer(),
            era,
            answer,
            'connect_account',
          ),
        ),
      ).toBe('Not connected (decline)');
    },
  );

  /** The defaults example, and the same ask in the guard pattern for the modern era. */
  function taskServer(era: 'modern' | 'handshake'): ParleyServer {
    if (era === 'handshake') return defaults.createServer();
    const mcp = new ParleyServer({ name: 'Task Server' });
    const ask = elicitRequest(
      'Please provide task details',
      defaults.TaskDetails,
    );
    mcp.tool('create_task', (_args, ctx) => {
      const task = ctx.answer('task', ask);
      if (task === undefined)
        return inputRequired({ inputRequests: { task: ask } });
      return task.action === 'accept'
        ? `Created: ${task.data.title} (priority ${task.data.priority})`
        : '-';
    });
    return mcp;
  }

  test.each(eras)(
    'rendering fields from responseType.fields, %s era',
    async (era) => {
      const printed = await consoleOutput(async () => {
        expect(
          textOf(
            await callWith(taskServer(era), era, render, 'create_task'),
          ),
        ).toBe('Created: Write the docs (priority medium)');
      });
      expect(printed, era).toBe(quoted('client/handlers.render.out.txt'));
    },
  );
});

test.each(eras)(
  'results: data, structuredContent and content, %s era',
  async (era) => {
    expect(await consoleOutput(() => showResults(era))).toBe(
      quoted(`client/results.${era}.out.txt`),
    );
  },
);

test('sendRound: one round at a time, the state handed back as the server sent it', async () => {
  expect(await passThrough()).toBe('input_required → Booked Lisbon');
});

test('onRound and a per-call maxRounds', async () => {
  expect(
    await consoleOutput(() =>
      traceRounds(bookFlight.createServer(), 'modern'),
    ),
  ).toBe(quoted('client/onRound.out.txt'));
});
