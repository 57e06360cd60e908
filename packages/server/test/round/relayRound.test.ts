import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { ProtocolError } from '@modelcontextprotocol/server';

import { ParleyServer, ToolResult, type RelayedRound } from '../../src/index.ts';
import { rawModernCall } from '../helpers/rawModern.ts';
import { connectSdkClient, textOf } from '../helpers/sdkClients.ts';

/**
 * The `relayRound` handler option (what `ParleyProxy` passes modern rounds through with): a
 * modern-era round it answers goes out as it returned it, Parley's own state never opened, inside
 * the server's middleware; it is never called on the handshake era.
 */

const FOREIGN_STATE = 'state-of-another-server';

function relayingServer(relayed: RelayedRound[], answer: (round: RelayedRound) => unknown) {
  const server = new ParleyServer({
    name: 'relaying',
    requestStateSecurity: { allowEphemeralKeys: true },
    onError: () => {},
  });
  server.tool(
    'forward',
    {
      inputSchema: { city: z.string() },
      relayRound: (round) => {
        relayed.push(round);
        return answer(round) as Record<string, unknown>;
      },
    },
    ({ city }) => `handled here: ${city}`,
  );
  return server;
}

describe('relayRound', () => {
  test('a modern round goes out as the relay answered it; state and answers reach it untouched', async () => {
    const relayed: RelayedRound[] = [];
    const server = relayingServer(relayed, (round) =>
      round.params['requestState'] === undefined
        ? {
            resultType: 'input_required',
            inputRequests: { ok: { method: 'roots/list' } },
            requestState: FOREIGN_STATE,
          }
        : { content: [{ type: 'text', text: 'relayed' }] },
    );
    const first = await rawModernCall(server, { name: 'forward', arguments: { city: 'Lisbon' } });
    // As the relay returned it; the server adds only its own serverInfo, as on every result.
    expect(first.body.result).toEqual({
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'relaying', version: '0.0.0' } },
      resultType: 'input_required',
      inputRequests: { ok: { method: 'roots/list' } },
      requestState: FOREIGN_STATE,
    });
    // A state Parley did not seal would be refused by its own flow; the relay takes it as is.
    const answers = { ok: { roots: [] } };
    const second = await rawModernCall(server, {
      name: 'forward',
      arguments: { city: 'Lisbon' },
      inputResponses: answers,
      requestState: FOREIGN_STATE,
    });
    expect(second.body.result).toMatchObject({ content: [{ type: 'text', text: 'relayed' }] });
    expect(relayed[1]?.params).toMatchObject({
      name: 'forward',
      arguments: { city: 'Lisbon' },
      inputResponses: answers,
      requestState: FOREIGN_STATE,
    });
    expect(relayed[1]?.request.era).toBe('modern');
  });

  test('arguments are checked first; a thrown error keeps its code', async () => {
    const relayed: RelayedRound[] = [];
    const server = relayingServer(relayed, () => {
      throw new ProtocolError(-32099, 'upstream said no', { why: 'test' });
    });
    const bad = await rawModernCall(server, { name: 'forward', arguments: { city: 3 } });
    expect(bad.body.result?.['isError']).toBe(true);
    expect(relayed).toHaveLength(0);

    const failed = await rawModernCall(server, { name: 'forward', arguments: { city: 'Oslo' } });
    expect(failed.body.error).toEqual({
      code: -32099,
      message: 'upstream said no',
      data: { why: 'test' },
    });
  });

  test('runs inside the middleware, which sees the round without a flow of Parley’s', async () => {
    const relayed: RelayedRound[] = [];
    const server = relayingServer(relayed, (round) =>
      round.params['requestState'] === undefined
        ? { resultType: 'input_required', inputRequests: {}, requestState: FOREIGN_STATE }
        : { content: [{ type: 'text', text: 'relayed' }], _meta: { kept: true } },
    );
    const seen: string[] = [];
    server.use(async (context, callNext) => {
      const city = (context.params as { arguments: { city: string } }).arguments.city;
      // A limit a middleware enforces holds for relayed rounds too: the relay is not reached.
      if (city === 'Limited') throw new ProtocolError(-32000, 'rate limited');
      const value = await callNext();
      seen.push(
        [
          context.handler?.name,
          context.flow === undefined ? 'no flow' : 'flow',
          context.isContinuation ? 'continuation' : 'first',
          context.requestState ?? 'no author state',
          value instanceof ToolResult ? value.constructor.name : typeof value,
        ].join(' / '),
      );
      return city === 'Override' ? 'from middleware' : value;
    });
    const first = await rawModernCall(server, { name: 'forward', arguments: { city: 'Lisbon' } });
    expect(first.body.result).toMatchObject({ requestState: FOREIGN_STATE });
    const second = await rawModernCall(server, {
      name: 'forward',
      arguments: { city: 'Lisbon' },
      inputResponses: {},
      requestState: FOREIGN_STATE,
    });
    // Untouched when the middleware passed the relay's result on: its `_meta` too.
    expect(second.body.result).toMatchObject({
      content: [{ text: 'relayed' }],
      _meta: { kept: true },
    });
    expect(seen).toEqual([
      'forward / no flow / first / no author state / InputRequiredToolResult',
      'forward / no flow / continuation / no author state / ToolResult',
    ]);

    const limited = await rawModernCall(server, {
      name: 'forward',
      arguments: { city: 'Limited' },
    });
    expect(limited.body.error).toMatchObject({ code: -32000, message: 'rate limited' });
    expect(relayed).toHaveLength(2);

    const overridden = await rawModernCall(server, {
      name: 'forward',
      arguments: { city: 'Override' },
      requestState: FOREIGN_STATE,
    });
    expect(textOf(overridden.body.result)).toBe('from middleware');
  });

  test('a relay that returns no object is the server’s fault, answered as Internal error', async () => {
    const server = relayingServer([], () => 'not a result');
    const reply = await rawModernCall(server, { name: 'forward', arguments: { city: 'Rome' } });
    expect(reply.body.error).toMatchObject({ code: -32603, message: 'Internal error' });
  });

  test('never called on the handshake era: the handler runs', async () => {
    const relayed: RelayedRound[] = [];
    const server = relayingServer(relayed, () => ({ content: [] }));
    const connection = await connectSdkClient({ era: 'handshake', via: 'in-process', server });
    const result = await connection.client.callTool({
      name: 'forward',
      arguments: { city: 'Paris' },
    });
    expect(textOf(result)).toBe('handled here: Paris');
    expect(relayed).toHaveLength(0);
    await connection.close();
  });

  test('refused at registration when it is not a function', () => {
    const server = new ParleyServer({ name: 'x' });
    expect(() => server.tool('t', { relayRound: 'yes' as never }, () => 'ok')).toThrow(
      /relayRound must be a function/,
    );
  });
});
