import { afterEach, describe, expect, test } from 'vitest';

import { createRoundServer } from '../fixtures/roundServer.ts';
import { rawHandshake } from '../helpers/rawHandshake.ts';
import { rawModernCall } from '../helpers/rawModern.ts';
import {
  connectSdkClient,
  textOf,
  type ConnectedClient,
  type TestEra,
} from '../helpers/sdkClients.ts';

/**
 * Bad answers are asked again, in the words of the form the person saw, in both eras, until
 * they fit or the re-asks run out; then a typed `InvalidAnswerError`.
 */

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
type Requests = Record<string, { params: { message: string; requestedSchema: unknown } }>;

describe('modern era, on the raw wire', () => {
  test('a typo is asked again without running the handler, and the corrected answer goes on', async () => {
    const { server, seen } = createRoundServer();
    const first = await rawModernCall(server, { name: 'buy' });
    const typo = await rawModernCall(server, {
      name: 'buy',
      inputResponses: { qty: accept({ qty: 0 }) },
      requestState: first.body.result?.requestState,
    });
    const again = (typo.body.result?.inputRequests as Requests).qty!;
    expect(again.params.message).toBe(
      'How many tickets?\n\nYour last answer could not be used. Tickets: must be at least 1, got 0.',
    );
    expect(again.params.requestedSchema).toEqual(
      (first.body.result?.inputRequests as Requests).qty!.params.requestedSchema,
    );
    expect(seen.buy).toEqual([null]);
    const fixed = await rawModernCall(server, {
      name: 'buy',
      inputResponses: { qty: accept({ qty: 2 }) },
      requestState: typo.body.result?.requestState,
    });
    expect(fixed.body.result).toMatchObject({ inputRequests: { ok: {} } });
    expect(seen.buy).toEqual([null, ['qty']]);
  });

  test('three re-asks, then the handler gets the bad answer: -32602 naming the key, the field and the problem, not the answer', async () => {
    const { server } = createRoundServer();
    let state = (await rawModernCall(server, { name: 'pick' })).body.result?.requestState;
    for (let reask = 0; reask < 3; reask++) {
      const response = await rawModernCall(server, {
        name: 'pick',
        inputResponses: { number: accept({ value: 11 }) },
        requestState: state,
      });
      const message = (response.body.result?.inputRequests as Requests).number!.params.message;
      expect(message).toBe(
        'Pick a number from 1 to 10\n\nYour last answer could not be used. Number: must be at most 10, got 11.',
      );
      state = response.body.result?.requestState;
    }
    const final = await rawModernCall(server, {
      name: 'pick',
      inputResponses: { number: accept({ value: 11 }) },
      requestState: state,
    });
    expect(final.body.error).toEqual({
      code: -32602,
      message: "Invalid answer to 'number' in field 'value': must be at most 10",
      data: {
        reason: 'invalid_answer',
        key: 'number',
        field: 'value',
        problem: 'must be at most 10',
      },
    });
  });

  test('the budget is the handler’s to set, and the error its to catch', async () => {
    const { server } = createRoundServer();
    let state = (await rawModernCall(server, { name: 'pick_or_default' })).body.result
      ?.requestState;
    const reasked = await rawModernCall(server, {
      name: 'pick_or_default',
      inputResponses: { number: accept({ value: 99 }) },
      requestState: state,
    });
    expect(reasked.body.result?.resultType).toBe('input_required');
    state = reasked.body.result?.requestState;
    const caught = await rawModernCall(server, {
      name: 'pick_or_default',
      inputResponses: { number: accept({ value: 99 }) },
      requestState: state,
    });
    expect(caught.body.result).toMatchObject({ content: [{ text: 'Picked 5 (the default)' }] });
  });

  test('of two answers in one round, only the bad one is asked again; the good one is kept', async () => {
    const { server, seen } = createRoundServer();
    const first = await rawModernCall(server, { name: 'both' });
    const half = await rawModernCall(server, {
      name: 'both',
      inputResponses: { qty: accept({ qty: 'two' }), ok: accept({ ok: true }) },
      requestState: first.body.result?.requestState,
    });
    expect(Object.keys(half.body.result?.inputRequests as Requests)).toEqual(['qty']);
    const done = await rawModernCall(server, {
      name: 'both',
      inputResponses: { qty: accept({ qty: 2 }) },
      requestState: half.body.result?.requestState,
    });
    expect(done.body.result).toMatchObject({ content: [{ text: '2 tickets, pay true' }] });
    expect(seen.both).toEqual([null, ['ok', 'qty']]);
  });

  test('an answer that fits the question but not the handler’s refinement is asked again too', async () => {
    const { server, seen } = createRoundServer();
    const first = await rawModernCall(server, { name: 'voucher' });
    const refused = await rawModernCall(server, {
      name: 'voucher',
      inputResponses: { code: accept({ code: 'B-123' }) },
      requestState: first.body.result?.requestState,
    });
    expect((refused.body.result?.inputRequests as Requests).code!.params.message).toBe(
      'Your voucher code?\n\nYour last answer could not be used. Voucher code: must start with A.',
    );
    const accepted = await rawModernCall(server, {
      name: 'voucher',
      inputResponses: { code: accept({ code: 'A-123' }) },
      requestState: refused.body.result?.requestState,
    });
    expect(accepted.body.result).toMatchObject({ content: [{ text: 'Voucher A-123' }] });
    expect(seen.voucher).toEqual([null, ['code'], ['code']]);
  });
});

describe('handshake era, on the raw wire', () => {
  test('every kind of bad answer is asked again the same way, then the good one completes', async () => {
    const { server } = createRoundServer();
    const answers = [
      { action: 'accept', content: 'eleven' },
      { nonsense: true },
      accept({ value: 11 }),
    ];
    const connection = await rawHandshake(server, {
      answer: (_request, index) => answers[index] ?? accept({ value: 7 }),
    });
    const result = await connection.call('pick');
    expect(result.result).toMatchObject({ content: [{ text: 'Picked 7' }] });
    expect(
      connection.pushed.map((request) => String(request.params.message).split('\n\n')[1]),
    ).toEqual([
      undefined,
      'Your last answer could not be used. The answer did not come as a form (its content is not an object).',
      'Your last answer could not be used. The answer must accept, decline or cancel, not nothing.',
      'Your last answer could not be used. Number: must be at most 10, got 11.',
    ]);
    await connection.close();
  });

  test('past the budget ctx.elicit rejects, and the call fails with -32602 naming the field', async () => {
    const { server } = createRoundServer();
    const connection = await rawHandshake(server, { answer: () => accept({ value: 0 }) });
    const result = await connection.call('pick');
    expect(result.error).toMatchObject({
      code: -32602,
      data: { reason: 'invalid_answer', field: 'value', problem: 'must be at least 1' },
    });
    expect(connection.pushed).toHaveLength(4);
    await connection.close();
  });
});

describe.each<TestEra>(['modern', 'handshake'])('a typo, then the right answer (%s)', (era) => {
  let connection: ConnectedClient | undefined;
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });

  test('a raw SDK v2 client is simply asked again, and completes', async () => {
    const { server } = createRoundServer();
    let asked = 0;
    connection = await connectSdkClient({
      era,
      via: 'in-process',
      server,
      answers: { elicit: () => accept({ value: asked++ === 0 ? 42 : 4 }) as never },
    });
    const result = await connection.client.callTool({ name: 'pick', arguments: {} });
    expect(textOf(result)).toBe('Picked 4');
    expect(connection.seen.map((request) => request.params.message)).toEqual([
      'Pick a number from 1 to 10',
      'Pick a number from 1 to 10\n\nYour last answer could not be used. Number: must be at most 10, got 42.',
    ]);
  });
});
