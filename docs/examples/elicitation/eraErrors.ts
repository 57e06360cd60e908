import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';

/** Two tools that each use the other era's API: what the strict era gate says about them. */
export function createServer(
  options: Partial<ParleyServerOptions> = {},
): ParleyServer {
  const mcp = new ParleyServer({ name: 'Era Gate', ...options });
  const askDestination = elicitRequest(
    'Where would you like to fly?',
    String,
    {
      responseTitle: 'Destination',
    },
  );

  // #region guardOnly
  // Guard pattern only: fine on the modern protocol, an era error on a handshake connection.
  mcp.tool('book_flight', (_args, ctx) => {
    const where = ctx.answer('destination', askDestination);
    if (where === undefined)
      return inputRequired({
        inputRequests: { destination: askDestination },
      });
    return where.action === 'accept'
      ? `Booked a flight to ${where.data}`
      : 'Booking cancelled.';
  });
  // #endregion guardOnly

  // #region elicitOnly
  // ctx.elicit() only: fine on a handshake connection, an era error on the modern protocol.
  mcp.tool('ask_name', async (_args, ctx) => {
    const name = await ctx.elicit("What's your name?", String, {
      responseTitle: 'Name',
    });
    return name.action === 'accept'
      ? `Hello, ${name.data}!`
      : 'Hello, stranger!';
  });
  // #endregion elicitOnly

  return mcp;
}
