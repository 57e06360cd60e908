// #region server
import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

const Destination = z.object({
  destination: z.string().meta({ title: 'Destination' }),
});
const DepartureDate = z.object({
  date: z.iso.date().meta({ title: 'Date' }),
});

const askDestination = elicitRequest(
  'Where would you like to fly?',
  Destination,
);
const askDate = (destination: string) =>
  elicitRequest(
    `When would you like to fly to ${destination}?`,
    DepartureDate,
  );

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Booking Server', ...options });

  mcp.tool('book_flight', { outputSchema: z.string() }, (_args, ctx) => {
    // Round 1: nothing has been asked yet.
    if (ctx.inputResponses === null) {
      return inputRequired({
        inputRequests: { destination: askDestination },
      });
    }

    // Round 2: the destination came back. Ask for the date; carry the destination forward.
    const where = ctx.answer('destination', Destination);
    if (where !== undefined) {
      if (where.action !== 'accept') return 'Booking cancelled.';
      const { destination } = where.data;
      return inputRequired({
        inputRequests: { date: askDate(destination) },
        requestState: destination,
      });
    }

    // Round 3: the date came back, and the destination is in requestState.
    const destination = ctx.requestState;
    const when = ctx.answer('date', DepartureDate);
    if (destination === null || when === undefined) {
      return inputRequired({
        inputRequests: { destination: askDestination },
      }); // start over
    }
    if (when.action !== 'accept') return 'Booking cancelled.';
    return `Booked a flight to ${destination} on ${when.data.date}`;
  });

  return mcp;
}
// #endregion server
