/**
 * The `ctx.ask` contenders of `askFlow.bench.ts`, each as its own process so its CPU can be
 * measured apart from the load generator: the same three-round booking flow (destination, then
 * date, then the result) on the modern protocol, served by Parley twice:
 *
 * - `guard`: written by hand in the guard pattern (`ctx.answer`, `inputRequired`, the
 *   destination carried in `requestState`);
 * - `ask`: written once with `await ctx.ask(...)` (sealed replay).
 *
 * Prints its URL over IPC; answers an IPC `cpu` message with its CPU time so far.
 */
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';
import * as z from 'zod';

const KEY = 'bench-state-key-'.repeat(2);
const destinationSchema = z.object({ destination: z.string() });
const dateSchema = z.object({ date: z.string() });
const askDestination = elicitRequest('Where would you like to fly?', destinationSchema);
const askDate = (destination: string) =>
  elicitRequest(`When would you like to fly to ${destination}?`, dateSchema);

function server(): ParleyServer {
  return new ParleyServer({
    name: 'booking',
    requestStateSecurity: { keys: [KEY] },
    onWarning: () => {},
  });
}

function guard(): ParleyServer {
  const mcp = server();
  mcp.tool('book_flight', (_args, ctx) => {
    if (ctx.requestState === null) {
      const where = ctx.answer('destination', askDestination);
      if (where === undefined || where.action !== 'accept')
        return inputRequired({ inputRequests: { destination: askDestination } });
      return inputRequired({
        inputRequests: { date: askDate(where.data.destination) },
        requestState: where.data.destination,
      });
    }
    const when = ctx.answer('date', dateSchema);
    return `Booked a flight to ${ctx.requestState} on ${when?.action === 'accept' ? when.data.date : '?'}`;
  });
  return mcp;
}

function ask(): ParleyServer {
  const mcp = server();
  mcp.tool('book_flight', async (_args, ctx) => {
    const where = await ctx.ask('destination', askDestination);
    if (where.action !== 'accept') return 'Booking cancelled.';
    const when = await ctx.ask('date', askDate(where.data.destination));
    return `Booked a flight to ${where.data.destination} on ${when.action === 'accept' ? when.data.date : '?'}`;
  });
  return mcp;
}

const kind = process.argv[2];
const mcp = kind === 'ask' ? ask() : guard();
const running = await mcp.run({ transport: 'http', port: 0 });
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'exit') process.exit(0);
});
process.send?.({ url: running.url });
