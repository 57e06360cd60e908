import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';
import * as z from 'zod';

/** A slow lookup you would rather not repeat on every round. */
function quoteFare(destination: string): number {
  return destination.length * 20;
}

// #region state
const Quote = z.object({ destination: z.string(), fare: z.number() });
type Quote = z.infer<typeof Quote>;

const askDestination = elicitRequest('Where to?', String, {
  responseTitle: 'Destination',
});
const askConfirm = (quote: Quote) =>
  elicitRequest(
    `Fly to ${quote.destination} for ${quote.fare} EUR?`,
    Boolean,
    {
      responseTitle: 'Book it',
    },
  );

export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Fare Server', ...options });

  mcp.tool('book_cheapest', (_args, ctx) => {
    // Later rounds: the quote computed on round 1 comes back, verified by Parley.
    if (ctx.requestState !== null) {
      const quote = Quote.parse(JSON.parse(ctx.requestState));
      const confirm = ctx.answer('confirm', askConfirm(quote));
      if (confirm === undefined) {
        return inputRequired({
          inputRequests: { confirm: askConfirm(quote) },
          requestState: ctx.requestState,
        });
      }
      return confirm.action === 'accept' && confirm.data
        ? `Booked ${quote.destination} for ${quote.fare} EUR`
        : 'Not booked';
    }

    const where = ctx.answer('destination', askDestination);
    if (where === undefined)
      return inputRequired({
        inputRequests: { destination: askDestination },
      });
    if (where.action !== 'accept') return 'Not booked';

    const fresh: Quote = {
      destination: where.data,
      fare: quoteFare(where.data),
    };
    return inputRequired({
      inputRequests: { confirm: askConfirm(fresh) },
      // A string; sealed by Parley before it leaves the server.
      requestState: JSON.stringify(fresh),
    });
  });

  return mcp;
}
// #endregion state
