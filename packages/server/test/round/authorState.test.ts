import { createRequestStateSealer } from '@parley/state-sealing';
import { describe, expect, test } from 'vitest';

import { ParleyServer, inputRequired } from '../../src/index.ts';
import { createRoundServer } from '../fixtures/roundServer.ts';
import { rawModernCall } from '../helpers/rawModern.ts';

/**
 * The author's own state between rounds is one string, `inputRequired({ requestState })`, read
 * back as `ctx.requestState`; the JSON `state` and `stateSchema` were removed, and saying so is
 * the server's job wherever they still appear.
 */

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe("the author's state", () => {
  test('a requestState string comes back as ctx.requestState, and travels sealed', async () => {
    const { server, states } = createRoundServer();
    const first = await rawModernCall(server, { name: 'trip_text' });
    const token = first.body.result?.requestState as string;
    expect(token).toMatch(/^ps1\./);
    expect(token).not.toContain('Lisbon');
    const second = await rawModernCall(server, {
      name: 'trip_text',
      inputResponses: { ok: accept({ ok: true }) },
      requestState: token,
    });
    expect(second.body.result).toMatchObject({ content: [{ text: 'Going to Lisbon' }] });
    expect(states.trip_text).toEqual([null, 'Lisbon']);
  });

  test('stateSchema is refused at registration, saying what to use instead', () => {
    const mcp = new ParleyServer({ name: 'Retired' });
    const removed =
      /options\.stateSchema is not an option; it went with inputRequired\(\{ state \}\): carry a string in requestState/;
    expect(() => mcp.tool('t', { stateSchema: {} } as never, () => 'x')).toThrow(removed);
    expect(() => mcp.prompt('p', { stateSchema: {} } as never, () => 'x')).toThrow(removed);
    // A resource's unknown options are listed as its own fields: this one is refused instead.
    expect(() =>
      mcp.resource('res://x', { name: 'x', stateSchema: {} } as never, () => 'x'),
    ).toThrow(removed);
  });

  test('a handler returning the removed JSON state by hand fails the round, saying so', async () => {
    const errors: unknown[] = [];
    const mcp = new ParleyServer({ name: 'Retired', onError: (error) => errors.push(error) });
    mcp.tool('old', () => ({ resultType: 'input_required', state: { step: 2 } }) as never);
    const response = await rawModernCall(mcp, { name: 'old' });
    expect(response.body.error?.code).toBe(-32603);
    expect(String(errors[0])).toMatch(/returned a JSON `state`, which was removed/);
    // The builder refuses it before it gets that far.
    expect(() => inputRequired({ state: 1 } as never)).toThrow(/`state` was removed/);
  });

  test('a token sealed with a JSON state by an older server is refused as invalid state', async () => {
    const KEY = 'k'.repeat(32);
    const { server, states } = createRoundServer({ requestStateSecurity: { keys: [KEY] } });
    // The envelope as an older Parley sealed it, under the same key, audience and request.
    const sealer = createRequestStateSealer({ audience: 'Round Server', keys: [KEY] });
    const binding = { method: 'tools/call', target: 'trip_text', arguments: {} };
    const envelope = { v: 2, f: 'f'.repeat(24), r: 1, t: Date.now() };
    const withString = await sealer.seal(JSON.stringify({ ...envelope, s: 'Porto' }), binding);
    const withJson = await sealer.seal(JSON.stringify({ ...envelope, j: { step: 2 } }), binding);

    const current = await rawModernCall(server, { name: 'trip_text', requestState: withString });
    expect(current.body.result).toMatchObject({ content: [{ text: 'Going to Porto' }] });
    const older = await rawModernCall(server, { name: 'trip_text', requestState: withJson });
    expect(older.body.error).toMatchObject({ message: 'Invalid or expired requestState' });
    expect(states.trip_text).toEqual(['Porto']);
  });
});
