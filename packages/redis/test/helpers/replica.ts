/**
 * A replica of a booking server: the same name and key ring as its peers, one shared single-use
 * store, a count of how often its handler ran, and the errors it reported.
 */
import * as z from 'zod';

import { ParleyServer, elicitRequest, inputRequired, type SingleUseStore } from '@parley/server';

export const KEYS = ['k'.repeat(32)];

const askSeats = elicitRequest(
  'How many seats?',
  z.object({ seats: z.number().int().min(1).max(9).meta({ title: 'Seats' }) }),
);

export interface Replica {
  name: string;
  server: ParleyServer;
  /** Every booking this replica's handler made (its side effect): seats… */
  bookings: number[];
  /** …and the `ref` argument of each, where the call had one. */
  booked: string[];
  errors: unknown[];
}

export function createReplica(
  name: string,
  store: SingleUseStore,
  security: { replayWindowMs?: number; roundLeaseMs?: number } = {},
): Replica {
  const bookings: number[] = [];
  const booked: string[] = [];
  const errors: unknown[] = [];
  const server = new ParleyServer({
    name: 'Booking Server',
    requestStateSecurity: { keys: KEYS, singleUse: store, ...security },
    onError: (error) => errors.push(error),
  });
  server.tool('book', { inputSchema: { ref: z.string().optional() } }, ({ ref }, ctx) => {
    const seats = ctx.answer('seats', askSeats);
    if (seats === undefined) return inputRequired({ inputRequests: { seats: askSeats } });
    if (seats.action !== 'accept') return 'Not booked';
    bookings.push(seats.data.seats);
    if (ref !== undefined) booked.push(ref);
    return `Booked ${seats.data.seats} seats (booking ${bookings.length} on ${name})`;
  });
  return { name, server, bookings, booked, errors };
}

let nextId = 1;

export interface ModernReply {
  result?: { resultType?: string; requestState?: string; content?: { text: string }[] };
  error?: { code: number; message: string; data?: unknown };
}

/** One raw 2026-07-28 `tools/call` round through the replica's web-standard fetch handler. */
export async function callBook(
  replica: Replica,
  round: { seats?: number; requestState?: string; ref?: string } = {},
): Promise<ModernReply> {
  const params = {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '0' },
    },
    name: 'book',
    arguments: round.ref !== undefined ? { ref: round.ref } : {},
    ...(round.seats !== undefined
      ? { inputResponses: { seats: { action: 'accept', content: { seats: round.seats } } } }
      : {}),
    ...(round.requestState !== undefined ? { requestState: round.requestState } : {}),
  };
  const response = await replica.server.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'book',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params }),
    }),
  );
  return (await response.json()) as ModernReply;
}

/** The text of a completed round, or the error message. */
export function outcomeOf(reply: ModernReply): string {
  return reply.result?.content?.[0]?.text ?? `error ${reply.error?.code}: ${reply.error?.message}`;
}
