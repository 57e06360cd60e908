import { describe, expect, expectTypeOf, test } from 'vitest';
import * as z from 'zod';

import { ParleyServer, inputRequired, type Context } from '../../src/index.ts';
import { createRoundServer } from '../fixtures/roundServer.ts';
import { rawModernCall } from '../helpers/rawModern.ts';

/** `inputRequired({ state })` carries any JSON value; `stateSchema` types and checks it. */

const KEY = 'k'.repeat(32);
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('typed state', () => {
  test('a JSON state comes back parsed and checked, and travels sealed', async () => {
    const { server, states } = createRoundServer();
    const first = await rawModernCall(server, { name: 'trip' });
    const token = first.body.result?.requestState as string;
    expect(token).toMatch(/^ps1\./);
    expect(token).not.toContain('Lisbon');
    expect(first.body.result).not.toHaveProperty('state');
    const second = await rawModernCall(server, {
      name: 'trip',
      inputResponses: { ok: accept({ ok: true }) },
      requestState: token,
    });
    expect(second.body.result).toMatchObject({ content: [{ text: '3 nights in Lisbon' }] });
    expect(states.trip).toEqual([null, { destination: 'Lisbon', nights: 3 }]);
  });

  test('the string form stays: ctx.requestState, and no ctx.state', async () => {
    const { server, states } = createRoundServer();
    const first = await rawModernCall(server, { name: 'trip_text' });
    const second = await rawModernCall(server, {
      name: 'trip_text',
      inputResponses: { ok: accept({ ok: true }) },
      requestState: first.body.result?.requestState,
    });
    expect(second.body.result).toMatchObject({ content: [{ text: 'Going to Lisbon' }] });
    expect(states.trip_text).toEqual([null, null]);
  });

  test('a state that no longer matches the handler’s stateSchema is refused before it runs', async () => {
    const make = (schema: z.ZodType) => {
      const runs: unknown[] = [];
      const mcp = new ParleyServer({
        name: 'Trips',
        requestStateSecurity: { keys: [KEY] },
        onError: () => {},
      });
      mcp.tool('trip', { stateSchema: schema }, (_args, ctx) => {
        runs.push(ctx.state);
        return ctx.state === null ? inputRequired({ state: { nights: 'three' } }) : 'done';
      });
      return { mcp, runs };
    };
    const before = make(z.unknown());
    const after = make(z.object({ nights: z.number() }));
    const first = await rawModernCall(before.mcp, { name: 'trip' });
    const refused = await rawModernCall(after.mcp, {
      name: 'trip',
      requestState: first.body.result?.requestState,
    });
    expect(refused.body.error).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
      data: { reason: 'invalid_request_state' },
    });
    expect(after.runs).toEqual([]);
  });

  test('ctx.state is typed by stateSchema, and unknown without one', () => {
    const mcp = new ParleyServer({ name: 'Types' });
    mcp.tool('typed', { stateSchema: z.object({ step: z.number() }) }, (_args, ctx) => {
      expectTypeOf(ctx.state).toEqualTypeOf<{ step: number } | null>();
      return 'ok';
    });
    mcp.tool('untyped', {}, (_args, ctx) => {
      expectTypeOf(ctx).toEqualTypeOf<Context<unknown>>();
      return 'ok';
    });
    mcp.resource('res://x', { name: 'x', stateSchema: z.string() }, (_uri, ctx) => {
      expectTypeOf(ctx.state).toEqualTypeOf<string | null>();
      return 'x';
    });
  });

  test('a stateSchema that is not a schema is refused at registration', () => {
    const mcp = new ParleyServer({ name: 'Types' });
    expect(() => mcp.tool('bad', { stateSchema: { parse: () => 1 } as never }, () => 'x')).toThrow(
      "tool 'bad': stateSchema must be a Standard Schema",
    );
  });
});
