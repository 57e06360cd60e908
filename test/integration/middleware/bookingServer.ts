/**
 * The seeds' booking server, serving both eras from one tool: `ctx.elicit()` on handshake
 * connections, the guard pattern (three rounds, the destination carried in sealed state) on
 * modern ones. Plus a few tools the middleware tests need: cacheable ones, one that fails, one
 * that carries state without asking.
 */
import * as z from 'zod';

import type { MiddlewareEntry } from '@parley/middleware';
import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';

/** A shared key ring (32 bytes), so several instances act as replicas of one deployment. */
export const REPLICA_KEYS = ['integration-test-replica-key-0123456789'];

const destinationSchema = z.object({ destination: z.string() });
const dateSchema = z.object({ date: z.string() });
const askDestination = elicitRequest('Where would you like to fly?', destinationSchema);
const askDate = (destination: string) =>
  elicitRequest(`When would you like to fly to ${destination}?`, dateSchema);

/** How often each handler ran (a cache hit or a refused round does not run it). */
export type Runs = Record<string, number>;

export function createBookingServer(
  middleware: MiddlewareEntry[] = [],
  options: Partial<ParleyServerOptions> = {},
): { server: ParleyServer; runs: Runs } {
  const runs: Runs = {};
  const ran = (name: string) => {
    runs[name] = (runs[name] ?? 0) + 1;
  };
  const server = new ParleyServer({
    name: 'Booking Server',
    onError: () => {},
    onWarning: () => {},
    ...options,
  });

  server.tool('book_flight', { description: 'Book a flight.' }, async (_args, ctx) => {
    ran('book_flight');
    if (ctx.era === 'handshake') {
      const where = await ctx.elicit('Where would you like to fly?', destinationSchema);
      if (where.action !== 'accept') return 'Booking cancelled.';
      const when = await ctx.elicit(
        `When would you like to fly to ${where.data.destination}?`,
        dateSchema,
      );
      if (when.action !== 'accept') return 'Booking cancelled.';
      return `Booked a flight to ${where.data.destination} on ${when.data.date}`;
    }
    if (ctx.requestState === null) {
      const destination = ctx.answer('destination', askDestination);
      if (destination === undefined) {
        return inputRequired({ inputRequests: { destination: askDestination } });
      }
      if (destination.action !== 'accept') return 'Booking cancelled.';
      return inputRequired({
        inputRequests: { date: askDate(destination.data.destination) },
        requestState: destination.data.destination,
      });
    }
    const date = ctx.answer('date', dateSchema);
    if (date === undefined) {
      return inputRequired({
        inputRequests: { date: askDate(ctx.requestState) },
        requestState: ctx.requestState,
      });
    }
    if (date.action !== 'accept') return 'Booking cancelled.';
    return `Booked a flight to ${ctx.requestState} on ${date.data.date}`;
  });

  server.tool(
    'forecast',
    // The units may be given up front, without being asked: declared, so they are heard.
    { inputSchema: { city: z.string() }, cacheable: true, asks: { units: ['C', 'F'] } },
    async ({ city }, ctx) => {
      ran('forecast');
      // A first round needs nothing from the user; answers (if any) change the result.
      const units = ctx.answer('units', ['C', 'F']);
      if (units?.action === 'accept') return `Forecast for ${city}: 68°${units.data}`;
      return `Forecast for ${city}: 20°C (call ${runs.forecast})`;
    },
  );

  server.tool(
    'pick_seat',
    { inputSchema: { flight: z.string() }, cacheable: true },
    async ({ flight }, ctx) => {
      ran('pick_seat');
      const seat = ctx.answer('seat', z.object({ seat: z.string() }));
      if (seat === undefined) {
        return inputRequired({
          inputRequests: {
            seat: elicitRequest(`Which seat on ${flight}?`, z.object({ seat: z.string() })),
          },
        });
      }
      return seat.action === 'accept' ? `Seat ${seat.data.seat} on ${flight}` : 'No seat';
    },
  );

  server.tool('greet_by_asking', { cacheable: true }, async (_args, ctx) => {
    ran('greet_by_asking');
    const name = await ctx.elicit('Your name?', z.object({ name: z.string() }));
    return name.action === 'accept' ? `Hello ${name.data.name}` : 'Hello stranger';
  });

  server.tool('countdown', async (_args, ctx) => {
    ran('countdown');
    // A state-only round: nothing to ask, just carry on (the client retries with the state).
    const left = ctx.requestState === null ? 2 : Number(ctx.requestState);
    if (left > 0) return inputRequired({ requestState: String(left - 1) });
    return 'Lift-off';
  });

  server.tool('explode', async () => {
    ran('explode');
    throw new Error('the booking backend is down');
  });

  server.resource(
    'rates://today',
    { name: 'today’s rates', mimeType: 'text/plain', cacheable: true },
    async () => {
      ran('rates');
      return `EUR/USD 1.08 (read ${runs.rates})`;
    },
  );

  server.use(...middleware);
  return { server, runs };
}
