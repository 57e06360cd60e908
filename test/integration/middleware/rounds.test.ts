import { afterEach, describe, expect, test } from 'vitest';

import { InputRequiredToolResult, type ToolResult, isInputRequiredResult } from '@parley/core';
import {
  Middleware,
  TimingMiddleware,
  type CallNext,
  type FlowTiming,
  type MiddlewareContext,
  type MiddlewareFunction,
} from '@parley/middleware';
import { REPLICA_KEYS, createBookingServer } from './bookingServer.ts';
import { accepted, connect, rawToolCall, textOf, type Connected } from './helpers.ts';

/**
 * Each modern round is a full request, so a three-round call runs the whole chain three times;
 * on the handshake era the same call is one round with the elicitations inside it. The flow
 * identity ties the rounds together, also across replicas.
 */

interface Seen {
  hook: string;
  method: string;
  isContinuation: boolean;
  flowId: string | undefined;
  round: number | undefined;
  answered: string[] | null;
  requestState: string | null | undefined;
  outcome: 'input_required' | 'complete';
  pushedRequests: number;
}

/** Records every hook it has, with what the context said and how the round ended. */
class Recorder extends Middleware {
  readonly seen: Seen[] = [];

  async #record<T>(hook: string, context: MiddlewareContext, callNext: CallNext<T>): Promise<T> {
    const result = await callNext();
    const answers = context.inputResponses;
    this.seen.push({
      hook,
      method: context.method,
      isContinuation: context.isContinuation,
      flowId: context.flow?.id,
      round: context.flow?.round,
      answered: answers == null ? null : Object.keys(answers),
      requestState: context.requestState,
      outcome:
        result instanceof InputRequiredToolResult || isInputRequiredResult(result)
          ? 'input_required'
          : 'complete',
      pushedRequests: context.pushedRequests,
    });
    return result;
  }

  override onRequest(context: MiddlewareContext, callNext: CallNext<unknown>) {
    return this.#record('onRequest', context, callNext);
  }
  override onCallTool(context: MiddlewareContext, callNext: CallNext<ToolResult>) {
    return this.#record('onCallTool', context, callNext);
  }
  override onListTools(
    context: MiddlewareContext,
    callNext: CallNext<{ tools: Record<string, unknown>[] }>,
  ) {
    return this.#record('onListTools', context, callNext);
  }

  /** What one hook saw for `tools/call`. */
  calls(hook: string): Seen[] {
    return this.seen.filter((seen) => seen.hook === hook && seen.method === 'tools/call');
  }
}

const answers = (message: string) =>
  message.startsWith('Where')
    ? accepted({ destination: 'Paris' })
    : accepted({ date: '2026-08-01' });

let connection: Connected | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

describe('a three-round booking on the modern era', () => {
  test('runs every hook three times: isContinuation false, true, true; one flow id; rounds 1, 2, 3', async () => {
    const recorder = new Recorder();
    const functionRounds: (number | undefined)[] = [];
    const plain: MiddlewareFunction = async (context, callNext) => {
      if (context.method === 'tools/call') functionRounds.push(context.flow?.round);
      return callNext();
    };
    const { server, runs } = createBookingServer([recorder, plain]);
    connection = await connect(server, 'modern', answers);
    const result = await connection.client.callTool({ name: 'book_flight', arguments: {} });
    expect(textOf(result)).toBe('Booked a flight to Paris on 2026-08-01');
    expect(runs.book_flight).toBe(3);

    for (const hook of ['onRequest', 'onCallTool']) {
      const rounds = recorder.calls(hook);
      expect(rounds.map((seen) => seen.isContinuation)).toEqual([false, true, true]);
      expect(rounds.map((seen) => seen.round)).toEqual([1, 2, 3]);
      expect(new Set(rounds.map((seen) => seen.flowId)).size).toBe(1);
      expect(rounds[0]?.flowId).toMatch(/^[0-9a-f]{24}$/);
      expect(rounds.map((seen) => seen.outcome)).toEqual([
        'input_required',
        'input_required',
        'complete',
      ]);
    }
    // What the author's context said on each round: the guard pattern's two signals.
    expect(recorder.calls('onCallTool').map((seen) => [seen.answered, seen.requestState])).toEqual([
      [null, null],
      [['destination'], null],
      [['date'], 'Paris'],
    ]);
    expect(functionRounds).toEqual([1, 2, 3]);
  });

  test('a state-only round is a continuation although it carries no answers', async () => {
    const recorder = new Recorder();
    const { server } = createBookingServer([recorder]);
    connection = await connect(server, 'modern');
    const result = await connection.client.callTool({ name: 'countdown', arguments: {} });
    expect(textOf(result)).toBe('Lift-off');
    expect(
      recorder.calls('onCallTool').map((seen) => [seen.round, seen.answered, seen.isContinuation]),
    ).toEqual([
      [1, null, false],
      [2, null, true],
      [3, null, true],
    ]);
  });

  test('list methods run the chain too, with no author context and no flow', async () => {
    const recorder = new Recorder();
    const { server } = createBookingServer([recorder]);
    connection = await connect(server, 'modern');
    const listed = await connection.client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toContain('book_flight');
    const lists = recorder.seen.filter((seen) => seen.method === 'tools/list');
    expect(lists.map((seen) => seen.hook)).toEqual(
      expect.arrayContaining(['onRequest', 'onListTools']),
    );
    expect(lists.every((seen) => seen.flowId === undefined && !seen.isContinuation)).toBe(true);
  });
});

describe('the same booking on the handshake era', () => {
  test('is one round: every hook runs once, round 1, not a continuation, the asks inside it', async () => {
    const recorder = new Recorder();
    const { server, runs } = createBookingServer([recorder]);
    connection = await connect(server, 'handshake', answers);
    const result = await connection.client.callTool({ name: 'book_flight', arguments: {} });
    expect(textOf(result)).toBe('Booked a flight to Paris on 2026-08-01');
    expect(connection.asked).toEqual([
      'Where would you like to fly?',
      'When would you like to fly to Paris?',
    ]);
    expect(runs.book_flight).toBe(1);
    for (const hook of ['onRequest', 'onCallTool']) {
      expect(recorder.calls(hook)).toEqual([
        {
          hook,
          method: 'tools/call',
          isContinuation: false,
          flowId: expect.stringMatching(/^[0-9a-f]{24}$/),
          round: 1,
          answered: null,
          requestState: null,
          outcome: 'complete',
          // Both elicitations were pushed while the round ran.
          pushedRequests: 2,
        },
      ]);
    }
  });
});

describe('the flow identity across replicas', () => {
  test('survives sealing: rounds on two instances sharing a key ring share one flow id', async () => {
    const onA = new Recorder();
    const onB = new Recorder();
    const flows: FlowTiming[] = [];
    const a = createBookingServer(
      [onA, new TimingMiddleware({ onRound: () => {}, onFlow: (timing) => flows.push(timing) })],
      { requestStateSecurity: { keys: REPLICA_KEYS } },
    );
    const b = createBookingServer([onB], { requestStateSecurity: { keys: REPLICA_KEYS } });

    const first = await rawToolCall(a.server, { name: 'book_flight' });
    expect(first.result?.resultType).toBe('input_required');
    const second = await rawToolCall(b.server, {
      name: 'book_flight',
      inputResponses: { destination: accepted({ destination: 'Lisbon' }) },
      requestState: first.result?.requestState as string,
    });
    expect(second.result?.resultType).toBe('input_required');
    const third = await rawToolCall(a.server, {
      name: 'book_flight',
      inputResponses: { date: accepted({ date: '2026-09-09' }) },
      requestState: second.result?.requestState as string,
    });
    expect(textOf(third.result)).toBe('Booked a flight to Lisbon on 2026-09-09');

    const [round1, round3] = onA.calls('onCallTool');
    const [round2] = onB.calls('onCallTool');
    expect([round1?.round, round2?.round, round3?.round]).toEqual([1, 2, 3]);
    expect(round2?.flowId).toBe(round1?.flowId);
    expect(round3?.flowId).toBe(round1?.flowId);
    // A timed the whole flow, although its middle round ran on B.
    expect(flows).toHaveLength(1);
    expect(flows[0]).toMatchObject({ flowId: round1?.flowId, rounds: 3, outcome: 'complete' });
  });

  test('a state another key ring sealed is rejected before any middleware runs', async () => {
    const a = createBookingServer([], { requestStateSecurity: { keys: REPLICA_KEYS } });
    const stranger = new Recorder();
    const other = createBookingServer([stranger], {
      requestStateSecurity: { keys: ['a-completely-different-key-ring-0123456789'] },
    });
    const first = await rawToolCall(a.server, { name: 'book_flight' });
    const rejected = await rawToolCall(other.server, {
      name: 'book_flight',
      inputResponses: { destination: accepted({ destination: 'Lisbon' }) },
      requestState: first.result?.requestState as string,
    });
    expect(rejected.error).toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
    expect(stranger.seen).toEqual([]);
    expect(other.runs.book_flight).toBeUndefined();
  });
});
