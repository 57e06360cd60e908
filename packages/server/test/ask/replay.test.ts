import { describe, expect, test } from 'vitest';

import { InputRequiredToolResult, type ToolResult } from '@parley/core';
import { Middleware, type CallNext, type MiddlewareContext } from '@parley/middleware';
import { createAskServer } from '../fixtures/askServer.ts';
import { rawModernCall, type RawCall } from '../helpers/rawModern.ts';
import { connectSdkClient, textOf } from '../helpers/sdkClients.ts';
import type { ParleyServer } from '../../src/index.ts';

/**
 * Sealed replay, wire by wire: what a modern round accepts as the answer to a `ctx.ask`, what it
 * replays from the record, what `ctx.remember` computes (once per flow, on any replica), and how
 * a round ends when the handler gets in the way (a swallowed suspension, a record too large).
 */

const KEYS = ['ask-test-shared-key-0000000000000000'];
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

async function round(server: ParleyServer, call: RawCall) {
  const response = await rawModernCall(server, call);
  expect(response.status).toBe(200);
  return response.body;
}

const asked = (result: Record<string, unknown> | undefined) =>
  Object.fromEntries(
    Object.entries(
      (result?.inputRequests ?? {}) as Record<string, { params?: { message?: string } }>,
    ).map(([key, request]) => [key, request.params?.message]),
  );

describe('replay', () => {
  test('each round takes the answers to what the previous round asked; earlier ones replay from the sealed record', async () => {
    const fixture = createAskServer();
    const first = await round(fixture.server, { name: 'checkout' });
    expect(asked(first.result)).toEqual({ item: 'Which item?' });
    const second = await round(fixture.server, {
      name: 'checkout',
      inputResponses: { item: accept({ value: 'book' }) },
      requestState: first.result?.requestState,
    });
    expect(asked(second.result)).toEqual({ pay: 'Pay 12 EUR for the book?' });
    const third = await round(fixture.server, {
      name: 'checkout',
      // Only this round's answer: the item comes from the record.
      inputResponses: { pay: accept({ value: true }) },
      requestState: second.result?.requestState,
    });
    expect(third.result).toMatchObject({ content: [{ text: 'paid 12: order-1' }] });
    expect(fixture.runs.checkout).toEqual([[3, ['item', 'quote']]]);
    expect(fixture.computed).toEqual({ quote: 1, order: 1 });
  });

  test('ctx.remember runs once per flow across rounds and replicas (two servers, one key ring)', async () => {
    const a = createAskServer({ requestStateSecurity: { keys: KEYS } });
    const b = createAskServer({ requestStateSecurity: { keys: KEYS } });
    const first = await round(a.server, { name: 'checkout' });
    const second = await round(b.server, {
      name: 'checkout',
      inputResponses: { item: accept({ value: 'lamp' }) },
      requestState: first.result?.requestState,
    });
    expect(asked(second.result)).toEqual({ pay: 'Pay 40 EUR for the lamp?' });
    const third = await round(a.server, {
      name: 'checkout',
      inputResponses: { pay: accept({ value: true }) },
      requestState: second.result?.requestState,
    });
    expect(third.result).toMatchObject({ content: [{ text: 'paid 40: order-1' }] });
    // The quote was computed on replica B, replayed on A; the order created once, on A.
    expect([b.computed, a.computed]).toEqual([{ quote: 1 }, { order: 1 }]);

    // Another flow is another computation.
    const again = await round(b.server, { name: 'checkout' });
    await round(b.server, {
      name: 'checkout',
      inputResponses: { item: accept({ value: 'book' }) },
      requestState: again.result?.requestState,
    });
    expect(b.computed).toEqual({ quote: 2 });
  });

  test('on the handshake era the handler runs once, so ctx.remember runs once too', async () => {
    const fixture = createAskServer();
    const connection = await connectSdkClient({
      era: 'handshake',
      via: 'in-process',
      server: fixture.server,
      answers: {
        elicit: (params) =>
          accept({ value: String(params.message).startsWith('Which') ? 'book' : true }) as never,
      },
    });
    const result = await connection.client.callTool({ name: 'checkout', arguments: {} });
    await connection.close();
    expect(textOf(result)).toBe('paid 12: order-1');
    expect(fixture.computed).toEqual({ quote: 1, order: 1 });
    expect(fixture.runs.checkout).toEqual([[1, []]]);
  });

  test('a changed question under the same key is asked again, never answered from an answer to the old one', async () => {
    const fixture = createAskServer();
    const first = await round(fixture.server, { name: 'changing' });
    expect(asked(first.result)).toEqual({ pay: 'Pay 10 EUR?' });
    fixture.prices.current = 12;
    // The answer is to "Pay 10 EUR?"; the handler now asks "Pay 12 EUR?" under the same key.
    const second = await round(fixture.server, {
      name: 'changing',
      inputResponses: { pay: accept({ value: true }) },
      requestState: first.result?.requestState,
    });
    expect(asked(second.result)).toEqual({ pay: 'Pay 12 EUR?' });
    const third = await round(fixture.server, {
      name: 'changing',
      inputResponses: { pay: accept({ value: true }) },
      requestState: second.result?.requestState,
    });
    expect(asked(third.result)).toEqual({ sure: 'Sure?' });
    // The recorded answer (to 12) is not replayed for a question about 15 either.
    fixture.prices.current = 15;
    const fourth = await round(fixture.server, {
      name: 'changing',
      inputResponses: { sure: accept({ value: true }) },
      requestState: third.result?.requestState,
    });
    expect(asked(fourth.result)).toEqual({ pay: 'Pay 15 EUR?' });
    const fifth = await round(fixture.server, {
      name: 'changing',
      inputResponses: { pay: accept({ value: true }) },
      requestState: fourth.result?.requestState,
    });
    expect(fifth.result).toMatchObject({ content: [{ text: 'paid 15' }] });
    // The answer to 'sure' came on round 4, which stopped at the changed price; round 5 replays it.
    expect(fixture.runs.changing).toEqual([[5, ['sure']]]);
  });

  test('answers under keys never asked are ignored, and the question is asked for real', async () => {
    const fixture = createAskServer();
    const first = await round(fixture.server, { name: 'checkout' });
    const second = await round(fixture.server, {
      name: 'checkout',
      inputResponses: { item: accept({ value: 'lamp' }), pay: accept({ value: true }) },
      requestState: first.result?.requestState,
    });
    expect(asked(second.result)).toEqual({ pay: 'Pay 40 EUR for the lamp?' });
    // Without state nothing was asked: an undeclared answer up front is ignored too.
    const upFront = await round(fixture.server, {
      name: 'checkout',
      inputResponses: { item: accept({ value: 'book' }) },
    });
    expect(asked(upFront.result)).toEqual({ item: 'Which item?' });
    expect(fixture.warnings.filter((warning) => warning.includes('ignored'))).toEqual([
      "Tool 'checkout': ignored an answer under 'pay', which the previous round did not ask.",
      "Tool 'checkout': ignored an answer under 'item', which no round of this flow asked.",
    ]);
  });

  test('answers up front to declared asks are taken, from the full ask or its bare response type', async () => {
    const fixture = createAskServer();
    const body = await round(fixture.server, {
      name: 'up_front',
      inputResponses: { name: accept({ value: 'Ada' }), size: accept({ value: 'M' }) },
    });
    expect(body.result).toMatchObject({ content: [{ text: 'Ada wears M' }] });
    expect(fixture.runs.up_front).toEqual([[2, []]]);
  });

  test('asks made together (Promise.all) go to the client in one round', async () => {
    const fixture = createAskServer();
    const first = await round(fixture.server, { name: 'in_parallel' });
    expect(Object.keys(asked(first.result)).sort()).toEqual(['count', 'name']);
    const second = await round(fixture.server, {
      name: 'in_parallel',
      inputResponses: { name: accept({ value: 'Ada' }), count: accept({ value: 2 }) },
      requestState: first.result?.requestState,
    });
    expect(second.result).toMatchObject({ content: [{ text: 'accept/accept' }] });
  });

  test('the author state of the guard pattern travels beside the record', async () => {
    const fixture = createAskServer();
    const first = await round(fixture.server, { name: 'mixed' });
    const second = await round(fixture.server, {
      name: 'mixed',
      inputResponses: { name: accept({ value: 'Ada' }) },
      requestState: first.result?.requestState,
    });
    // A state-only round: nothing asked, the name recorded.
    expect(second.result).toMatchObject({ resultType: 'input_required' });
    expect(second.result?.inputRequests).toBeUndefined();
    const third = await round(fixture.server, {
      name: 'mixed',
      requestState: second.result?.requestState,
    });
    expect(third.result).toMatchObject({ content: [{ text: 'Ada after state 1' }] });
  });
});

describe('when the handler gets in the way', () => {
  test('a swallowed suspension is a clear error naming the question, not a result or a hang', async () => {
    const fixture = createAskServer();
    const body = await round(fixture.server, { name: 'swallow' });
    expect(body.error).toEqual({
      code: -32603,
      message:
        "Tool 'swallow' caught the suspension of ctx.ask('name') and returned a result instead of " +
        'letting it propagate, so the question was never asked. Rethrow errors you do not ' +
        'handle (a try/catch around ctx.ask must not swallow everything).',
    });
    const wrapped = await round(fixture.server, { name: 'wrap' });
    expect(wrapped.error?.message).toMatch(
      /^Tool 'wrap' caught the suspension of ctx.ask\('name'\) and threw another error instead/,
    );
    expect(fixture.errors).toHaveLength(2);
  });

  test('a record over the size budget is a clear error naming how much the recorded values take', async () => {
    const fixture = createAskServer();
    const fits = await round(fixture.server, { name: 'bulky', arguments: { size: 1000 } });
    expect(asked(fits.result)).toEqual({ ok: 'Keep it?' });
    const body = await round(fixture.server, { name: 'bulky', arguments: { size: 9000 } });
    expect(body.error?.code).toBe(-32603);
    expect(body.error?.message).toMatch(
      /^The state of this round is too large to send: seal: \d+ bytes of state make a \d+-byte token, over maxTokenBytes \(8192\).*\. Of the state, the values ctx\.remember recorded \(1\) take 9015 bytes: every answer and remembered value of the flow travels on each round, so remember small things \(an id, not a document\)\.$/,
    );
  });

  test('ctx.remember refuses a value JSON would change, naming where it is', async () => {
    const fixture = createAskServer();
    const body = await round(fixture.server, { name: 'not_json' });
    expect(body.result).toMatchObject({
      isError: true,
      content: [
        {
          text: "ctx.remember('when'): the value.at is a Date, which JSON cannot carry between rounds; convert it (a Date to an ISO string, a Map to an object).",
        },
      ],
    });
  });
});

describe('middleware', () => {
  test('sees every round of a ctx.ask flow as an ordinary round: asks, then the final result', async () => {
    const rounds: [number | undefined, string][] = [];
    const fixture = createAskServer();
    fixture.server.use(
      new (class extends Middleware {
        override async onCallTool(context: MiddlewareContext, callNext: CallNext<ToolResult>) {
          const result = await callNext();
          rounds.push([
            context.flow?.round,
            result instanceof InputRequiredToolResult
              ? `asked ${result.askedKeys.join(',')}`
              : 'final',
          ]);
          return result;
        }
      })(),
    );
    const first = await round(fixture.server, { name: 'checkout' });
    const second = await round(fixture.server, {
      name: 'checkout',
      inputResponses: { item: accept({ value: 'book' }) },
      requestState: first.result?.requestState,
    });
    await round(fixture.server, {
      name: 'checkout',
      inputResponses: { pay: accept({ value: false }) },
      requestState: second.result?.requestState,
    });
    expect(rounds).toEqual([
      [1, 'asked item'],
      [2, 'asked pay'],
      [3, 'final'],
    ]);
  });
});
