import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

/** The layer beneath ctx.ask: one tool per era, each refused on the other. */
export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Elicitation Server', ...options });

  // #region elicit
  // Handshake era only: a request to the client, awaited.
  mcp.tool(
    'collect_user_info',
    { description: 'Ask for name and age' },
    async (_args, ctx) => {
      const result = await ctx.elicit(
        'Please provide your information',
        z.object({ name: z.string(), age: z.number().int() }),
      );
      if (result.action === 'accept')
        return `Hello ${result.data.name}, you are ${result.data.age} years old`;
      return result.action === 'decline'
        ? 'Information not provided'
        : 'Operation cancelled';
    },
  );
  // #endregion elicit

  // #region guard
  const askDestination = elicitRequest(
    'Where would you like to fly?',
    z.object({ destination: z.string() }),
  );
  const askDate = (to: string) =>
    elicitRequest(
      `When would you like to fly to ${to}?`,
      z.object({ date: z.string() }),
    );

  // The modern era only: the guard pattern, each round written out.
  mcp.tool('book_flight', (_args, ctx) => {
    if (ctx.requestState === null) {
      const where = ctx.answer('destination', askDestination); // undefined until answered
      if (where === undefined)
        return inputRequired({
          inputRequests: { destination: askDestination },
        });
      if (where.action !== 'accept') return 'Booking cancelled.';
      return inputRequired({
        inputRequests: { date: askDate(where.data.destination) },
        requestState: where.data.destination, // sealed before it leaves
      });
    }
    const when = ctx.answer('date', askDate(ctx.requestState));
    if (when === undefined)
      return inputRequired({
        inputRequests: { date: askDate(ctx.requestState) },
        requestState: ctx.requestState,
      });
    return when.action === 'accept'
      ? `Booked a flight to ${ctx.requestState} on ${when.data.date}`
      : 'Booking cancelled.';
  });
  // #endregion guard

  return mcp;
}
