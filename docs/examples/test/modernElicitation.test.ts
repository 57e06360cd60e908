/**
 * The second half of the elicitation page: the guard pattern on the modern protocol, the era
 * errors, prompts and resources, sampling and roots, several replicas and dual-era servers.
 */
import { describe, expect, test } from 'vitest';

import {
  Client,
  InvalidAnswerError,
  ParleyError,
  type ClientMode,
  type ElicitationHandler,
  type InProcessServer,
  type RoundEvent,
} from '@parley/client';
import { generateKey } from '@parley/state-sealing';

import * as bookFlight from '../elicitation/bookFlight.ts';
import * as carryingState from '../elicitation/carryingState.ts';
import { bookFlight as drive } from '../elicitation/drivingTheLoop.ts';
import * as dualEra from '../elicitation/dualEra.ts';
import * as eraErrors from '../elicitation/eraErrors.ts';
import { createReplica } from '../elicitation/multiReplica.ts';
import { roundRobin } from '../deployment/roundRobin.ts';
import * as promptsAndResources from '../elicitation/promptsAndResources.ts';
import { readReports } from '../elicitation/promptsAndResourcesClient.ts';
import * as readingAnswers from '../elicitation/readingAnswers.ts';
import * as roundLimits from '../elicitation/roundLimits.ts';
import { survey } from '../elicitation/samplingAndRootsClient.ts';
import { consoleOutput, eras, quoted, textOf } from './support.ts';

/** Connects in `mode`, answering with `handler`, and records each answered round. */
async function connect(
  server: InProcessServer,
  mode: ClientMode,
  handler: ElicitationHandler,
) {
  const rounds: RoundEvent[] = [];
  const client = new Client(server, {
    mode,
    elicitationHandler: handler,
    onRound: (event) => rounds.push(event),
  });
  await client.connect();
  return { client, rounds };
}

const bookingAnswers: ElicitationHandler = (message, responseType) =>
  message.includes('Where')
    ? responseType({ destination: 'Paris' })
    : responseType({ date: '2026-08-01' });

describe('how it works: book_flight', () => {
  test('driving the loop prints what the page quotes', async () => {
    const printed = await consoleOutput(() =>
      drive(bookFlight.createServer()),
    );
    expect(printed).toBe(quoted('elicitation/drivingTheLoop.out.txt'));
  });

  test('three runs of the handler, two answered rounds, the destination carried in state', async () => {
    const { client, rounds } = await connect(
      bookFlight.createServer(),
      'modern',
      bookingAnswers,
    );
    await using _ = client;
    const result = await client.callTool<string>('book_flight');
    expect(result.data).toBe('Booked a flight to Paris on 2026-08-01');
    expect(rounds.map((round) => Object.keys(round.asked))).toEqual([
      ['destination'],
      ['date'],
    ]);
    // Every ask carries a sealed state (the flow's identity, plus the author's own state): the
    // client only ever holds the token, never the plaintext destination.
    expect(rounds.map((round) => round.requestState)).toEqual([
      expect.stringMatching(/^ps1\./),
      expect.stringMatching(/^ps1\./),
    ]);
    expect(rounds[1]?.requestState).not.toContain('Paris');
  });

  test('a decline is an answer like any other', async () => {
    const { client } = await connect(
      bookFlight.createServer(),
      'modern',
      () => ({
        action: 'decline',
      }),
    );
    await using _ = client;
    expect((await client.callTool('book_flight')).data).toBe(
      'Booking cancelled.',
    );
  });
});

describe('reading answers', () => {
  test.each([
    [true, 'Proceeding with true'],
    [false, 'Proceeding with false'],
  ])('accept %s', async (ok, expected) => {
    const { client } = await connect(
      readingAnswers.createServer(),
      'modern',
      (_m, rt) => rt({ ok }),
    );
    await using _ = client;
    expect(textOf(await client.callTool('confirm'))).toBe(expected);
    expect(textOf(await client.callTool('confirm_raw'))).toBe(
      `The client sent {"ok":${ok}}`,
    );
  });

  test.each(['decline', 'cancel'] as const)('%s', async (action) => {
    const { client } = await connect(
      readingAnswers.createServer(),
      'modern',
      () => ({ action }),
    );
    await using _ = client;
    expect(textOf(await client.callTool('confirm'))).toBe('Cancelled.');
  });
});

test('round limits: a guard that asks forever stops after the bound', async () => {
  const printed = await consoleOutput(() =>
    roundLimits.callWithABound(roundLimits.createServer()),
  );
  expect(printed).toBe(quoted('elicitation/roundLimits.out.txt'));
});

describe('carrying state across rounds', () => {
  test('the quote computed on round 1 comes back on round 2, sealed in between', async () => {
    const answers: ElicitationHandler = (message) =>
      message === 'Where to?' ? 'Lisbon' : true;
    const { client, rounds } = await connect(
      carryingState.createServer(),
      'modern',
      answers,
    );
    await using _ = client;
    expect(textOf(await client.callTool('book_cheapest'))).toBe(
      'Booked Lisbon for 120 EUR',
    );
    const state = rounds[1]?.requestState ?? '';
    expect(state).toMatch(/^ps1\./);
    expect(state).not.toContain('Lisbon');
    expect(state).not.toContain('120');
  });
});

describe('multi-replica deployments and key rotation', () => {
  const [oldKey, newKey, otherKey] = [
    generateKey(),
    generateKey(),
    generateKey(),
  ];

  async function bookAcross(balancer: InProcessServer): Promise<string> {
    const { client } = await connect(balancer, 'modern', bookingAnswers);
    await using _ = client;
    return textOf(await client.callTool('book_flight'));
  }

  const replicaWith = (keys: string[]) =>
    createReplica({ REQUEST_STATE_KEY: keys.join(',') });

  test('replicas sharing a key ring serve the rounds of one flow', async () => {
    const balancer = roundRobin([
      replicaWith([oldKey!]),
      replicaWith([oldKey!]),
      replicaWith([oldKey!]),
    ]);
    expect(await bookAcross(balancer)).toBe(
      'Booked a flight to Paris on 2026-08-01',
    );
    expect(new Set(balancer.served.slice(-3))).toEqual(new Set([0, 1, 2]));
  });

  test('replicas with different keys reject each other’s state', async () => {
    const balancer = roundRobin([
      replicaWith([oldKey!]),
      replicaWith([otherKey!]),
    ]);
    const failure = await bookAcross(balancer).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ParleyError);
    expect((failure as ParleyError).code).toBe('invalid_request_state');
    expect((failure as Error).message).toContain(
      'Invalid or expired requestState',
    );
  });

  test('[old, new] → [new, old] → [new]: every step, half the fleet rolled, nothing breaks', async () => {
    const steps = [
      [oldKey!],
      [oldKey!, newKey!],
      [newKey!, oldKey!],
      [newKey!],
    ];
    for (let step = 1; step < steps.length; step += 1) {
      // Mid-rollout: one replica on the previous step, one on the next.
      const balancer = roundRobin([
        replicaWith(steps[step - 1]!),
        replicaWith(steps[step]!),
      ]);
      expect(await bookAcross(balancer), `step ${step}`).toBe(
        'Booked a flight to Paris on 2026-08-01',
      );
    }
  });

  test('skipping step 1 breaks flows that cross replicas', async () => {
    const balancer = roundRobin([
      replicaWith([oldKey!]),
      replicaWith([newKey!, oldKey!]),
    ]);
    await expect(bookAcross(balancer)).rejects.toThrow(
      /Invalid or expired requestState/,
    );
  });

  test('REQUEST_STATE_KEY is required', () => {
    expect(() => createReplica({})).toThrow('Set REQUEST_STATE_KEY');
  });
});

describe('protocol requirements: the era errors', () => {
  test('an InputRequiredResult on a handshake connection', async () => {
    const server = eraErrors.createServer({ onError: () => {} });
    const { client } = await connect(server, 'handshake', () => 'Paris');
    await using _ = client;
    await expect(client.callTool('book_flight')).rejects.toThrow(
      quoted('elicitation/eraErrors.handshake.out.txt'),
    );
    expect(textOf(await client.callTool('ask_name'))).toBe('Hello, Paris!');
  });

  test('ctx.elicit() on the modern protocol', async () => {
    const server = eraErrors.createServer({ onError: () => {} });
    const { client } = await connect(server, 'modern', () => 'Paris');
    await using _ = client;
    await expect(client.callTool('ask_name')).rejects.toThrow(
      quoted('elicitation/eraErrors.modern.out.txt'),
    );
    expect(textOf(await client.callTool('book_flight'))).toBe(
      'Booked a flight to Paris',
    );
  });
});

describe('prompts and resources', () => {
  test('getPrompt and readResource drive the loop like callTool (modern)', async () => {
    const printed = await consoleOutput(() => readReports('modern'));
    expect(printed).toBe(quoted('elicitation/promptsAndResources.out.txt'));
  });

  test('the same era requirement applies on a handshake connection', async () => {
    const server = promptsAndResources.createServer({ onError: () => {} });
    const { client } = await connect(server, 'handshake', () => 'Q3');
    await using _ = client;
    await expect(client.getPrompt('summarize')).rejects.toThrow(
      /^Prompt 'summarize' returned an InputRequiredResult to request client input/,
    );
  });
});

describe.each(eras)('sampling and roots, %s era', (era) => {
  test('one client, three handlers', async () => {
    expect(await survey(era)).toBe(
      quoted(`elicitation/samplingAndRoots.${era}.out.txt`),
    );
  });
});

describe.each(eras)('dual-era servers, %s era', (era) => {
  test('branching on the protocol version', async () => {
    const { client, rounds } = await connect(
      dualEra.createServer(),
      era,
      () => 4,
    );
    await using _ = client;
    expect(textOf(await client.callTool('book_table'))).toBe('Table for 4');
    expect(rounds.map((round) => round.era)).toEqual([era]);
  });
});

describe('what the page claims about answers and state', () => {
  /** Rewrites the content of every answer the client sends, as a buggy or hostile client would. */
  function rewritingAnswers(
    server: InProcessServer,
    content: unknown,
  ): InProcessServer {
    return {
      connect: (transport) => server.connect(transport),
      async fetch(request) {
        const body = (await request.clone().json()) as {
          params?: { inputResponses?: Record<string, unknown> };
        };
        const responses = body.params?.inputResponses;
        if (responses === undefined) return server.fetch(request);
        for (const key of Object.keys(responses))
          responses[key] = { action: 'accept', content };
        return server.fetch(
          new Request(request, { body: JSON.stringify(body) }),
        );
      },
    };
  }

  test('an answer that does not fit is asked again, in the words of the form', async () => {
    let sent = 0;
    const server = readingAnswers.createServer({ onError: () => {} });
    const firstAnswerWrong: InProcessServer = {
      connect: (transport) => server.connect(transport),
      fetch: async (request) =>
        (await request.clone().text()).includes('inputResponses') &&
        sent++ === 0
          ? rewritingAnswers(server, { ok: 'yes please' }).fetch(request)
          : server.fetch(request),
    };
    const messages: string[] = [];
    const { client } = await connect(
      firstAnswerWrong,
      'modern',
      (message, rt) => {
        messages.push(message);
        return rt({ ok: true });
      },
    );
    await using _ = client;
    expect(textOf(await client.callTool('confirm'))).toBe(
      'Proceeding with true',
    );
    expect(messages).toHaveLength(2);
    expect(messages[1]).toBe(quoted('elicitation/reasking.out.txt'));
  });

  test('an answer that keeps not fitting ends, after three re-asks, in an InvalidAnswerError naming the field', async () => {
    const server = rewritingAnswers(
      readingAnswers.createServer({ onError: () => {} }),
      { ok: 'yes please' },
    );
    let asked = 0;
    const { client } = await connect(server, 'modern', (_m, rt) => {
      asked += 1;
      return rt({ ok: true });
    });
    await using _ = client;
    const failure = await client
      .callTool('confirm')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidAnswerError);
    expect((failure as InvalidAnswerError).data).toMatchObject({
      key: 'ok',
      field: 'ok',
    });
    expect((failure as Error).message).toMatch(
      /^Invalid answer to 'ok' in field 'ok'/,
    );
    expect(asked).toBe(4);
  });

  test('the era errors reach the client as JSON-RPC -32600 (Invalid Request)', async () => {
    const { client } = await connect(
      eraErrors.createServer({ onError: () => {} }),
      'modern',
      () => 'x',
    );
    await using _ = client;
    const failure = (await client
      .callTool('ask_name')
      .catch((error: unknown) => error)) as {
      code?: unknown;
    };
    expect(failure.code).toBe(-32600);
  });

  test('state over the size budget is refused when it is minted', async () => {
    const { client } = await connect(
      carryingState.createServer({ onError: () => {} }),
      'modern',
      () => 'x'.repeat(9000),
    );
    await using _ = client;
    await expect(client.callTool('book_cheapest')).rejects.toThrow(
      /at most 8192|too large|too-large/i,
    );
  });
});
