import { ParleyServer, elicitRequest } from '@parley/server';
import * as z from 'zod';

const mcp = new ParleyServer({ name: 'Booking Server' });

const askDestination = elicitRequest(
  'Where would you like to fly?',
  z.object({ destination: z.string().meta({ title: 'Destination' }) }),
);
const askDate = (to: string) =>
  elicitRequest(
    `When would you like to fly to ${to}?`,
    z.object({ date: z.iso.date().meta({ title: 'Date' }) }),
  );

mcp.tool('book_flight', async (_args, ctx) => {
  const where = await ctx.ask('destination', askDestination);
  if (where.action !== 'accept') return 'Booking cancelled.';
  const { destination } = where.data;

  // Once per flow, though the modern era runs the handler again each round.
  const fare = await ctx.remember('fare', () => lookUpFare(destination));

  const when = await ctx.ask('date', askDate(destination));
  if (when.action !== 'accept') return 'Booking cancelled.';
  return `Booked ${destination} on ${when.data.date} for €${fare}`;
});

await mcp.run({ transport: 'stdio' });

async function lookUpFare(destination: string): Promise<number> {
  return 100 + destination.length * 10; // your fare API here
}
